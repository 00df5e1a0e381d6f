"""Device instructions: cheating detection and the stochastic lie detector, their
compliance estimates and the comparison of groups."""
