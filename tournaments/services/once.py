"""A director's web form sent twice (a double tap, Back then send) does nothing the second time: each
form carries a one-time key, claimed here in the same transaction as the write it carries, so a write that
fails (a 500, a 503 while the database restarts) leaves the key free and the director's retry does it once.

It must not know what the form does: the page runs the write's own service inside ``form_sent_once``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction

from core import once
from core.refusals import Refusal
from tournaments.policy import Actor

# ---------------------------------------------------------------------------------------------------
# Web forms sent twice


class AlreadySent(Refusal):
    """A director's web form that was already sent (a double tap, Back then send): nothing is done twice."""


@contextmanager
def form_sent_once(*, actor: Actor, once_key: str) -> Iterator[None]:
    """One transaction for the claim of a web form's one-time key and the writes done in the ``with`` body: a
    key already claimed raises ``AlreadySent`` (nothing is done); a body that raises rolls the claim back with
    its writes. A form without a key is not checked. A second copy sent at the same moment waits for the
    first's transaction on the key's unique constraint, then finds it claimed."""
    key = (once_key or "").strip()[:64]
    with transaction.atomic():
        if key and once.claim(once.Kind.DIRECTOR_FORM, actor=actor.key, key=key) is not None:
            raise AlreadySent.one("once", "this form was already sent: nothing was done twice")
        yield
