"""API authentication by referee link: ``Authorization: Referee <token>``.

A referee without an account gets a per-game link; its token authenticates API calls too. The
request's user stays anonymous and ``request.auth`` is the link, which ``actor_for`` turns into an
``Actor``. Revoked links are refused.
"""

from django.contrib.auth.models import AnonymousUser
from rest_framework import authentication, exceptions

from scoring.models import RefereeLink
from scoring.policy import Actor

KEYWORD = "Referee"


class RefereeLinkAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode().lower() != KEYWORD.lower():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("give the referee link's token after 'Referee '")
        link = active_link(header[1].decode())
        if link is None:
            raise exceptions.AuthenticationFailed("this referee link is unknown or was revoked")
        return AnonymousUser(), link

    def authenticate_header(self, request):
        return KEYWORD


def active_link(token: str) -> RefereeLink | None:
    return RefereeLink.objects.select_related("game").filter(token=token, revoked_at__isnull=True).first()


def client_address(request) -> str:
    ip = request.META.get("REMOTE_ADDR", "")
    agent = request.META.get("HTTP_USER_AGENT", "")
    return f"{ip} {agent}".strip()[:300]


def actor_for(request) -> Actor:
    """Who is making this request (API or web): user, referee link (header or session), address."""
    user = request.user if request.user.is_authenticated else None
    link = request.auth if isinstance(getattr(request, "auth", None), RefereeLink) else None
    if user is None and link is None:
        token = request.session.get("referee_token") if hasattr(request, "session") else None
        if token:
            link = active_link(token)
    return Actor(user=user, link=link, address=client_address(request))
