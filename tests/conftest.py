"""Shared test helpers."""

import pytest
from django.core.cache import cache, caches


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PINs and passwords are hashed with PBKDF2 in production; tests need not pay for it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Throttle counters live in the shared cache (a database table): each test with a database
    starts with none. Tests without a database (the engine's) have no cache to clear."""
    if request.node.get_closest_marker("django_db") is None:
        yield
        return
    cache.clear()
    caches["versioned"].clear()  # keyed by event id and results version: ids are reused from test to test
    yield
    cache.clear()
    caches["versioned"].clear()


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]
    where = db.get("HOST") or db.get("NAME")
    return f"database: {db['ENGINE'].rsplit('.', 1)[-1]} ({where})"
