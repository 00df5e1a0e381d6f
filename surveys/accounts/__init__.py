"""A researcher's account: the throttled login, the account page (API token
and its scope), password reset, the optional sign-up and the service behind
create_researcher. config.urls, that command and REST_FRAMEWORK's settings use
it; it imports surveys.ratelimit, surveys.models and Django's auth."""
