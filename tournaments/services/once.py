"""A director's web form sent twice (a double tap, Back then send) does nothing the second time: each
form carries a one-time key, claimed here before the write it carries.

It must not know what the form does: the page calls the write's own service after the claim.
"""

from __future__ import annotations

from django.db import transaction

from scoring.models import IdempotencyRecord
from tournaments.engine import EventError
from tournaments.policy import Actor

# ---------------------------------------------------------------------------------------------------
# Web forms sent twice


class AlreadySent(EventError):
    """A director's web form that was already sent (a double tap, Back then send): nothing is done twice."""


def claim_form_once(*, actor: Actor, once_key: str) -> None:
    """Claim a web form's one-time key in its own transaction, before the write it carries; a key already
    claimed raises ``AlreadySent``. A form refused afterwards is shown again with a new key."""
    key = (once_key or "").strip()[:64]
    if not key:
        return
    with transaction.atomic():
        _, created = IdempotencyRecord.objects.get_or_create(
            actor=actor.key, key=f"event-form:{key}",
            defaults={"method": "POST", "path": "tournaments form", "fingerprint": "", "status_code": 200},
        )
    if not created:
        raise AlreadySent.one(None, "once", "this form was already sent: nothing was done twice")

