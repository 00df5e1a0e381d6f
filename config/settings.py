"""Settings, read from the environment with safe local defaults.

Nothing here needs to be set for a first run on a laptop: the database is an
SQLite file, the secret key is generated once into ``var/``, and the site
answers on localhost only. Production sets the variables in the README's table.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [
        item.strip()
        for item in os.environ.get(name, default).split(",")
        if item.strip()
    ]


def _local_secret_key() -> str:
    """A key generated once per checkout, so a laptop needs no configuration.

    Several processes may start at once on a fresh checkout (the test
    suite's workers, ``make run``'s server and worker): each writes its key
    whole to a file of its own, then links it into place, which only the
    first can do, so every process reads the same complete key."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        draft = VAR_DIR / f"secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        draft.write_text(secrets.token_urlsafe(50))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process was first: its key is the checkout's
        except OSError:
            # A file system without hard links: moved into place whole
            # instead (of processes racing here, the last one's key stays).
            os.replace(draft, path)
        finally:
            draft.unlink(missing_ok=True)
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or _local_secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    # Two-factor sign-in (surveys/accounts/two_factor.py): authenticator apps
    # and one-time recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "surveys",
    "estimation.runs",
]

MIDDLEWARE = [
    "config.logging.RequestLogMiddleware",
    "config.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Django's LocaleMiddleware: a researcher's pages speak the language cookie
    # (set by the header's chooser and at login from the account), else
    # Accept-Language; a survey's respondent pages override it with the
    # survey's language and keep their own Vary (config/locale.py).
    "config.locale.PageLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "surveys.accounts.middleware.IdleSessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "surveys.accounts.middleware.TwoFactorRequiredMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's two loaders, and each question kind's page fragments
            # from its own package (kinds/<package>/... in
            # surveys/kinds/<package>/templates/), cached as Django's are.
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "surveys.kinds.loaders.Loader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # The submission statement is prepared once per connection (psycopg's
    # prepare_threshold; Django's own queries never are). Turn it off behind a
    # pooler in transaction mode that cannot keep prepared statements
    # (PgBouncer before 1.21, or max_prepared_statements = 0).
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        5 if os.environ.get("DB_PREPARED_STATEMENTS", "on") == "on" else None
    )
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded default runs estimate jobs in a thread of the web process:
    # take the write lock when a transaction starts and wait for it, rather than
    # fail with "database is locked" when a job and a submission meet.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
# Optional: a streaming replica for the researchers' heavy reads (the answer
# downloads, web and API). Submissions, estimate runs and dashboards stay on
# the primary: they write, or must show a run the moment it finishes.
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"],
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
EXPORTS_DATABASE = "replica" if "replica" in DATABASES else "default"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Optional: without it, background jobs run in-process (see config/celery_app.py).
REDIS_URL = os.environ.get("REDIS_URL", "")
# Put before every key this deployment writes to Redis, the cache's and Celery's
# queues alike, so that deployments (or copies of the test suite) sharing one
# Redis database never read each other's counts nor take each other's jobs.
REDIS_KEY_PREFIX = os.environ.get("REDIS_KEY_PREFIX", "")

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Argon2id (Django's recommended hasher) for every new or changed password.
# The others only check hashes made before it: a researcher's PBKDF2 hash is
# rehashed with Argon2 at their next successful sign-in.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "surveys:list"
LOGOUT_REDIRECT_URL = "login"

# Who must sign in with an authenticator app as well as the password: "none",
# "owners" (of a published survey) or "everyone". Those without one are sent to
# set it up and can do nothing else; API tokens are not affected.
REQUIRE_TWO_FACTOR = os.environ.get("REQUIRE_TWO_FACTOR", "none").strip().lower()
if REQUIRE_TWO_FACTOR not in {"none", "owners", "everyone"}:
    raise ImproperlyConfigured(
        f"REQUIRE_TWO_FACTOR={REQUIRE_TWO_FACTOR!r}: use none, owners or everyone."
    )
# Staff may delete a lost device in the admin, never read its secret.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True
# The name authenticator apps show beside this site's codes.
OTP_TOTP_ISSUER = os.environ.get("TWO_FACTOR_ISSUER", "RR Surveys")

# Anyone may create an account at /accounts/signup/ and verify it by email.
# Off by default: researchers are added by staff (manage.py create_researcher).
SIGNUP_ENABLED = env_bool("SIGNUP_ENABLED", False)

# Email: password resets, sign-up verification and the invitations researchers
# mail (surveys/mailing/, which refuses to send without EMAIL_HOST). Printed to
# the console (the process's log) unless EMAIL_HOST names an SMTP server.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not env_bool("EMAIL_USE_SSL", False))
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    # A slow mail server must not hold a web worker for long.
    EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

LANGUAGE_CODE = "en"
# The languages a survey can be written in and its respondent pages shown in,
# and those a researcher may choose for their own pages (docs/languages.md
# says how to add one).
LANGUAGES = [("en", "English"), ("es", "Español")]
# The researcher's choice of language for their pages (Django's set_language
# and each login set it), kept a year.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Each question kind's browser module lives in its own package
# (surveys/kinds/<package>/static/) and is served as js/kinds/<package>/.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    *(
        (f"js/kinds/{folder.parent.name}", folder)
        for folder in sorted((BASE_DIR / "surveys" / "kinds").glob("*/static"))
    ),
]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))
# Serve straight from static/ so a laptop needs no collectstatic step.
WHITENOISE_USE_FINDERS = True

