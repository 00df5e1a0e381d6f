"""The REST API under ``/api/v1/``: thin DRF views over the same services the pages use."""
