"""Events: creating one (its options checked by the engine, its conventions frozen), its officials
(directors and referees, at any time: every game of the event follows, as ``policy.EVENT_GAMES`` answers
for them), and a knockout seeded from a finished event's standings (the event's second stage).

It must not pair, open games or record results: rounds, brackets and games have their own modules.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.refusals import Refusal
from scoring.engine import SheetError, resolve_conventions
from tournaments import policy
from tournaments.engine import EventError, read_event
from tournaments.engine.errors import Problem
from tournaments.models import Entry, Event
from tournaments.policy import Actor, NotAllowed
from tournaments.services.base import refusing
from tournaments.stored_event import compute_answer, load_state

from ..answers.job import bump
from .base import error, lock_event_to_change
from .pairing_requests import pairing_problems
from .registrations import registration_problems

# ---------------------------------------------------------------------------------------------------
# Events


@refusing
@transaction.atomic
def create_event(
    *,
    actor: Actor,
    name: str,
    format: str,
    conventions: object = "classic",
    match_format: str = Event.MatchFormat.SINGLE_GAME,
    rounds: int | None = None,
    tiebreaks: Sequence[str] | None = None,
    match_points: dict[str, int] | None = None,
    bye_margin: int = 0,
    forfeit_margin: int = 0,
    third_place: bool = False,
    grand_final: str = Event.GrandFinal.RESET,
    is_public: bool = True,
    check_in: bool = False,
    round_minutes: int | None = None,
    time_rule: str = Event.TimeRule.FINISH_HAND,
    directors: Sequence[Any] = (),
    referees: Sequence[Any] = (),
    seeded_from: Event | None = None,
    registration_open: bool = False,
    registration_closes_at: datetime | None = None,
    registration_cap: int | None = None,
    waitlist: bool = False,
    max_requested_byes: int = 1,
    avoid_same_club_rounds: int = 0,
) -> Event:
    """A new event in registration. Options are checked by the engine itself (a document of two
    stand-in entries), so the event can always be scored; the conventions are resolved and frozen. A
    creator who is not an organiser (one allowed to create events) directs it: else they could not."""
    policy.require_may_create_event(actor)
    if not actor.is_organiser and actor.user not in directors:
        directors = [*directors, actor.user]
    return _create_event(
        actor=actor, name=name, format=format, conventions=conventions, match_format=match_format, rounds=rounds,
        tiebreaks=tiebreaks, match_points=match_points, bye_margin=bye_margin, forfeit_margin=forfeit_margin,
        third_place=third_place, grand_final=grand_final, is_public=is_public, check_in=check_in,
        round_minutes=round_minutes, time_rule=time_rule, directors=directors, referees=referees,
        seeded_from=seeded_from, registration={"registration_open": registration_open,
                                               "registration_closes_at": registration_closes_at,
                                               "registration_cap": registration_cap, "waitlist": waitlist,
                                               "max_requested_byes": max_requested_byes,
                                               "avoid_same_club_rounds": avoid_same_club_rounds},
    )


MAX_ROUND_MINUTES = 600


def round_minutes_problem(minutes: object) -> Problem | None:
    """A round's time limit is a whole number of minutes from 1 to 600, or none."""
    if minutes is None or (type(minutes) is int and 1 <= minutes <= MAX_ROUND_MINUTES):
        return None
    return Problem(None, "round_minutes", f"a whole number of minutes from 1 to {MAX_ROUND_MINUTES}, or none; "
                                          f"{minutes!r} given")


