from django.apps import AppConfig


class SurveysConfig(AppConfig):
    name = "surveys"
    verbose_name = "Surveys"

    def ready(self) -> None:
        from surveys import checks  # noqa: F401  (registers the system checks)