# The respondent page posts one small JSON object; anything larger is refused.
SUBMISSION_MAX_BYTES = int(os.environ.get("SUBMISSION_MAX_BYTES", "16384"))
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# The most privacy loss a published survey may ask of a respondent: epsilon per
# randomized question and summed over a whole response (docs/methodology.md,
# "Privacy bands"). Publishing above either is refused. Neither may exceed the
# cap built into the browser's randomizer (10), which a system check enforces.
MAX_QUESTION_EPSILON = float(os.environ.get("MAX_QUESTION_EPSILON", "5"))
MAX_SURVEY_EPSILON = float(os.environ.get("MAX_SURVEY_EPSILON", "10"))
# Designs that leave some answer unprotected (a No given as the device
# instructed reveals the answer is No) have no finite epsilon, so by default
# they are refused like any design above the limits. A site that allows them
# still requires the researcher to confirm, when publishing, that respondents
# will be told (docs/methodology.md, "Limits set by the site").
ALLOW_UNBOUNDED_DESIGNS = env_bool("ALLOW_UNBOUNDED_DESIGNS", False)
# How long a respondent's browser keeps the receipt of what it sent (and so
# stops a second response): this many days, or until the survey closes.
RECEIPT_DAYS = int(os.environ.get("RECEIPT_DAYS", "30"))

# A researcher's session ends after this many seconds without a request
# (default two hours): each request pushes the expiry forward again.
# (surveys/accounts/middleware.py refreshes it at most once a minute).
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_IDLE_SECONDS", str(2 * 3600)))
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        # A read-only token is refused every unsafe method.
        "surveys.accounts.token_scope.TokenScopePermission",
    ],
    "DEFAULT_PAGINATION_CLASS": "surveys.api.pagination.NewestFirst",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "surveys.api.errors.error_body",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Randomized-response surveys API",
    "DESCRIPTION": (
        "Design surveys, read estimates and export the randomized answers. "
        "Researchers authenticate with `Authorization: Token <key>` (create the "
        "key on the API token page, `/accounts/token/`, linked as *API token* at "
        "the top of every researcher page) or a browser session."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from static/, never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A member's role and the role a previous owner keeps are one choice set.
    "ENUM_NAME_OVERRIDES": {
        "MemberRoleEnum": "surveys.api.members.MEMBER_ROLES",
        # Estimate runs and model fits share their statuses: one enum, the
        # name it had before fits existed.
        "RunStatusEnum": "estimation.runs.models.EstimateRun.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "surveys.api.schema.add_error_responses",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        # One JSON object per line, never a body, IP or user agent (config/logging.py).
        "json": {"()": "config.logging.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": os.environ.get("LOG_FORMAT", "json"),
        }
    },
    "root": {
        "handlers": ["console"],
        "level": os.environ.get("LOG_LEVEL", "INFO").upper(),
    },
    "loggers": {
        # The development server logs each request line with the client's
        # address; we keep no IP addresses, so only warnings get through.
        "django.server": {"level": "WARNING"},
    },
}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 600
# A message whose worker died unacknowledged is redelivered after this long.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    # A submission that schedules a run never waits long for a lost broker.
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # Queues, unacknowledged messages and the workers' broadcasts alike.
    "global_keyprefix": REDIS_KEY_PREFIX,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE = {
    "sweep-stale-surveys": {
        "task": "estimation.tasks.sweep_stale_surveys",
        "schedule": 60.0,
    },
    # The saved counts against a fresh count of every answer, once a day
    # (estimation/runs/counting.py); a disagreement is logged and rebuilt.
    # Invitation addresses of closed surveys deleted, and mailings whose next
    # batch was lost resumed (surveys/mailing/).
    "sweep-mailings": {
        "task": "surveys.mailing.sweep",
        "schedule": float(os.environ.get("MAILING_SWEEP_SECONDS", "600")),
    },
    "check-saved-counts": {
        "task": "estimation.tasks.check_saved_counts",
        "schedule": float(os.environ.get("COUNTS_CHECK_SECONDS", "86400")),
    },
}

