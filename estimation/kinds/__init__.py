"""Question kinds of the pure core."""
