"""Rate limits that hold across processes and machines, for any app's API.

Counters are fixed windows in the shared store (``core.rate_limits``: Redis, or a row per key in the
database), so "60/minute" means 60 whatever the number of workers. A hall is usually one public
address (the venue's NAT), so whoever has a credential is counted by it, never by address:

- ``RequestThrottle`` (the default for every view): a signed-in user by their account (scope
  ``user``), a table link by its link (``link``), anyone else by address (``anon``).
- ``CalculatorThrottle`` (scope ``calculator``): the stateless calculators, anonymous callers by address.
- ``LoginThrottle``: password guesses, per address and username (``login``) under a higher ceiling per
  address (``login_address``), signed in or not.

Addresses come from ``client_ip``: ``X-Forwarded-For`` is trusted only as far as ``NUM_PROXIES``
configured proxies wrote it, so a made-up header neither hides a client nor escapes a limit. A
refused request gets 429 with ``Retry-After`` (the API's error shape). Wrong tokens are limited per
address in ``auth``.
"""

from __future__ import annotations

from rest_framework.throttling import SimpleRateThrottle

from core import rate_limits
from core.clients import client_ip
from scoring.models import RefereeLink


class SharedRateThrottle(SimpleRateThrottle):
    """One counter per key and window in ``rate_limits``; subclasses say whose key and which scope."""

    rate: str | None = None  # set on a class: that rate for its own scope instead of the settings' (tests)

    def __init__(self):
        # Each limit's rate is its scope's, read when a request is counted (one request may count
        # against several scopes): nothing to read now.
        self.wait_seconds = 0.0

    def keys(self, request) -> list[tuple[str, str]]:
        """(scope, key) of each limit this request counts against; none: not limited here."""
        return []

    def rate_of(self, scope: str) -> str | None:
        if self.rate is not None and scope == self.scope:
            return self.rate
        return self.THROTTLE_RATES.get(scope)

    def allow_request(self, request, view):
        self.wait_seconds = 0.0
        for scope, key in self.keys(request):
            rate = self.rate_of(scope)
            if rate is None:
                continue
            allowed, seconds = self.parse_rate(rate)
            counted = rate_limits.hit(f"{scope}:{key}", seconds)
            if counted.count > allowed:
                self.wait_seconds = counted.wait
                return False
        return True

    def wait(self):
        return self.wait_seconds


def credential(request) -> tuple[str, str]:
    """(scope, key) of whoever is making the request: their account, their table link, or their address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return "user", f"user:{user.pk}"
    link = getattr(request, "auth", None)
    if isinstance(link, RefereeLink):
        return "link", f"link:{link.pk}"
    return "anon", f"addr:{client_ip(request)}"


class RequestThrottle(SharedRateThrottle):
    scope = "request"

    def keys(self, request):
        return [credential(request)]


class AnonymousThrottle(RequestThrottle):
    """Kept for views that name it beside ``CalculatorThrottle``: the same limits as the default."""


class CalculatorThrottle(SharedRateThrottle):
    scope = "calculator"

    def keys(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return []
        return [("calculator", f"addr:{client_ip(request)}")]


class LoginThrottle(SharedRateThrottle):
    scope = "login"

    def keys(self, request):
        address = client_ip(request)
        username = ""
        data = getattr(request, "data", None)
        if data is None:
            data = getattr(request, "POST", {})
        if hasattr(data, "get"):
            username = str(data.get("username") or "")[:150].casefold()
        return [("login_address", f"addr:{address}"), ("login", f"addr:{address}:user:{username}")]
