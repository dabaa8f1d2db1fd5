"""Referee links (a table's token: made, extended, revoked; only its digest is stored) and API tokens.

It must not decide what a link may do at its table: ``policy`` does.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from core import raw_rows

from .. import policy
from ..models import (
    ApiToken,
    Game,
    RefereeLink,
    token_digest,
)
from ..policy import Actor
from .refusals import refusal, service


def default_link_expiry(now=None):
    """24 hours after the event day: the end of the (club's local) day after the link is made."""
    today = timezone.localtime(now or timezone.now()).replace(hour=0, minute=0, second=0, microsecond=0)
    return today + timedelta(days=2)


@service
@transaction.atomic
def create_referee_link(*, actor: Actor, game: Game, label: str = "", expires_at=None) -> RefereeLink:
    """A new referee link. Only its digest is stored: the returned link carries the token in ``token``,
    the one moment it exists (print its QR code now)."""
    policy.require_organiser(actor, "create referee links")
    return create_referee_link_unchecked(actor=actor, game=game, label=label, expires_at=expires_at)


@service
@transaction.atomic
def create_referee_link_unchecked(*, actor: Actor, game: Game, label: str = "", expires_at=None) -> RefereeLink:
    """``create_referee_link`` without the role check, for a caller that has decided the role itself (an
    event's director printing the round's table cards). Never call it from a view."""
    [link] = create_referee_links_unchecked(actor=actor, labelled=[(game, label)], expires_at=expires_at)
    return link


@service
@transaction.atomic
def create_referee_links_unchecked(*, actor: Actor, labelled: Sequence[tuple[Game, str]],
                                   expires_at=None) -> list[RefereeLink]:
    """``create_referee_link_unchecked`` for many games at once, each (game, label): one statement however
    many (a round of 500 tables published, issue 35). Each link carries its token, as there."""
    expires_at = expires_at or default_link_expiry()
    links, tokens = [], []
    for game, label in labelled:
        tokens.append(token := secrets.token_urlsafe(32))
        links.append(raw_rows.new(RefereeLink, {"game": game, "created_by": actor.user},
                                  token_digest=token_digest(token), label=label.strip()[:60], expires_at=expires_at))
    raw_rows.insert_many(links)
    for link, token in zip(links, tokens, strict=True):
        link.token = token
    return links


@service
@transaction.atomic
def extend_referee_link(*, actor: Actor, link: RefereeLink, hours: int = 24) -> RefereeLink:
    """Keep a link working ``hours`` longer (from now, or from its expiry if that is later)."""
    policy.require_organiser(actor, "extend referee links")
    if not 1 <= hours <= 24 * 14:
        raise refusal(None, "hours", "extend a link by 1 hour to 14 days")
    link = RefereeLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is not None:
        raise refusal(None, "link", "this link was revoked: make a new one")
    link.expires_at = max(link.expires_at, timezone.now()) + timedelta(hours=hours)
    link.save(update_fields=["expires_at"])
    return link


@service
def issue_api_token(*, user) -> str:
    """A new API token for ``user``: the key is returned once, only its digest is stored."""
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, digest=token_digest(key))
    return key


@service
@transaction.atomic
def revoke_referee_link(*, actor: Actor, link: RefereeLink) -> RefereeLink:
    policy.require_organiser(actor, "revoke referee links")
    return revoke_referee_link_unchecked(link=link)


@service
@transaction.atomic
def revoke_referee_link_unchecked(*, link: RefereeLink) -> RefereeLink:
    """``revoke_referee_link`` without the role check (an event's director replacing a table's links)."""
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


