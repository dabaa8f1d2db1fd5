"""Who a request comes from, on the web and the API alike: a signed-in user, a referee link (the API's
``Authorization: Referee`` header, or on the web the link opened on this phone, remembered in the session by
its id, never its token), and the address it came from. The API's authentication classes
(``scoring.api.auth``) and the pages both start here.

Wrong tokens (API tokens, table links, the ``/r/`` page) are limited per address (``bad_token``): once an
address has sent too many in a window, its tokens are not looked up until the window ends (429). Each worker
remembers such addresses, so a flood costs neither lookups nor counts.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import connection
from django.utils import timezone
from rest_framework import exceptions

from core import rate_limits, raw_rows
from core.clients import client_address, client_ip
from scoring.models import ApiToken, RefereeLink, token_digest
from scoring.policy import Actor

SESSION_LINK = "referee_link"


# Addresses that sent too many wrong tokens, and until when (this worker's memory; the count is shared).
_guessing: dict[str, float] = {}


class TooManyWrongTokens(exceptions.Throttled):
    default_detail = "too many unknown tokens from this address: try again later"


def refuse_if_guessing(request) -> None:
    """Raise ``TooManyWrongTokens`` when the caller's address is over the wrong-token limit."""
    until = _guessing.get(client_ip(request))
    if until is not None:
        if until > time.time():
            raise TooManyWrongTokens(wait=until - time.time())
        _guessing.pop(client_ip(request), None)


def count_wrong_token(request) -> None:
    """Count one wrong token from the caller's address; raise ``TooManyWrongTokens`` past the limit."""
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get("bad_token")
    if not rate:
        return
    allowed, seconds = _parse(rate)
    counted = rate_limits.hit(f"bad_token:addr:{client_ip(request)}", seconds)
    if counted.count > allowed:
        if len(_guessing) > 10_000:
            _guessing.clear()
        _guessing[client_ip(request)] = time.time() + counted.wait
        raise TooManyWrongTokens(wait=counted.wait)


def _parse(rate: str) -> tuple[int, int]:
    number, period = rate.split("/")
    return int(number), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


def _active(links):
    return links.select_related("game").filter(revoked_at__isnull=True, expires_at__gt=timezone.now()).first()


# Every request of a table or an API program starts here: one plain statement each (raw_rows), not the
# ORM's query building, which cost more than the database's answer.


def link_for_token(token: str) -> RefereeLink | None:
    """The active link whose token this is (compared by digest), with its game."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    return raw_rows.one_joined(RefereeLink, "game", "a.token_digest = %s AND a.revoked_at IS NULL AND "
                               "a.expires_at > %s", [token_digest(token), now])


def token_for_key(key: str) -> ApiToken | None:
    """The API token whose key this is (compared by digest), with its user."""
    return raw_rows.one_joined(ApiToken, "user", "a.digest = %s", [token_digest(key)])


def actor_for(request) -> Actor:
    """Who is making this request (API or web): user, referee link (header or session), address."""
    user = request.user if request.user.is_authenticated else None
    link = request.auth if isinstance(getattr(request, "auth", None), RefereeLink) else None
    if user is None and link is None and hasattr(request, "session"):
        link_id = request.session.get(SESSION_LINK)
        if isinstance(link_id, int):
            link = _active(RefereeLink.objects.filter(pk=link_id))
    return Actor(user=user, link=link, address=client_address(request))
