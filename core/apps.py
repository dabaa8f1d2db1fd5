from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The floor's own tables: one-time keys (``core.once``) and rate counters (``core.rate_limits``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Plumbing"
