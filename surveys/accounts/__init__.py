"""A researcher's account: the throttled login and its two-factor step, the
account page (API token and its scope), password reset, the optional sign-up,
the idle-session and required-two-factor middleware, and the service behind
create_researcher. config.urls, config.settings (middleware), that command and
REST_FRAMEWORK's settings use it; it imports surveys.ratelimit, surveys.models,
surveys.team.audit, Django's auth and django-otp."""
