"""A round's clock, run by its directors: start (at the event's ``round_minutes``, or the minutes given),
pause, resume, and extend the whole round or one table. Where it stands at any moment is
``tournaments.clock``'s to say, from what this stores.

It must not decide any result: what happens at time is for the games and the directors.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.clock import NOT_STARTED, PAUSED, TIME, clock_state
from tournaments.models import Match, Round
from tournaments.policy import Actor

from .answers import bump
from .base import error, lock_event_to_change

ACTIONS = ("start", "pause", "resume", "extend")
MAX_MINUTES = 600


def _minutes(minutes: int | None, *, required: bool) -> int | None:
    if minutes is None:
        if required:
            raise error("minutes", "say how many minutes")
        return None
    if type(minutes) is not int or not 1 <= minutes <= MAX_MINUTES:
        raise error("minutes", f"a whole number of minutes from 1 to {MAX_MINUTES}; {minutes!r} given")
    return minutes


@transaction.atomic
def run_round_clock(*, actor: Actor, round: Round, action: str, minutes: int | None = None,
                    match: Match | None = None) -> Round:
    """``start`` the round's clock (``minutes``, else the event's ``round_minutes``), ``pause`` or ``resume``
    it, or ``extend`` it by ``minutes``: the whole round, or one ``match`` (its table) alone."""
    event = lock_event_to_change(actor, round.event, "run the round's clock")
    rnd = Round.objects.select_for_update().get(pk=round.pk, event=event)
    if action not in ACTIONS:
        raise error("action", f"must be one of {', '.join(ACTIONS)}; {action!r} given")
    if rnd.status != Round.Status.PUBLISHED:
        why = "a draft: publish it first" if rnd.status == Round.Status.DRAFT else "over: every match has a result"
        raise error("round", f"round {rnd.number} is {why}")
    now = timezone.now()
    state = clock_state(ends_at=rnd.clock_ends_at, left_seconds=rnd.clock_left_seconds, now=now)
    if match is not None and action != "extend":
        raise error("match", "only extra time is given to one table")
    if action == "start":
        if state.status != NOT_STARTED:
            raise error("action", f"round {rnd.number}'s clock has already started")
        minutes = _minutes(minutes, required=False) or event.round_minutes
        if minutes is None:
            raise error("minutes", f"{event.name} has no round time: say how many minutes")
        rnd.clock_ends_at = now + timedelta(minutes=minutes)
    elif action == "pause":
        if state.status != "running":
            raise error("action", f"round {rnd.number}'s clock is not running")
        rnd.clock_ends_at, rnd.clock_left_seconds = None, state.remaining_seconds
    elif action == "resume":
        if state.status != PAUSED:
            raise error("action", f"round {rnd.number}'s clock is not paused")
        rnd.clock_ends_at, rnd.clock_left_seconds = now + timedelta(seconds=rnd.clock_left_seconds), None
    else:
        extra = timedelta(minutes=_minutes(minutes, required=True))
        if state.status == NOT_STARTED:
            raise error("action", f"round {rnd.number}'s clock has not started")
        if match is not None:
            table = Match.objects.select_for_update().filter(pk=match.pk, round=rnd, is_bye=False,
                                                             reset_at__isnull=True).first()
            if table is None:
                raise error("match", f"that is not a table of round {rnd.number}")
            table.extra_seconds += int(extra.total_seconds())
            table.save(update_fields=["extra_seconds"])
        elif state.status == PAUSED:
            rnd.clock_left_seconds += int(extra.total_seconds())
        else:  # running, or at time: the time is up later, from now at the earliest
            rnd.clock_ends_at = (now if state.status == TIME else rnd.clock_ends_at) + extra
    rnd.save(update_fields=["clock_ends_at", "clock_left_seconds"])
    bump(event)
    return rnd
