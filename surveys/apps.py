from django.apps import AppConfig


class SurveysConfig(AppConfig):
    name = "surveys"
    verbose_name = "Surveys"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from surveys import checks  # noqa: F401  (registers the system checks)
        from surveys.accounts.middleware import session_seen

        user_logged_in.connect(session_seen, dispatch_uid="surveys.session_seen")
