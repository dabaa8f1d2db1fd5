from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from . import checks  # noqa: F401  (registers the system checks)
