"""System checks of the deployment that Django's own checks leave out. No business rules here."""

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured

MISSING_SECRET_KEY = "SECRET_KEY must be set when DEBUG is off (DEBUG=1 for development)"


@register
def secret_key_is_set(app_configs, **kwargs):
    try:
        settings.SECRET_KEY  # noqa: B018  (Django refuses to read an empty key)
    except ImproperlyConfigured:
        return [Error(MISSING_SECRET_KEY, hint="export SECRET_KEY='a long random string'", id="scoring.E001")]
    return []


def require_secret_key() -> None:
    """Called by wsgi/asgi: a server without a key would fail on its first signed cookie instead."""
    if secret_key_is_set(None):
        raise RuntimeError(MISSING_SECRET_KEY)