def _create_event(*, actor: Actor, name: str, format: str, conventions: object, match_format: str,
                  rounds: int | None, tiebreaks: Sequence[str] | None, match_points: dict[str, int] | None,
                  bye_margin: int, forfeit_margin: int, third_place: bool, grand_final: str, is_public: bool,
                  directors: Sequence[Any], referees: Sequence[Any], seeded_from: Event | None,
                  check_in: bool = False, round_minutes: int | None = None,
                  time_rule: str = Event.TimeRule.FINISH_HAND, registration: dict[str, Any] | None = None) -> Event:
    name = (name or "").strip()
    problems: list[Problem] = []
    if not name:
        problems.append(Problem(None, "name", "an event needs a name"))
    elif len(name) > 120:
        problems.append(Problem(None, "name", f"must be at most 120 characters; {len(name)} given"))
    if match_format not in Event.MatchFormat.values:
        problems.append(Problem(None, "match_format", f"must be one of {', '.join(Event.MatchFormat.values)}; "
                                                      f"{match_format!r} given"))
    if format not in Event.Format.values:
        problems.append(Problem(None, "format", f"must be one of {', '.join(Event.Format.values)}; {format!r} given"))
        raise Refusal(problems)
    try:
        frozen = resolve_conventions(conventions).as_dict()
    except SheetError as exc:
        problems.extend(Problem(None, p.field or "conventions", p.message) for p in exc.problems)
        frozen = {}
    if rounds is not None and format != Event.Format.SWISS:
        problems.append(Problem(None, "rounds", "only a Swiss event takes a number of rounds"))
    if (problem := round_minutes_problem(round_minutes)) is not None:
        problems.append(problem)
    if time_rule not in Event.TimeRule.values:
        problems.append(Problem(None, "time_rule", f"must be one of {', '.join(Event.TimeRule.values)}; "
                                                   f"{time_rule!r} given"))
    registration = registration or {}
    problems.extend(registration_problems(registration))
    problems.extend(pairing_problems(registration, format=format))
    read = read_options(problems, format=format, rounds=rounds, tiebreaks=tiebreaks, match_points=match_points,
                        bye_margin=bye_margin, forfeit_margin=forfeit_margin, third_place=third_place,
                        grand_final=grand_final)
    if problems:
        raise Refusal(problems)
    assert read is not None
    event = Event.objects.create(
        name=name, format=format, conventions=frozen, match_format=match_format, rounds=rounds,
        tiebreaks=list(read.tiebreaks), match_points=read.match_points.as_dict(), bye_margin=read.bye_margin,
        forfeit_margin=read.forfeit_margin, third_place=read.third_place, grand_final=read.grand_final.value,
        is_public=is_public, check_in=bool(check_in), round_minutes=round_minutes, time_rule=time_rule,
        created_by=actor.user,
        seeded_from=seeded_from,
        registration_key=secrets.token_urlsafe(16),
        **{field: value for field, value in registration.items() if value is not None},
    )
    if directors:
        event.directors.set(directors)
    if referees:
        event.referees.set(referees)
    return event


def read_options(problems: list[Problem], *, format: str, rounds: int | None, tiebreaks: Any, match_points: Any,
                 bye_margin: int, forfeit_margin: int, third_place: bool, grand_final: str):
    """An event's options as the engine reads them (a document of two stand-in entries), so the event
    can always be scored; the engine's problems are added to ``problems`` (None is returned then)."""
    probe: dict[str, Any] = {"format": format, "entries": [{"name": "A"}, {"name": "B"}],
                             "bye_margin": bye_margin, "forfeit_margin": forfeit_margin}
    if format == Event.Format.SWISS and rounds is not None:
        probe["rounds"] = rounds
    if tiebreaks is not None:
        probe["tiebreaks"] = list(tiebreaks) if isinstance(tiebreaks, list | tuple) else tiebreaks
    if match_points is not None:
        probe["match_points"] = match_points
    if third_place:
        probe["third_place"] = third_place
    if grand_final != Event.GrandFinal.RESET:
        probe["grand_final"] = grand_final
    try:
        return read_event(probe)
    except EventError as exc:
        problems.extend(exc.problems)
        return None


