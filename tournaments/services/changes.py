"""Changing an event after it is created, cancelling one, and deleting one that has no results.

Its name, whether it is public, its prize list, registration, how many byes a player may ask for, how long
same club counts as a pair to avoid (a bracket's only before it starts) and a Swiss's number of rounds change
at any time (never below
the rounds already paired); its other options (match format, tiebreaks, match points, margins, third place,
grand final, check-in, round time and time rule) only until round 1 is paired, since the results so far were
scored under them. An event is deleted only while it has no result (no hand recorded in its games, no
director's result) and no knockout made from it; its unplayed games go with it. An event not yet complete is
cancelled with a reason: it is kept (its officials and organisers still list it), its games being played are
closed and every table link revoked, and nothing more is recorded in it (``base.lock_event_to_change`` refuses
every later write; ``policy.EVENT_GAMES`` closes its games to ``scoring``).

It must not pair, score or change a result: ``rounds``, ``brackets`` and ``director_results`` do.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game, RefereeLink
from tournaments import policy
from tournaments.engine.errors import Problem
from tournaments.models import Event, Match, MatchGame, MatchResult, Round
from tournaments.policy import Actor
from tournaments.services.base import refusing

from ..answers.job import bump
from ..signals import event_visibility_changed
from .base import error, lock_event, lock_event_to_change, reason_text
from .events import read_options, round_minutes_problem
from .pairing_requests import PAIRING_FIELDS, pairing_problems
from .prizes import prizes_from_text, read_prizes
from .registrations import REGISTRATION_FIELDS, promote_after_change, registration_problems

ANY_TIME = ("name", "is_public", "rounds", "prizes", *REGISTRATION_FIELDS, *PAIRING_FIELDS)
BEFORE_ROUND_1 = ("match_format", "tiebreaks", "match_points", "bye_margin", "forfeit_margin", "third_place",
                  "grand_final", "check_in", "time_rule", "round_minutes")


@refusing
@transaction.atomic
def update_event(*, actor: Actor, event: Event, changes: dict[str, Any]) -> Event:
    """Apply ``changes`` (any of ``ANY_TIME`` and ``BEFORE_ROUND_1``): all of them or, with every problem
    named by its field, none."""
    event = lock_event_to_change(actor, event, "change the event")
    unknown = sorted(set(changes) - {*ANY_TIME, *BEFORE_ROUND_1})
    if unknown:
        raise AssertionError(f"update_event was given {unknown}: the callers parse what may change")
    problems: list[Problem] = []
    paired = Round.objects.filter(event=event).count()
    started = paired > 0 or Match.objects.filter(event=event).exists()
    if "name" in changes:
        name = (changes["name"] or "").strip()
        if not name:
            problems.append(Problem(None, "name", "an event needs a name"))
        elif len(name) > 120:
            problems.append(Problem(None, "name", f"must be at most 120 characters; {len(name)} given"))
        event.name = name
    visibility_changed = "is_public" in changes and bool(changes["is_public"]) != event.is_public
    if "is_public" in changes:
        event.is_public = bool(changes["is_public"])
    if "round_minutes" in changes and (problem := round_minutes_problem(changes["round_minutes"])) is not None:
        problems.append(problem)
    if "rounds" in changes:
        rounds = changes["rounds"]
        if event.format != Event.Format.SWISS:
            problems.append(Problem(None, "rounds", "only a Swiss event takes a number of rounds"))
        elif rounds is None and started:
            problems.append(Problem(None, "rounds", f"{paired} rounds are paired: give the number of rounds"))
        elif rounds is not None and rounds < paired:
            problems.append(Problem(None, "rounds", f"{paired} rounds are already paired: at least {paired}; "
                                                    f"{rounds} given"))
        event.rounds = rounds
    if "prizes" in changes:
        event.prizes = read_prizes(changes["prizes"], problems)
    problems.extend(registration_problems({f: changes[f] for f in REGISTRATION_FIELDS if f in changes}))
    for field in REGISTRATION_FIELDS:
        if field in changes:
            setattr(event, field, changes[field])
    problems.extend(pairing_problems({f: changes[f] for f in PAIRING_FIELDS if f in changes}, format=event.format))
    if "avoid_same_club_rounds" in changes and event.is_elimination and started \
            and changes["avoid_same_club_rounds"] != event.avoid_same_club_rounds:
        problems.append(Problem(None, "avoid_same_club_rounds", "the bracket has started: its round 1 was laid "
                                                                "out with the pairs to avoid it had"))
    for field in PAIRING_FIELDS:
        if field in changes:
            setattr(event, field, changes[field])
    for field in BEFORE_ROUND_1:
        if field in changes and started:
            problems.append(Problem(None, field, "can change only before round 1 is paired: the results so far "
                                                 "were scored under it"))
    if "time_rule" in changes and changes["time_rule"] not in Event.TimeRule.values:
        problems.append(Problem(None, "time_rule", f"must be one of {', '.join(Event.TimeRule.values)}; "
                                                   f"{changes['time_rule']!r} given"))
    if "match_format" in changes and changes["match_format"] not in Event.MatchFormat.values:
        problems.append(Problem(None, "match_format", f"must be one of {', '.join(Event.MatchFormat.values)}; "
                                                      f"{changes['match_format']!r} given"))
    merged = {field: changes.get(field, getattr(event, field)) for field in BEFORE_ROUND_1}
    read = read_options(problems, format=event.format, rounds=event.rounds, tiebreaks=merged["tiebreaks"],
                        match_points=merged["match_points"], bye_margin=merged["bye_margin"],
                        forfeit_margin=merged["forfeit_margin"], third_place=merged["third_place"],
                        grand_final=merged["grand_final"])
    if problems:
        raise Refusal(problems)
    assert read is not None
    event.match_format = merged["match_format"]
    event.tiebreaks, event.match_points = list(read.tiebreaks), read.match_points.as_dict()
    event.bye_margin, event.forfeit_margin = read.bye_margin, read.forfeit_margin
    event.third_place, event.grand_final = read.third_place, read.grand_final.value
    event.check_in = bool(merged["check_in"])
    event.time_rule = merged["time_rule"]
    event.round_minutes = merged["round_minutes"]
    event.save(update_fields=[*ANY_TIME, *BEFORE_ROUND_1])
    promote_after_change(event)  # a cap raised (or the waitlist's queue let in) enters who now fits
    bump(event)
    if visibility_changed:
        event_visibility_changed.send(sender=Event, event=event)
    return event


@refusing
@transaction.atomic
def set_prizes_from_text(*, actor: Actor, event: Event, text: str) -> Event:
    """The event page's "Prizes" form (one "place: prize" a line, each problem named by its line), stored as
    a PATCH's list is: the event locked, its directors only, a cancelled event refused; all or nothing."""
    lock_event_to_change(actor, event, "set the prizes")
    return update_event(actor=actor, event=event, changes={"prizes": prizes_from_text(text)})


