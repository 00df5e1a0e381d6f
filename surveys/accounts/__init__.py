"""A researcher's account: the throttled login and the API token page. Only
config.urls imports it; it imports surveys.ratelimit and Django's auth."""
