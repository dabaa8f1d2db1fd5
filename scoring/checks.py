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
    """Called by wsgi/asgi: a server without its keys would fail on its first signed cookie or PIN instead."""
    if secret_key_is_set(None):
        raise RuntimeError(MISSING_SECRET_KEY)
    if pin_keys_are_set(None):
        raise RuntimeError(MISSING_PIN_KEYS)


MISSING_PIN_KEYS = "PIN_KEYS must be set when DEBUG is off: players' PINs are hashed with it"


@register
def pin_keys_are_set(app_configs, **kwargs):
    if not settings.PIN_KEYS:
        return [Error(MISSING_PIN_KEYS, hint="export PIN_KEYS='k1:a long random string'", id="scoring.E002")]
    return []