@refusing
def has_results(event: Event) -> bool:
    """A hand recorded in one of its games, or a director's result: what deleting would lose (one query)."""
    played = Game.objects.filter(pk__in=MatchGame.objects.filter(match__event=event).values("game_id"),
                                 hand_count__gt=0)
    return MatchResult.objects.filter(match__event=event).exists() or played.exists()


@refusing
@transaction.atomic
def delete_event(*, actor: Actor, event: Event) -> None:
    """Delete an event that has no result and no knockout made from it, with its unplayed games."""
    event = lock_event_to_change(actor, event, "delete the event")
    game_ids = list(MatchGame.objects.filter(match__event=event).values_list("game_id", flat=True))
    if has_results(event):
        raise error("event", f"{event.name} has results (hands recorded or a director's result): an event with "
                             "results is kept")
    if Event.objects.filter(seeded_from=event).exists():
        raise error("event", f"a knockout was made from {event.name}'s standings: delete the knockout first")
    # Its matches first: a match's players hold its entries (protected while a match names them).
    Match.objects.filter(event=event).delete()
    event.delete()
    scoring.delete_unplayed_games_unchecked(game_ids=game_ids)


CANCELLED_GAME = "Closed: the event was cancelled"


@refusing
@transaction.atomic
def cancel_event(*, actor: Actor, event: Event, reason: str) -> Event:
    """Cancel an event not yet complete, saying why: its games still being played are closed (their hands
    stay, as on paper), every table link of its games is revoked, and it is marked cancelled, by whom
    and when. Cancelling twice, or a complete event, is refused; so is every later write to it."""
    event = lock_event(event)
    policy.require_director(actor, event, "cancel the event")
    if event.status == Event.Status.CANCELLED:
        raise error("event", f"{event.name} was already cancelled")
    if event.status == Event.Status.COMPLETE:
        raise error("event", f"{event.name} is complete (every match has a result): a complete event cannot be "
                             "cancelled")
    if not (reason or "").strip():
        raise error("reason", "say why the event is cancelled: the reason is kept with it")
    reason = reason_text(reason)
    game_ids = MatchGame.objects.filter(match__event=event).values("game_id")
    for link in RefereeLink.objects.filter(game_id__in=game_ids, revoked_at__isnull=True).order_by("pk"):
        scoring.revoke_referee_link_unchecked(link=link)
    for game in Game.objects.filter(pk__in=game_ids, status=Game.Status.IN_PROGRESS).order_by("pk"):
        scoring.abandon_game_unchecked(actor=actor, game=game, reason=f"the event was cancelled: {reason}",
                                       frozen_as=CANCELLED_GAME)
    event.status = Event.Status.CANCELLED
    event.cancel_reason, event.cancelled_at, event.cancelled_by = reason, timezone.now(), actor.user
    event.save(update_fields=["status", "cancel_reason", "cancelled_at", "cancelled_by"])
    bump(event)
    return event
