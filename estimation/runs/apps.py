from django.apps import AppConfig


class EstimationConfig(AppConfig):
    """The database side of the statistics: estimate runs and their saved rows.

    Only Django loads this; importing ``estimation`` itself stays Django-free.
    The label stays ``estimation`` so the tables and migrations keep their names.
    """

    name = "estimation.runs"
    label = "estimation"
    verbose_name = "Estimation"
    default_auto_field = "django.db.models.BigAutoField"
