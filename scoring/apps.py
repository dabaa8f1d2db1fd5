from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from django.db.backends.signals import connection_created

        from core.pg_timestamps import use_iso_timestamps

        from . import checks  # noqa: F401  (registers the system checks)

        connection_created.connect(use_iso_timestamps, dispatch_uid="core.pg_timestamps")
