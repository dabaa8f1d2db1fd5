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
    from core import background
    from tournaments.answers import read as answer_reads
    from tournaments.views import live

    def forget():
        background.forget_waiting()  # work deferred off a request (a webhook's delivery) that no test waited for
        cache.clear()
        caches["versioned"].clear()  # keyed by event id and results version: ids are reused from test to test
        answer_reads._seen_stored.clear()  # likewise each worker's memory of the versions it saw stored
        answer_reads._awaited_since.clear()
        live._recent.clear()  # and of the parts and pages it sent phones
        live._recent_pages.clear()

    forget()
    yield
    forget()


@pytest.fixture(autouse=True)
def _live_parts_made_at_once(monkeypatch):
    """A page part that moves often is made at most every few seconds in production, and each worker
    checks a phone's refresh against the database at most once a second; tests that look at a page right
    after a write see it at once (tests/tournaments/test_live_pages.py checks both)."""
    from tournaments.answers import memos as caching
    from tournaments.views import live

    monkeypatch.setattr(caching, "MAKE_AT_MOST_EVERY_SECONDS", 0)
    monkeypatch.setattr(live, "RECHECK_AFTER_SECONDS", 0)


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]
    where = db.get("HOST") or db.get("NAME")
    return f"database: {db['ENGINE'].rsplit('.', 1)[-1]} ({where})"


class _WindowClock:
    """``time`` as the rate counters read it, starting each test at the first second of a fresh window
    (an hour's, so a minute's too) and running at the real pace: a test that counts requests up to a
    limit never sees its window end halfway (the counters are fixed windows of real time)."""

    def __init__(self):
        import time

        self._real = time
        self._start = self._real.monotonic()
        self._zero = (int(self._real.time()) // 3600 + 1) * 3600

    def time(self) -> float:
        return self._zero + (self._real.monotonic() - self._start)

    def __getattr__(self, name):
        return getattr(self._real, name)


@pytest.fixture(autouse=True)
def _limits_start_at_a_window(monkeypatch):
    from core import rate_limits
    from scoring import actors as auth

    clock = _WindowClock()
    monkeypatch.setattr(rate_limits, "time", clock)
    monkeypatch.setattr(auth, "time", clock)
