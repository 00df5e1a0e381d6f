"""The Celery app. With no REDIS_URL, tasks run in-process (eagerly), so a
laptop needs nothing else installed; with it, a worker runs them."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rr_survey")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
