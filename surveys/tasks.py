"""The app's Celery tasks, where Celery's autodiscovery looks for them."""

from surveys.mailing.tasks import send_mailing_batch, sweep_mailings

__all__ = ["send_mailing_batch", "sweep_mailings"]
