"""Fixed-window counters that every worker and machine share: what the API's throttles and the limits
on wrong tokens count with.

``hit(key, seconds)`` counts one request for ``key`` in the current window of ``seconds`` and answers
how many that window has seen, and how long until it ends. With ``REDIS_URL`` the counters live in
Redis (the shared cache); otherwise in the database, one row per key (``RateCounter``) moved by a
single ``INSERT ... ON CONFLICT DO UPDATE`` statement: no transaction of its own, no lock held past
that statement, and no row that every request shares (keys are per address, user or table link).

It decides nothing about who is limited or how much: ``scoring.throttles`` and ``scoring.actors`` do.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connection

from .models import RateCounter


@dataclass(frozen=True)
class Hit:
    count: int  # requests in the current window, this one included
    wait: float  # seconds until the window ends


def hit(key: str, seconds: int) -> Hit:
    now = time.time()
    start = int(now // seconds) * seconds  # the current window's first second
    key = stored_key(key)
    count = _cache_hit(key, start, seconds) if settings.REDIS_URL else _database_hit(key, start)
    return Hit(count, start + seconds - now)


def stored_key(key: str) -> str:
    """``key`` as it is stored: itself when short printable ASCII; otherwise a digest of it. A key holds what
    a client typed (a username): a NUL that PostgreSQL's text refuses, a surrogate that UTF-8 cannot encode
    or a long name would otherwise fail the request or share a counter with another name of the same
    first 200 characters."""
    if len(key) <= 200 and key.isascii() and key.isprintable():
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _cache_hit(key: str, start: int, seconds: int) -> int:
    key = f"rate:{key}:{start}"
    while True:
        try:
            return cache.incr(key)
        except ValueError:  # the window's first request (or its counter expired): start it at 1
            if cache.add(key, 1, seconds + 1):
                return 1


def _database_hit(key: str, start: int) -> int:
    quote = connection.ops.quote_name
    table = quote(RateCounter._meta.db_table)
    k, w, c = quote("key"), quote("window"), quote("count")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({k}, {w}, {c}) VALUES (%s, %s, 1) ON CONFLICT ({k}) DO UPDATE SET "
            f"{c} = CASE WHEN {table}.{w} = excluded.{w} THEN {table}.{c} + 1 ELSE 1 END, {w} = excluded.{w} "
            f"RETURNING {c}",
            [key, start],
        )
        return cursor.fetchone()[0]


def forget_old_windows(older_than_seconds: int = 3600) -> int:
    """Delete the counters of keys not seen for a while (``cleanup_expired``); their next hit starts at 1."""
    deleted, _ = RateCounter.objects.filter(window__lt=int(time.time()) - older_than_seconds).delete()
    return deleted
