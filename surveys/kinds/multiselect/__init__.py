"""Check all that apply on the platform side: its sentences for researchers."""
