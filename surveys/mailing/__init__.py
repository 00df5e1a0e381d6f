"""Invitations mailed by the platform: the addresses, the researcher's message
in each language, and mailings sent in batches by a Celery job. Views, urls
and tasks here are interfaces; nothing outside this package imports it."""
