"""API authentication, and who a request comes from (API and web alike).

- ``Authorization: Token <key>``: a user's API token (``POST /api/v1/auth/token/`` with username and
  password issues one; only its digest is stored).
- ``Authorization: Referee <token>``: a referee link's token; the request's user stays anonymous and
  ``request.auth`` is the link. Revoked and expired links are refused.
- On the web, a referee link opened on a phone is remembered in the session by its id (never the token).

``client_ip`` trusts ``X-Forwarded-For`` only as far as ``NUM_PROXIES`` configured proxies wrote it,
exactly as the throttles do, so a made-up header neither hides a client nor escapes a limit.

Wrong tokens (API tokens, table links, the ``/r/`` page) are limited per address (``bad_token``): once
an address has sent too many in a window, its tokens are not looked up until the window ends (429).
Each worker remembers such addresses, so a flood costs neither lookups nor counts.
"""

import time

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from core import raw_rows
from scoring import rate_limits
from scoring.models import ApiToken, RefereeLink, token_digest
from scoring.policy import Actor

REFEREE_KEYWORD = "Referee"
SESSION_LINK = "referee_link"


def _bearer(request, keyword: str) -> str | None:
    header = authentication.get_authorization_header(request).split()
    if not header or header[0].lower() != keyword.lower().encode():
        return None
    if len(header) != 2:
        raise exceptions.AuthenticationFailed(f"give the token after '{keyword} '")
    try:
        return header[1].decode("ascii")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed("a token is plain ASCII") from None


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


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request):
        key = _bearer(request, self.keyword)
        if key is None:
            return None
        refuse_if_guessing(request)
        token = token_for_key(key)
        if token is None or not token.user.is_active:
            count_wrong_token(request)
            raise exceptions.AuthenticationFailed("this API token is unknown or was withdrawn")
        return token.user, token

    def authenticate_header(self, request):
        return self.keyword


class RefereeLinkAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        token = _bearer(request, REFEREE_KEYWORD)
        if token is None:
            return None
        refuse_if_guessing(request)
        link = link_for_token(token)
        if link is None:
            count_wrong_token(request)
            raise exceptions.AuthenticationFailed("this referee link is unknown, expired or was revoked")
        return AnonymousUser(), link

    def authenticate_header(self, request):
        return REFEREE_KEYWORD


def _header_scheme(target, name: str, description: str) -> type[OpenApiAuthenticationExtension]:
    """The OpenAPI security scheme of an ``Authorization: <name> <token>`` authentication class."""
    definition = {"type": "apiKey", "in": "header", "name": "Authorization", "description": description}
    return type(f"{name}Scheme", (OpenApiAuthenticationExtension,), {
        "target_class": target, "name": name, "get_security_definition": lambda self, auto_schema: definition,
    })


ApiTokenScheme = _header_scheme(ApiTokenAuthentication, "Token", "`Token <key>`: a key from POST /api/v1/auth/token/")
RefereeLinkScheme = _header_scheme(
    RefereeLinkAuthentication, REFEREE_KEYWORD,
    "`Referee <token>`: a game's referee link token (records, and confirms what it did not enter, in that game)",
)


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


def actor_for(request) -> Actor:
    """Who is making this request (API or web): user, referee link (header or session), address."""
    user = request.user if request.user.is_authenticated else None
    link = request.auth if isinstance(getattr(request, "auth", None), RefereeLink) else None
    if user is None and link is None and hasattr(request, "session"):
        link_id = request.session.get(SESSION_LINK)
        if isinstance(link_id, int):
            link = _active(RefereeLink.objects.filter(pk=link_id))
    return Actor(user=user, link=link, address=client_address(request))
