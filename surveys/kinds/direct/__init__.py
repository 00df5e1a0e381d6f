"""A question asked plainly, on the platform side: what the builder allows."""
