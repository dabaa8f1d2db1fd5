"""Rate limits that hold across processes and machines, for any app's API.

Counters are fixed windows in the shared cache (the database cache by default, Redis when
``REDIS_URL`` is set; see settings), incremented atomically, so "60/minute" means 60 whatever the
number of workers. Clients are told apart by ``client_ip``: ``X-Forwarded-For`` is trusted only as far
as ``NUM_PROXIES`` configured proxies wrote it, so a made-up header neither hides a client nor
escapes a limit. A refused request gets 429 with ``Retry-After`` (the API's error shape).

- ``AnonymousThrottle`` (scope ``anon``): every API request without a login, by address; a default
  for every view.
- ``CalculatorThrottle`` (scope ``calculator``): the stateless calculators, anonymous callers.
- ``LoginThrottle`` (scope ``login``): password guesses, by address, signed in or not.
"""

import time

from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from .auth import client_ip


class SharedRateThrottle(SimpleRateThrottle):
    cache = cache
    anonymous_only = True

    def get_cache_key(self, request, view):
        if self.anonymous_only and request.user and request.user.is_authenticated:
            return None
        return f"throttle:{self.scope}:{client_ip(request)}"

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = time.time()
        window = int(now // self.duration)
        key = f"{key}:{window}"
        count = None
        while count is None:
            try:
                count = self.cache.incr(key)
            except ValueError:  # the window's first request (or its counter expired): start it at 1
                count = 1 if self.cache.add(key, 1, self.duration + 1) else None
        self.wait_seconds = (window + 1) * self.duration - now
        return count <= self.num_requests

    def wait(self):
        return self.wait_seconds


class AnonymousThrottle(SharedRateThrottle):
    scope = "anon"


class CalculatorThrottle(SharedRateThrottle):
    scope = "calculator"


class LoginThrottle(SharedRateThrottle):
    scope = "login"
    anonymous_only = False
