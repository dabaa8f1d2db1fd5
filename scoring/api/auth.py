"""API authentication (who a request comes from is ``scoring.actors``'s to say, for the web as well).

- ``Authorization: Token <key>``: a user's API token (``POST /api/v1/auth/token/`` with username and
  password issues one; only its digest is stored).
- ``Authorization: Referee <token>``: a referee link's token; the request's user stays anonymous and
  ``request.auth`` is the link. Revoked and expired links are refused.
- On the web, a referee link opened on a phone is remembered in the session by its id (never the token).
"""


from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from scoring.actors import count_wrong_token, link_for_token, refuse_if_guessing, token_for_key

REFEREE_KEYWORD = "Referee"


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


