"""With REDIS_URL (CI starts Debian's redis-server: scripts/throwaway-redis.sh), the cache and the rate
counters live in Redis: counts stay exact across connections, limits hold, kept parts are shared."""

import threading

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from core import rate_limits
from scoring.throttles import RequestThrottle
from tournaments.answers import memos as caching

from ..factories import user

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI starts a Redis server)")


def test_the_cache_is_redis():
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    cache.set("redis-probe", 41)
    assert cache.incr("redis-probe") == 42


def test_rate_counters_in_redis_count_every_hit_from_concurrent_threads():
    counts, lock = [], threading.Lock()
    key = f"redis-concurrency-{id(counts)}"

    def hits():
        mine = [rate_limits.hit(key, 10**8).count for _ in range(25)]
        with lock:
            counts.extend(mine)

    threads = [threading.Thread(target=hits) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(counts) == list(range(1, 201))


@pytest.mark.django_db
def test_a_signed_in_users_limit_holds_with_counters_in_redis(monkeypatch):
    monkeypatch.setitem(RequestThrottle.THROTTLE_RATES, "user", "3/minute")
    reader = APIClient()
    reader.force_authenticate(user())
    assert [reader.get("/api/v1/games/").status_code for _ in range(4)] == [200] * 3 + [429]


def test_a_page_part_is_made_once_and_shared_through_redis():
    made = []
    name = f"redis-part-{id(made)}"
    first = caching.latest(name, "v1", lambda: made.append(1) or "tables v1", every=0)
    caching.caches["versioned"].clear()  # another worker
    again = caching.latest(name, "v1", lambda: made.append(1) or "tables v1", every=0)
    assert first == again == ("tables v1", "v1")
    assert made == [1]