# Seconds between the first new response and the estimate run it schedules:
# the dashboard is at most about this plus one run behind.
ESTIMATE_DELAY_SECONDS = float(os.environ.get("ESTIMATE_DELAY_SECONDS", "30"))
# How often an open survey's results page asks whether newer estimates exist
# (it then shows them without a reload; docs/api.md is unaffected).
RESULTS_POLL_SECONDS = float(os.environ.get("RESULTS_POLL_SECONDS", "20"))
# Invitations and reminders mailed by the platform (surveys/mailing/): at most
# this many messages in any minute, all mailings together (the provider's limit).
INVITATION_EMAILS_PER_MINUTE = int(os.environ.get("INVITATION_EMAILS_PER_MINUTE", "60"))
# Subgroups with fewer responses than this are not shown on dashboards.
DASHBOARD_MIN_GROUP_SIZE = int(os.environ.get("DASHBOARD_MIN_GROUP_SIZE", "20"))

# -- production readiness ---------------------------------------------------

# Only the site's own scripts and styles, in every profile (config/csp.py).
# No inline script or style anywhere: data reaches pages through json_script.
CONTENT_SECURITY_POLICY = os.environ.get("CONTENT_SECURITY_POLICY") or (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

# Celery's workers log through LOGGING above, as JSON lines like the web.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Shared by every process when Redis is configured, so rate limits hold
# across web processes and hosts; short timeouts, because a lost cache only
# switches throttling off (surveys/ratelimit.py), it must not stall requests.
CACHES = {
    "default": (
        {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"{REDIS_KEY_PREFIX}rr",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Rate limits, "count/period" as DRF writes them ("60/minute", "5/15minutes").
THROTTLE_SUBMISSIONS = os.environ.get("THROTTLE_SUBMISSIONS", "60/minute")
THROTTLE_PUBLIC_READS = os.environ.get("THROTTLE_PUBLIC_READS", "600/minute")
THROTTLE_LOGIN_USERNAME = os.environ.get("THROTTLE_LOGIN_USERNAME", "5/15minutes")
THROTTLE_LOGIN_CLIENT = os.environ.get("THROTTLE_LOGIN_CLIENT", "20/15minutes")
# Failed log-ins from a browser that has logged in as that username before
# (surveys/accounts/login.py); such a browser is not held by the two limits above.
THROTTLE_LOGIN_DEVICE = os.environ.get("THROTTLE_LOGIN_DEVICE", "5/15minutes")
# Wrong two-factor codes per researcher (at sign-in, enrolment and on the
# two-factor page) before codes are refused for the rest of the window.
THROTTLE_TWO_FACTOR_CODE = os.environ.get("THROTTLE_TWO_FACTOR_CODE", "5/15minutes")
LOGIN_DEVICE_COOKIE_NAME = "rr_login_device"
LOGIN_DEVICE_COOKIE_AGE = int(
    os.environ.get("LOGIN_DEVICE_COOKIE_AGE", str(180 * 24 * 3600))
)
# Password-reset requests, per client and per email address asked about (the
# same for addresses with and without an account, so a refusal tells nothing).
THROTTLE_PASSWORD_RESET_CLIENT = os.environ.get(
    "THROTTLE_PASSWORD_RESET_CLIENT", "10/15minutes"
)
THROTTLE_PASSWORD_RESET_EMAIL = os.environ.get(
    "THROTTLE_PASSWORD_RESET_EMAIL", "3/15minutes"
)
# Sign-up attempts per client, when sign-up is on.
THROTTLE_SIGNUP_CLIENT = os.environ.get("THROTTLE_SIGNUP_CLIENT", "5/hour")
# Behind a reverse proxy, the header that carries the client's address (e.g.
# X-Forwarded-For); unset, the connection's address is used. Only set it when
# the proxy overwrites or appends to that header, or clients can forge it.
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "")

# Seconds /healthz waits for the broker before calling it down.
HEALTH_BROKER_TIMEOUT = float(os.environ.get("HEALTH_BROKER_TIMEOUT", "1"))
