"""The production profile: the base settings, hardened.

Select it with ``DJANGO_SETTINGS_MODULE=config.settings_production`` (``make
serve`` and the container image do). It refuses to start without a real
``SECRET_KEY`` and passes ``manage.py check --deploy`` with no warning. TLS is
expected to end at a reverse proxy that sets ``X-Forwarded-Proto``.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from config.settings import *  # noqa: F403
from config.settings import env_bool

if not os.environ.get("SECRET_KEY"):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set in production: a long random string, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
SECRET_KEY = os.environ["SECRET_KEY"]
DEBUG = False

# HTTPS only: redirect plain HTTP, secure cookies, and HSTS for a year.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
# /healthz is answered ahead of this redirect (config/health.py): load
# balancers probe over plain HTTP on the private network.
# The proxy in front says whether the original request was HTTPS; it must
# overwrite this header, never pass on the client's.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# collectstatic writes hashed, compressed copies that WhiteNoise serves with a
# year's cache lifetime; a changed file gets a new name.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.static_storage.HashedModulesStorage"},
}
WHITENOISE_USE_FINDERS = False
