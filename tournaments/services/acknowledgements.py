"""A director (or an organiser) acknowledges one of the event's warnings about pairings made from results
that have since changed, optionally with a note: kept as the event's history, once per warning key
(``tournaments.answers.warnings``), so the same warning with new content needs a new acknowledgement.

It must not re-pair, reset or change a result (``rounds``, ``brackets``, ``director_results`` do), nor
decide who sees an acknowledged warning (``selectors.shown_warnings``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.answers.warnings import keyed
from tournaments.models import Event, WarningAcknowledgement
from tournaments.policy import Actor
from tournaments.services.base import refusing
from tournaments.stored_event import compute_answer, load_state

from .base import MAX_REASON, error, lock_event_to_change


@refusing
@transaction.atomic
def acknowledge_warning(*, actor: Actor, event: Event, key: str, note: str = "") -> WarningAcknowledgement:
    """Acknowledge the warning the event shows now under ``key``. An unknown key (a warning that has
    since changed or gone) or one already acknowledged is refused, naming ``key``. Nothing the answer is
    computed from changes, so the event's results version stays as it was."""
    event = lock_event_to_change(actor, event, "acknowledge warnings")
    key = (key or "").strip()
    note = (note or "").strip()
    if not key:
        raise error("key", "say which warning: its key, as the event's warnings give it")
    if len(note) > MAX_REASON:
        raise error("note", f"keep the note under {MAX_REASON} characters")
    _, warnings = compute_answer(load_state(event))
    current = {w["key"]: w for w in keyed(warnings)}
    if key not in current:
        raise error("key", f"{event.name} has no warning {key[:100]!r} now: it has changed or gone since (a new "
                           "change needs its own acknowledgement)")
    earlier = WarningAcknowledgement.objects.filter(event=event, key=key).select_related("acknowledged_by").first()
    if earlier is not None:
        who = earlier.acknowledged_by.get_username() if earlier.acknowledged_by else "someone"
        at = timezone.localtime(earlier.acknowledged_at).strftime("%Y-%m-%d %H:%M")
        raise error("key", f"this warning was already acknowledged by {who} at {at}")
    return WarningAcknowledgement.objects.create(event=event, key=key, message=current[key]["message"], note=note,
                                                 acknowledged_by=actor.user)
