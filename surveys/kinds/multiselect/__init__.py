"""Check all that apply on the platform side: its sentences for researchers
and what the builder allows."""
