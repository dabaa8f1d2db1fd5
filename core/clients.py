"""Where a request comes from: the client's address, trusting ``X-Forwarded-For`` only as far as
``NUM_PROXIES`` configured proxies wrote it (exactly as the throttles do), so a made-up header neither hides a
client nor escapes a limit; and the address with the browser's own words, as stored beside what it did."""

from django.conf import settings


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or the address the ``NUM_PROXIES``-th trusted proxy saw."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return remote


def client_address(request) -> str:
    agent = request.META.get("HTTP_USER_AGENT", "")
    return f"{client_ip(request)} {agent}".strip()[:300]
