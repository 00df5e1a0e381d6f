"""A count (how many times, 0 to a maximum) on the platform side: the designs
the builder offers and its options."""
