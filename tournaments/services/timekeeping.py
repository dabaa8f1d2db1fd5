"""A round's clock, run by its directors: start (at the event's ``round_minutes``, or the minutes given),
pause, resume, and extend the whole round or one table; a bracket match (which has no round) keeps a
clock of its own, run the same way. Where a clock stands at any moment is ``tournaments.engine.clock``'s to say,
from tournaments.services.base import refusing
from what this stores.

It must not decide any result: what happens at time is for the games (their time rule) and the directors.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.answers.job import bump
from tournaments.engine.clock import NOT_STARTED, PAUSED, TIME, clock_state
from tournaments.models import Event, Match, Round
from tournaments.policy import Actor
from tournaments.services.base import error, lock_event_to_change, refusing

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


def _state(holder: Round | Match, what: str, action: str, now):
    """The clock kept on ``holder`` as it stands, once ``action`` is known to be one; extra time needs it started."""
    if action not in ACTIONS:
        raise error("action", f"must be one of {', '.join(ACTIONS)}; {action!r} given")
    state = clock_state(ends_at=holder.clock_ends_at, left_seconds=holder.clock_left_seconds, now=now)
    if action == "extend" and state.status == NOT_STARTED:
        raise error("action", f"{what}'s clock has not started")
    return state


def _run(event: Event, holder: Round | Match, what: str, action: str, minutes: int | None) -> None:
    """Start, pause, resume or extend the clock kept on ``holder`` (a round, or a bracket match)."""
    now = timezone.now()
    state = _state(holder, what, action, now)
    if action == "start":
        if state.status != NOT_STARTED:
            raise error("action", f"{what}'s clock has already started")
        minutes = _minutes(minutes, required=False) or event.round_minutes
        if minutes is None:
            raise error("minutes", f"{event.name} has no round time: say how many minutes")
        holder.clock_ends_at = now + timedelta(minutes=minutes)
    elif action == "pause":
        if state.status != "running":
            raise error("action", f"{what}'s clock is not running")
        holder.clock_ends_at, holder.clock_left_seconds = None, state.remaining_seconds
    elif action == "resume":
        if state.status != PAUSED:
            raise error("action", f"{what}'s clock is not paused")
        holder.clock_ends_at, holder.clock_left_seconds = now + timedelta(seconds=holder.clock_left_seconds), None
    else:
        extra = timedelta(minutes=_minutes(minutes, required=True))
        if state.status == PAUSED:
            holder.clock_left_seconds += int(extra.total_seconds())
        else:  # running, or at time: the time is up later, from now at the earliest
            holder.clock_ends_at = (now if state.status == TIME else holder.clock_ends_at) + extra
    holder.save(update_fields=["clock_ends_at", "clock_left_seconds"])


@refusing
@transaction.atomic
def run_round_clock(*, actor: Actor, round: Round, action: str, minutes: int | None = None,
                    match: Match | int | None = None) -> Round:
    """``start`` the round's clock (``minutes``, else the event's ``round_minutes``), ``pause`` or ``resume``
    it, or ``extend`` it by ``minutes``: the whole round, or one ``match`` (its table, or its id as sent)
    alone. A match that is not an open table of this round is refused, naming ``match``: it never falls back
    to the whole round."""
    event = lock_event_to_change(actor, round.event, "run the round's clock")
    rnd = Round.objects.select_for_update().get(pk=round.pk, event=event)
    if rnd.status != Round.Status.PUBLISHED:
        why = "a draft: publish it first" if rnd.status == Round.Status.DRAFT else "over: every match has a result"
        raise error("round", f"round {rnd.number} is {why}")
    if match is not None and action != "extend":
        raise error("match", "only extra time is given to one table")
    if match is not None:
        _state(rnd, f"round {rnd.number}", action, timezone.now())
        table = Match.objects.select_for_update().filter(pk=match if isinstance(match, int) else match.pk,
                                                         round=rnd, is_bye=False, reset_at__isnull=True).first()
        if table is None:
            raise error("match", f"that is not a table of round {rnd.number}")
        table.extra_seconds += 60 * _minutes(minutes, required=True)
        table.save(update_fields=["extra_seconds"])
    else:
        _run(event, rnd, f"round {rnd.number}", action, minutes)
    bump(event)
    return rnd


@refusing
@transaction.atomic
def run_match_clock(*, actor: Actor, match: Match, action: str, minutes: int | None = None) -> Match:
    """A bracket match's own clock (it has no round): ``start``, ``pause``, ``resume`` or ``extend`` it, as a
    round's. At time its game is settled by the time rule, a level score playing on until one side leads."""
    event = lock_event_to_change(actor, match.event, "run a match's clock")
    found = Match.objects.select_for_update().filter(pk=match.pk, event=event).first()
    if found is None or found.round_id is not None or found.is_bye or found.reset_at is not None:
        raise error("match", "only an open bracket match has a clock of its own: a round's tables share the "
                             "round's clock")
    _run(event, found, f"{found.bracket_id}", action, minutes)
    bump(event)
    return found
