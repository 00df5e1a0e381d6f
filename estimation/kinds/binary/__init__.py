"""Yes/no questions: Warner, forced response, the unrelated question and the
crosswise model."""
