"""Yes/no (randomized) on the platform side: the designs the builder offers."""
