from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from django.db.backends.signals import connection_created

        from . import checks  # noqa: F401  (registers the system checks)
        from .pg_timestamps import use_iso_timestamps

        connection_created.connect(use_iso_timestamps, dispatch_uid="scoring.pg_timestamps")