@refusing
@transaction.atomic
def set_officials(*, actor: Actor, event: Event, directors: Sequence[Any], referees: Sequence[Any]) -> Event:
    """Who directs and who referees the event, at any time. Every game the event has made follows at
    once, whatever its status (``policy.EVENT_GAMES`` answers for them from the event's officials as
    they are now): those no longer officials of the event can no longer record, confirm, correct or void
    anything in them, the new ones can (the hands keep who entered and confirmed them). An organiser
    may change the directors; a director may change the referees only."""
    event = lock_event_to_change(actor, event, "change the event's officials")
    directors, referees = list(dict.fromkeys(directors)), list(dict.fromkeys(referees))
    if set(directors) != set(event.directors.all()) and not actor.is_organiser:
        raise NotAllowed("only an organiser may change an event's directors")
    event.directors.set(directors)
    event.referees.set(referees)
    bump(event)
    return event


# ---------------------------------------------------------------------------------------------------
# Two-stage events


@refusing
@transaction.atomic
def create_knockout_from_standings(
    *,
    actor: Actor,
    source_event: Event,
    top_n: int,
    name: str = "",
    format: str = Event.Format.SINGLE_ELIMINATION,
    match_format: str | None = None,
    third_place: bool = False,
    grand_final: str = Event.GrandFinal.RESET,
    is_public: bool | None = None,
    round_minutes: int | None = None,
) -> Event:
    """A bracket of the top ``top_n`` of a finished Swiss or round robin event (dropped entries left
    out), seeded in standings order, under the same frozen conventions, directors and referees, time rule
    and (unless ``round_minutes`` says otherwise) a match's time limit. The
    second stage of the event: its directors may start it, as organisers may; once (a second request,
    a second click included, is refused naming the first: under the source's lock, two at once too)."""
    source = lock_event_to_change(actor, source_event, "start a knockout from its standings")
    made = Event.objects.filter(seeded_from=source).order_by("pk").first()
    if made is not None:
        # Named only to whoever may read it: the knockout may be private while its source is not.
        which = f", {made.name} (event {made.pk})" if policy.can_read(actor, made) else ""
        raise error("source_event", f"{source.name} already has its knockout{which}: a knockout is made once "
                                    "from an event's standings")
    problems: list[Problem] = []
    if source.is_elimination:
        problems.append(Problem(None, "source_event", "a knockout is seeded from a Swiss or round robin event"))
    if format not in (Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION):
        problems.append(Problem(None, "format", "a knockout is single_elimination or double_elimination"))
    if problems:
        raise Refusal(problems)
    state = load_state(source)
    answer, _ = compute_answer(state)
    if not answer["complete"]:
        raise error("source_event", f"{source.name} is not complete: its standings are not final")
    ranked = [row["entry"] for row in answer["standings"] if not row["dropped"]]
    if type(top_n) is not int or not 2 <= top_n <= len(ranked):
        raise error("top_n", f"take 2 to {len(ranked)} entries (those still in); {top_n!r} given")
    public = source.is_public if is_public is None else is_public
    # A public knockout of a private event must not name it: whoever follows the knockout may not read it.
    default_name = f"{source.name}: top {top_n}" if source.is_public or not public else f"Knockout: top {top_n}"
    event = _create_event(
        actor=actor, name=name or default_name, format=format, conventions=source.conventions,
        match_format=match_format or source.match_format, rounds=None, tiebreaks=None, match_points=None,
        bye_margin=source.bye_margin, forfeit_margin=source.forfeit_margin, third_place=third_place,
        grand_final=grand_final, is_public=public,
        directors=list(source.directors.all()), referees=list(source.referees.all()), seeded_from=source,
        round_minutes=round_minutes if round_minutes is not None else source.round_minutes,
        time_rule=source.time_rule,
    )
    players = {e.pk: e.player_id for e in state.entries}
    ratings = {e.pk: e.rating for e in state.entries}
    Entry.objects.bulk_create(Entry(event=event, player_id=players[pk], seed=seed, rating=ratings[pk])
                              for seed, pk in enumerate(ranked[:top_n], start=1))
    event.seeding = {"method": "standings", "order": ranked[:top_n], "source_event": source.pk,
                     "at": timezone.now().isoformat()}
    event.save(update_fields=["seeding"])
    return event

