"""Multiple choice: k-ary randomized response."""
