"""Every write of the tournaments app: events, entries, seeding, drops, rounds and bracket matches (with
their games and referee links), swaps, publishing, directors' results and bracket resets, knockouts.

Each service takes keyword-only arguments, runs in one transaction and locks the event row first
(``select_for_update``): two directors pairing at once create one round, and every write bumps the
event's ``revision`` (part of the results fingerprint). Games and referee links are made by
``scoring``'s own services under the event's frozen conventions. Pairings, brackets and standings
come from the engine (``tournaments.engine``) run on the stored results (``tournaments.results``).

A refused write raises ``EventError`` (bad input: every problem with its field and message) or
``NotAllowed`` (role); nothing already recorded changes. Who may do what is in ``policy``.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from scoring import services as scoring
from scoring.engine import SheetError, resolve_conventions
from scoring.models import Game, GameStatusChange, IdempotencyRecord, Player, RefereeLink
from tournaments.engine import EventError, read_event, run_event
from tournaments.engine.document import MAX_ENTRIES, default_swiss_rounds
from tournaments.engine.errors import Problem

from . import policy
from .models import Entry, Event, EventAnswer, Match, MatchGame, MatchPlayer, MatchResult, Round
from .policy import Actor, NotAllowed
from .results import (
    EventState,
    compute_answer,
    decided_rounds,
    load_state,
    results_fingerprint,
    results_key,
    round_results,
    sides,
    with_match_details,
)

MAX_REASON = 500
MAX_TEXT_LINES = 4096
MAX_STORED = 2**31 - 1  # seeds, ratings, margins: the database's integer columns
MAX_DROP_ROUND = MAX_ENTRIES
MAX_SEED = 10**9  # the event document's limit on a seed


def _error(field: str | None, message: str) -> EventError:
    return EventError.one(None, field, message)


def _lock(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _bump(event: Event) -> None:
    """A write that can change the answer: move the fingerprint now, recompute the answer once committed."""
    Event.objects.filter(pk=event.pk).update(revision=F("revision") + 1)
    refresh_after_commit(event.pk)


def refresh_after_commit(event_id: int) -> None:
    """Recompute the event's live answer once this transaction commits, so that the pages and the API
    read it instead of running the engine. A failure there is logged and leaves the work to the next
    reader (the answer is also computed lazily): it never turns a committed write into an error."""
    # A named function, not a functools.partial: Django logs a robust callback's failure by its
    # __qualname__, which a partial lacks (its logging would itself fail, and the request with it).
    def refresh_event_answer() -> None:
        refresh_answer_if_stale(event_id)

    transaction.on_commit(refresh_event_answer, robust=True)


def _reason(reason: str, *, required: bool = True) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise _error("reason", "say why (a reason is kept with the result)")
    if len(reason) > MAX_REASON:
        raise _error("reason", f"keep the reason under {MAX_REASON} characters")
    return reason


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


# ---------------------------------------------------------------------------------------------------
# Events


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
    directors: Sequence[Any] = (),
    referees: Sequence[Any] = (),
    seeded_from: Event | None = None,
) -> Event:
    """A new event in registration. Options are checked by the engine itself (a document of two
    stand-in entries), so the event can always be scored; the conventions are resolved and frozen."""
    policy.require_may_create_event(actor)
    return _create_event(
        actor=actor, name=name, format=format, conventions=conventions, match_format=match_format, rounds=rounds,
        tiebreaks=tiebreaks, match_points=match_points, bye_margin=bye_margin, forfeit_margin=forfeit_margin,
        third_place=third_place, grand_final=grand_final, is_public=is_public, directors=directors,
        referees=referees, seeded_from=seeded_from,
    )


def _create_event(*, actor: Actor, name: str, format: str, conventions: object, match_format: str,
                  rounds: int | None, tiebreaks: Sequence[str] | None, match_points: dict[str, int] | None,
                  bye_margin: int, forfeit_margin: int, third_place: bool, grand_final: str, is_public: bool,
                  directors: Sequence[Any], referees: Sequence[Any], seeded_from: Event | None) -> Event:
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
        raise EventError(problems)
    try:
        frozen = resolve_conventions(conventions).as_dict()
    except SheetError as exc:
        problems.extend(Problem(None, p.field or "conventions", p.message) for p in exc.problems)
        frozen = {}
    if rounds is not None and format != Event.Format.SWISS:
        problems.append(Problem(None, "rounds", "only a Swiss event takes a number of rounds"))
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
        read = read_event(probe)
    except EventError as exc:
        problems.extend(exc.problems)
        read = None
    if problems:
        raise EventError(problems)
    assert read is not None
    event = Event.objects.create(
        name=name, format=format, conventions=frozen, match_format=match_format, rounds=rounds,
        tiebreaks=list(read.tiebreaks), match_points=read.match_points.as_dict(), bye_margin=read.bye_margin,
        forfeit_margin=read.forfeit_margin, third_place=read.third_place, grand_final=read.grand_final.value,
        is_public=is_public, created_by=actor.user, seeded_from=seeded_from,
    )
    if directors:
        event.directors.set(directors)
    if referees:
        event.referees.set(referees)
    return event


@transaction.atomic
def set_officials(*, actor: Actor, event: Event, directors: Sequence[Any], referees: Sequence[Any]) -> Event:
    """Who directs and who referees the event, at any time. Every game the event has made and that is
    still being played gets its new officials as referees; those no longer officials of the event stop
    refereeing those games (finished games keep theirs: they refereed them). An organiser may change
    the directors; a director may change the referees only."""
    event = _lock(event)
    policy.require_director(actor, event, "change the event's officials")
    directors, referees = list(dict.fromkeys(directors)), list(dict.fromkeys(referees))
    if set(directors) != set(event.directors.all()) and not actor.is_organiser:
        raise NotAllowed("only an organiser may change an event's directors")
    before = set(_officials(event))
    event.directors.set(directors)
    event.referees.set(referees)
    after = set(_officials(event))
    playing = Game.objects.filter(pk__in=MatchGame.objects.filter(match__event=event, match__reset_at__isnull=True)
                                  .values("game_id"), status=Game.Status.IN_PROGRESS)
    through = Game.referees.through
    gone = [u.pk for u in before - after]
    if gone:
        through.objects.filter(game__in=playing, user_id__in=gone).delete()
    added = [u.pk for u in after - before]
    if added:
        through.objects.bulk_create([through(game_id=g, user_id=u) for g in playing.values_list("pk", flat=True)
                                     for u in added], ignore_conflicts=True)
    _bump(event)
    return event


# ---------------------------------------------------------------------------------------------------
# Entries


def _late_round(event: Event) -> int:
    """The round a new entry joins: 1 in registration, else the round after the last one paired."""
    if event.status == Event.Status.REGISTRATION:
        return 1
    if event.format != Event.Format.SWISS:
        raise _error("event", "entries join a round robin or a bracket only during registration")
    if event.status == Event.Status.COMPLETE:
        raise _error("event", "the event is complete")
    last = Round.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first() or 0
    joined = last + 1
    if event.rounds is not None and joined > event.rounds:
        raise _error("event", f"every round of {event.name} is already paired: no round is left to join")
    return joined


def _find_or_create_player(name: str, club: str, field_name: str) -> Player:
    """The player of that name (any case): in ``club`` when one is given, else in any club; a new player
    (in ``club``) when there is none. A name that several clubs' players share, with no club given, is
    refused: the director names the club (a new namesake is never made by mistake)."""
    name = (name or "").strip()
    club = (club or "").strip()
    if not name:
        raise _error(field_name, "a player needs a name")
    if len(name) > 60:
        raise _error(field_name, f"a name has at most 60 characters; {len(name)} given")
    players = Player.objects.filter(display_name__iexact=name)
    found = list((players.filter(club=club) if club else players).order_by("club", "pk")[:3])
    if len(found) > 1:
        clubs = ", ".join(f"{p} ({p.club or 'no club'})" for p in found)
        raise _error(field_name, f"{name!r} is the name of more than one player: {clubs}; say which club")
    if found:
        return found[0]
    try:
        return scoring.create_player_unchecked(display_name=name, club=club)
    except SheetError as exc:
        raise _error(field_name, exc.problems[0].message) from None


def _taken_names(event: Event) -> dict[str, str]:
    return {n.casefold(): n for n in Entry.objects.filter(event=event).values_list("player__display_name", flat=True)}


def _add(event: Event, player: Player, *, seed: int | None, rating: int | None, joined: int, field_name: str) -> Entry:
    if Entry.objects.filter(event=event, player=player).exists():
        raise _error(field_name, f"{player} is already entered in {event.name}")
    if seed is not None:
        if type(seed) is not int or not 1 <= seed <= MAX_SEED:
            raise _error("seed", f"a seed is a whole number from 1 to {MAX_SEED}; {seed!r} given")
        if event.status != Event.Status.REGISTRATION:
            raise _error("seed", "seeds are set during registration")
        if Entry.objects.filter(event=event, seed=seed).exists():
            raise _error("seed", f"seed {seed} is already taken in {event.name}")
    if rating is not None and (type(rating) is not int or not -MAX_STORED <= rating <= MAX_STORED):
        raise _error("rating", f"a rating is a whole number of at most ten digits; {rating!r} given")
    try:
        with transaction.atomic():
            return Entry.objects.create(event=event, player=player, seed=seed, rating=rating, joined_round=joined)
    except IntegrityError:
        raise _error(field_name, f"{player} is already entered in {event.name}") from None


@transaction.atomic
def add_entry(
    *,
    actor: Actor,
    event: Event,
    player: Player | None = None,
    name: str = "",
    club: str = "",
    seed: int | None = None,
    rating: int | None = None,
) -> Entry:
    """Enter an existing player, or a player by name (found case-insensitively in ``club``, or created).

    During registration an entry plays from round 1; a Swiss event already running takes a late
    entry, paired from the next round on with 0 match points before it."""
    event = _lock(event)
    policy.require_director(actor, event, "add entries")
    joined = _late_round(event)
    if player is None:
        if not (name or "").strip():
            raise _error("player", "give a player, or a name for a new one")
        taken = _taken_names(event)
        if name.strip().casefold() in taken:
            raise _error("name", f"{taken[name.strip().casefold()]} is already entered in {event.name}")
        player = _find_or_create_player(name, club, "name")
    entry = _add(event, player, seed=seed, rating=rating, joined=joined, field_name="player")
    _bump(event)
    return entry


def _parse_lines(text: str) -> list[tuple[int, str, int | None]]:
    """(line number, name, rating) per non-blank line of a pasted list or ``name,rating`` CSV."""
    if len(text) > 400_000:
        raise _error("text", "paste at most 400,000 characters")
    rows: list[tuple[int, str, int | None]] = []
    problems: list[Problem] = []
    lines = text.splitlines()
    if len(lines) > MAX_TEXT_LINES:
        raise _error("text", f"paste at most {MAX_TEXT_LINES} lines; {len(lines)} given")
    for number, cells in enumerate(csv.reader(io.StringIO("\n".join(lines))), start=1):
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if number == 1 and [c.casefold() for c in cells[:2]] in (["name"], ["name", "rating"]):
            continue  # a CSV header
        if len(cells) > 2:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: expected a name, or name,rating; "
                                                           f"{len(cells)} columns given"))
            continue
        name = cells[0]
        rating: int | None = None
        if len(cells) == 2 and cells[1]:
            try:
                rating = int(cells[1])
            except ValueError:
                problems.append(Problem(None, f"lines.{number}", f"line {number}: the rating must be a whole "
                                                               f"number; {cells[1]!r} given"))
                continue
        if not name:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: the name is empty"))
        elif len(name) > 60:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: a name has at most 60 characters"))
        else:
            rows.append((number, name, rating))
    if problems:
        raise EventError(problems)
    if not rows:
        raise _error("text", "no names given: one name per line, or name,rating")
    return rows


@transaction.atomic
def add_entries_from_text(*, actor: Actor, event: Event, text: str, club: str = "") -> list[Entry]:
    """Enter every player of a pasted list (one name per line) or CSV (``name,rating``, an optional
    header). All or nothing: any bad line refuses the whole paste, each problem naming its line."""
    event = _lock(event)
    policy.require_director(actor, event, "add entries")
    joined = _late_round(event)
    rows = _parse_lines(text or "")
    taken = _taken_names(event)
    seen: dict[str, int] = {}
    problems: list[Problem] = []
    for number, name, _ in rows:
        key = name.casefold()
        if key in taken:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: {taken[key]} is already entered"))
        elif key in seen:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: {name} is already on line {seen[key]}"))
        else:
            seen[key] = number
    if problems:
        raise EventError(problems)
    entries = []
    for number, name, rating in rows:
        player = _find_or_create_player(name, club, f"lines.{number}")
        entries.append(_add(event, player, seed=None, rating=rating, joined=joined, field_name=f"lines.{number}"))
    _bump(event)
    return entries


@transaction.atomic
def seed_entries(
    *, actor: Actor, event: Event, method: str, order: Sequence[int] | None = None, rng: random.Random | None = None
) -> list[Entry]:
    """Set the seeds during registration, returned in seed order.

    ``manual``: ``order`` lists entry ids, seeds 1, 2, ... in that order (entries left out are
    unseeded); ``rating``: the highest rating first, then the unrated in the order they entered;
    ``random``: a shuffle (``rng`` for tests), stored in ``event.seeding`` with the method."""
    event = _lock(event)
    policy.require_director(actor, event, "seed entries")
    if event.status != Event.Status.REGISTRATION:
        raise _error("method", "seeds are set during registration, before the first round")
    entries = list(Entry.objects.filter(event=event).order_by("id"))
    by_id = {e.pk: e for e in entries}
    if method == "manual":
        if not order:
            raise _error("order", "list the entry ids in seed order")
        ids = list(order)
        problems = [Problem(None, f"order.{i}", f"{pk!r} is not an entry of {event.name}")
                    for i, pk in enumerate(ids) if pk not in by_id]
        if len(set(ids)) != len(ids):
            problems.append(Problem(None, "order", "an entry is listed twice"))
        if problems:
            raise EventError(problems)
    elif method == "rating":
        if order:
            raise _error("order", "only manual seeding takes an order")
        rated = sorted((e for e in entries if e.rating is not None), key=lambda e: (-e.rating, e.pk))
        ids = [e.pk for e in rated] + [e.pk for e in entries if e.rating is None]
    elif method == "random":
        if order:
            raise _error("order", "only manual seeding takes an order")
        ids = [e.pk for e in entries]
        (rng or random.SystemRandom()).shuffle(ids)
    else:
        raise _error("method", f"must be manual, rating or random; {method!r} given")
    Entry.objects.filter(event=event).update(seed=None)
    for seed, pk in enumerate(ids, start=1):
        by_id[pk].seed = seed
    for e in entries:
        if e.pk not in ids:
            e.seed = None
    Entry.objects.bulk_update(entries, ["seed"])
    event.seeding = {"method": method, "order": ids, "at": timezone.now().isoformat()}
    event.save(update_fields=["seeding"])
    _bump(event)
    return [by_id[pk] for pk in ids]


@transaction.atomic
def drop_entry(*, actor: Actor, entry: Entry, after_round: int | None = None, reason: str = "") -> Entry:
    """The entry plays no more after ``after_round`` (default: the last round it is paired in; 0 before
    round 1). It keeps its results and its place in the standings, marked dropped. In a bracket it
    forfeits every match it has not played. A match it still owes in that round needs a result (a
    forfeit) for the round to close."""
    event = _lock(entry.event)
    policy.require_director(actor, event, "drop entries")
    entry = Entry.objects.select_for_update().get(pk=entry.pk, event=event)
    if entry.dropped_after_round is not None:
        raise _error("entry", f"{entry.player} already dropped after round {entry.dropped_after_round}")
    reason = _reason(reason, required=False)
    last_paired = (MatchPlayer.objects.filter(entry=entry, round__isnull=False, match__reset_at__isnull=True)
                   .order_by("-round__number").values_list("round__number", flat=True).first() or 0)
    if after_round is None:
        after_round = last_paired
    # The engine's own limit on a drop's round (the event document's ``dropped``): a drop it would
    # refuse must never be stored.
    if type(after_round) is not int or not 0 <= after_round <= MAX_DROP_ROUND:
        raise _error("after_round", f"the last round played is a whole number from 0 to {MAX_DROP_ROUND}; "
                                    f"{after_round!r} given")
    if not event.is_elimination and after_round < last_paired:
        raise _error("after_round", f"{entry.player} is paired in round {last_paired}: drop after round "
                                    f"{last_paired} or later (record a forfeit for a match not played)")
    entry.dropped_after_round = after_round
    entry.drop_reason = reason
    entry.save(update_fields=["dropped_after_round", "drop_reason"])
    _bump(event)
    return entry


# ---------------------------------------------------------------------------------------------------
# Rounds, bracket matches, games


@dataclass
class Opened:
    """What a pairing (or publishing, or reset) made: the round (None for a bracket), the matches it
    opened, and the referee link tokens of their games ({game id: token}), which exist only now."""

    round: Round | None
    matches: list[Match] = field(default_factory=list)
    tokens: dict[int, str] = field(default_factory=dict)
    reset: list[Match] = field(default_factory=list)


def _officials(event: Event) -> list[Any]:
    return list({u.pk: u for u in [*event.directors.all(), *event.referees.all()]}.values())


def _open_games(actor: Actor, event: Event, match: Match, entries: dict[int, Entry], officials: list[Any],
                tokens: dict[int, str], *, links: bool = True) -> None:
    """The match's game(s) under the event's frozen conventions, each with a referee link (``links``)."""
    players = [entries[e].player for e in sides(match)]
    count = event.games_per_match
    where = match.bracket_id or f"round {match.round.number}"
    for number in range(1, count + 1):
        # The round (or bracket match) too: a table's number comes back every round, its card may stay.
        label = " · ".join(part for part in (f"Round {match.round.number}" if match.round_id else "",
                                             f"Table {match.table}" if match.table else "", match.bracket_id,
                                             f"game {number}" if count > 1 else "") if part)
        try:
            game = scoring.create_game_unchecked(
                actor=actor, format=Game.Format.STANDARD, players=players, conventions=event.conventions,
                table_label=label, is_public=event.is_public, referees=officials,
            )
        except SheetError as exc:
            raise _error("players", f"{where}: {exc.problems[0].message}") from None
        MatchGame.objects.create(match=match, game=game, number=number)
        if links:
            link = scoring.create_referee_link_unchecked(actor=actor, game=game, label=label[:60])
            tokens[game.pk] = link.token


def _create_match(event: Event, *, round: Round | None, table: int | None, players: Sequence[int],
                  bracket_id: str = "", opened_from: dict | None = None) -> Match:
    match = Match.objects.create(event=event, round=round, table=table, bracket_id=bracket_id,
                                 is_bye=len(players) == 1, opened_from=opened_from or {})
    MatchPlayer.objects.bulk_create(MatchPlayer(match=match, round=round, entry_id=e, side=i)
                                    for i, e in enumerate(players))
    return match


def _entries_in(event: Event) -> dict[int, Entry]:
    return {e.pk: e for e in Entry.objects.filter(event=event).select_related("player")}


@transaction.atomic
def pair_next_round(*, actor: Actor, event: Event, publish: bool = True) -> Opened:
    """Swiss and round robin: pair the next round from the stored results (the engine's
    ``next_round``), each pair at the table the engine numbers, byes as matches without a game.
    ``publish`` (the default) makes the games and referee links at once; otherwise the round is a
    draft a director may swap in before ``publish_round``.

    Elimination: the first call starts the bracket; every call opens each bracket match whose two
    players are known and that is not open yet, at the lowest free tables."""
    event = _lock(event)
    policy.require_director(actor, event, "pair rounds")
    if event.status == Event.Status.COMPLETE:
        raise _error("event", f"{event.name} is complete")
    state = load_state(event)
    live = [e for e in state.entries if e.dropped_after_round is None]
    if event.status == Event.Status.REGISTRATION and len(live) < 2:
        raise _error("entries", f"an event needs at least 2 entries still in; {len(live)} given")
    if event.is_elimination:
        opened = _open_bracket(actor, event, state)
    else:
        opened = _pair_round(actor, event, state, publish=publish)
    if event.status == Event.Status.REGISTRATION:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    _bump(event)
    return opened


def _pair_round(actor: Actor, event: Event, state: EventState, *, publish: bool) -> Opened:
    undecided = [n for n, done in decided_rounds(state).items() if not done]
    if undecided:
        raise _error("round", f"round {undecided[0]} is still being played: pair the next round once every "
                              "match in it has a result")
    drafts = [r.number for r in state.rounds if r.status == Round.Status.DRAFT]
    if drafts:
        raise _error("round", f"round {drafts[0]} is a draft: publish it first")
    if event.format == Event.Format.SWISS and event.rounds is None:
        event.rounds = default_swiss_rounds(max(len(state.entries), 2))
        event.save(update_fields=["rounds"])
        state.event = event
    answer, _ = compute_answer(state)
    upcoming = answer["next_round"]
    last = state.rounds[-1].number if state.rounds else 0
    if answer["complete"] or upcoming is None:
        if answer["complete"]:
            raise _error("round", f"every round of {event.name} has been played")
        raise _error("round", "a round is still owed results: " + "; ".join(
            " v ".join(p.get("players", [p.get("bye")])) for p in answer["pending"][:5]))
    if upcoming["round"] != last + 1:
        raise _error("round", f"round {upcoming['round']} is owed again: a correction reopened it "
                              f"(see the event's warnings)")
    results = round_results(state, upcoming["round"])
    rnd = Round.objects.create(event=event, number=upcoming["round"], status=Round.Status.DRAFT,
                               paired_from_key=results_key(results), paired_from=results, created_by=actor.user)
    ids = state.by_label
    matches = [_create_match(event, round=rnd, table=p["table"], players=[ids[n] for n in p["players"]])
               for p in upcoming["pairings"]]
    matches += [_create_match(event, round=rnd, table=None, players=[ids[name]]) for name in upcoming["byes"]]
    opened = Opened(rnd, matches)
    if publish:
        opened.tokens = _publish(actor, event, rnd, matches)
    return opened


def _publish(actor: Actor, event: Event, rnd: Round, matches: Sequence[Match]) -> dict[int, str]:
    entries = _entries_in(event)
    officials = _officials(event)
    tokens: dict[int, str] = {}
    for m in matches:
        if not m.is_bye:
            _open_games(actor, event, m, entries, officials, tokens)
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    return tokens


@transaction.atomic
def publish_round(*, actor: Actor, round: Round) -> Opened:
    """Make a draft round's games and referee links: its pairings are final from now on."""
    event = _lock(round.event)
    policy.require_director(actor, event, "publish rounds")
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.DRAFT:
        raise _error("round", f"round {rnd.number} is already published")
    matches = list(Match.objects.filter(round=rnd, reset_at__isnull=True).select_related("round")
                   .prefetch_related("players").order_by("id"))
    tokens = _publish(actor, event, rnd, matches)
    _bump(event)
    return Opened(rnd, matches, tokens)


def _free_tables(state: EventState) -> list[int]:
    busy = {m.table for m in state.live_matches if m.bracket_id and m.table and not state.outcome(m).decided}
    return [t for t in range(1, len(state.entries) + 2) if t not in busy]


def _open_bracket(actor: Actor, event: Event, state: EventState, *, links: bool = True) -> Opened:
    answer, warnings = compute_answer(state)
    stale = [w for w in warnings if w["kind"] == "bracket_players_changed"]
    if stale:
        raise _error("bracket", stale[0]["message"])
    if answer["complete"]:
        raise _error("bracket", f"every match of {event.name} has been played")
    open_ids = {m.bracket_id for m in state.live_matches if m.bracket_id}
    rows = {r["id"]: r for r in answer["bracket"]}
    ready = [rows[p["match"]] for p in answer["pending"] if p["match"] not in open_ids]
    if not ready:
        waiting = sorted(open_ids - {m.bracket_id for m in state.live_matches
                                     if m.bracket_id and state.outcome(m).decided})
        raise _error("bracket", "no bracket match is ready to open: waiting for "
                                + (", ".join(waiting) if waiting else "results"))
    tables = iter(_free_tables(state))
    winners_of = _bracket_winners(answer)
    entries = _entries_in(event)
    officials = _officials(event)
    opened = Opened(None)
    ids = state.by_label
    for row in ready:
        pending = next(p for p in answer["pending"] if p["match"] == row["id"])
        sources = {s.get("winner_of") or s.get("loser_of"): winners_of.get(s.get("winner_of") or s.get("loser_of"))
                   for s in row.get("from", []) if s.get("winner_of") or s.get("loser_of")}
        m = _create_match(event, round=None, table=next(tables), players=[ids[n] for n in pending["players"]],
                          bracket_id=row["id"], opened_from={k: ids.get(v) for k, v in sources.items()})
        _open_games(actor, event, m, entries, officials, opened.tokens, links=links)
        opened.matches.append(m)
    return opened


def _bracket_winners(answer: dict[str, Any]) -> dict[str, str | None]:
    return {r["id"]: r["winner"] for r in answer.get("bracket", [])}


@transaction.atomic
def reset_dependent_bracket_matches(*, actor: Actor, event: Event, reason: str = "") -> Opened:
    """Reset every open bracket match without a result whose players the bracket no longer puts there
    (an earlier result changed): its games are abandoned and links revoked, the match is kept marked
    reset, and the right matches are opened in its place."""
    event = _lock(event)
    policy.require_director(actor, event, "reset bracket matches")
    if not event.is_elimination:
        raise _error("event", "only a bracket has matches to reset")
    reason = _reason(reason, required=False) or "the players of this match changed after a correction"
    state = load_state(event)
    _, warnings = compute_answer(state)
    resettable = {w["match_pk"] for w in warnings if w["kind"] == "bracket_players_changed" and w["resettable"]}
    if not resettable:
        raise _error("bracket", "no open bracket match waits on a changed result")
    reset = []
    for m in with_match_details(Match.objects.filter(pk__in=resettable, event=event), links=True):
        for mg in m.match_games.all():
            for link in mg.game.referee_links.all():
                scoring.revoke_referee_link_unchecked(link=link)
            scoring.abandon_game_unchecked(actor=actor, game=mg.game, reason=f"bracket match reset: {reason}")
        m.reset_at = timezone.now()
        m.reset_reason = reason
        m.save(update_fields=["reset_at", "reset_reason"])
        reset.append(m)
    state = load_state(event)
    try:
        opened = _open_bracket(actor, event, state)
    except EventError:
        opened = Opened(None)  # the right matches wait for results still owed
    opened.reset = reset
    _bump(event)
    return opened


def _round_entries(rnd: Round) -> tuple[dict[int, Match], dict[int, int]]:
    places = MatchPlayer.objects.filter(match__round=rnd, match__reset_at__isnull=True).select_related("match")
    match_of = {p.entry_id: p.match for p in places}
    side_of = {p.entry_id: p.side for p in places}
    return match_of, side_of


def swap_warnings(*, round: Round, first: Entry, second: Entry) -> list[str]:
    """What swapping ``first`` and ``second`` in a draft Swiss round would break: rematches, the bye rule."""
    match_of, _ = _round_entries(round)
    problems: list[str] = []
    for entry in (first, second):
        if entry.pk not in match_of:
            raise _error("entry", f"{entry.player} is not paired in round {round.number}")
    a_match, b_match = match_of[first.pk], match_of[second.pk]
    if a_match.pk == b_match.pk:
        raise _error("entry", f"{first.player} and {second.player} already play each other")
    new_groups = []
    for match, leaving, arriving in ((a_match, first.pk, second.pk), (b_match, second.pk, first.pk)):
        others = [e for e, m in match_of.items() if m.pk == match.pk and e != leaving]
        new_groups.append((match, arriving, others))
    earlier = MatchPlayer.objects.filter(match__event=round.event, match__reset_at__isnull=True,
                                         round__number__lt=round.number)
    met: dict[int, set[int]] = {}
    byes: set[int] = set()
    by_match: dict[int, list[int]] = {}
    for place in earlier.select_related("match"):
        if place.match.is_bye:
            byes.add(place.entry_id)
        by_match.setdefault(place.match_id, []).append(place.entry_id)
    for pair in by_match.values():
        if len(pair) == 2:
            met.setdefault(pair[0], set()).add(pair[1])
            met.setdefault(pair[1], set()).add(pair[0])
    names = {e.pk: str(e.player) for e in Entry.objects.filter(event=round.event).select_related("player")}
    for match, arriving, others in new_groups:
        if match.is_bye:
            if arriving in byes:
                without = [e for e in match_of if e not in byes]
                if without:
                    problems.append(f"breaks the bye rule: {names[arriving]} already had a bye, and "
                                    f"{names[without[0]]} has not: "
                                    "the bye goes to an entry without one first")
        else:
            for other in others:
                if other in met.get(arriving, set()):
                    problems.append(f"makes a rematch: {names[arriving]} and {names[other]} have already played "
                                    "each other")
    return problems


@transaction.atomic
def swap_entries(*, actor: Actor, round: Round, first: Entry, second: Entry, confirm: bool = False) -> list[str]:
    """Swap two entries between matches (or a match and the bye) of a draft Swiss round.

    When the swap makes a rematch or breaks the bye rule, it is refused unless ``confirm`` is true;
    either way the returned list says plainly what it breaks (empty: nothing)."""
    event = _lock(round.event)
    policy.require_director(actor, event, "swap pairings")
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if event.format != Event.Format.SWISS:
        raise _error("round", "only a Swiss round's pairings may be changed by hand")
    if rnd.status != Round.Status.DRAFT:
        raise _error("round", f"round {rnd.number} is published: its games are made; swap before publishing")
    if first.event_id != event.pk or second.event_id != event.pk:
        raise _error("entry", "both entries must be in this event")
    warnings = swap_warnings(round=rnd, first=first, second=second)
    if warnings and not confirm:
        raise _error("confirm", "this swap " + "; ".join(warnings) + ". Confirm to swap anyway")
    match_of, side_of = _round_entries(rnd)
    a, b = match_of[first.pk], match_of[second.pk]
    MatchPlayer.objects.filter(round=rnd, entry__in=[first.pk, second.pk]).delete()
    MatchPlayer.objects.bulk_create([
        MatchPlayer(match=b, round=rnd, entry=first, side=side_of[second.pk]),
        MatchPlayer(match=a, round=rnd, entry=second, side=side_of[first.pk]),
    ])
    _bump(event)
    return warnings


@transaction.atomic
def issue_table_links(*, actor: Actor, event: Event, round: Round | None = None) -> dict[int, str]:
    """New referee links for the undecided matches' games still being played (a round's, or every open
    bracket match's), the previous links revoked: for a printed round sheet, since a link's token
    exists only when made. Returns {game id: token}."""
    event = _lock(event)
    policy.require_director(actor, event, "print table links")
    state = load_state(event)
    undecided = [m.pk for m in state.live_matches if not m.is_bye and not state.outcome(m).decided
                 and (m.round_id == round.pk if round is not None else m.round_id is None)]
    tokens: dict[int, str] = {}
    games = Game.objects.filter(pk__in=MatchGame.objects.filter(match__in=undecided).values("game_id"))
    for game in games:
        if game.status != Game.Status.IN_PROGRESS:
            continue
        old = list(RefereeLink.objects.filter(game=game, revoked_at__isnull=True))
        for link in old:
            scoring.revoke_referee_link_unchecked(link=link)
        link = scoring.create_referee_link_unchecked(actor=actor, game=game, label=game.table_label[:60])
        tokens[game.pk] = link.token
    return tokens


# ---------------------------------------------------------------------------------------------------
# Directors' results


def _director_result(actor: Actor, match: Match, kind: str, winner: Entry | None, margin: int | None,
                     reason: str) -> MatchResult:
    event = _lock(match.event)
    policy.require_director(actor, event, "record results")
    match = Match.objects.select_related("round").get(pk=match.pk, event=event)
    if match.reset_at is not None:
        raise _error("match", "this bracket match was reset: record the result on the match opened in its place")
    if match.is_bye:
        raise _error("match", "a bye has no result to record")
    if kind == MatchResult.Kind.CLEARED and not match.results.exists():
        raise _error("match", "this match has no director's result to clear")
    reason = _reason(reason)
    players = sides(match)
    if kind != MatchResult.Kind.CLEARED:
        if winner is None and (kind == MatchResult.Kind.FORFEIT or event.is_elimination):
            raise _error("winner", "name the winner" + (": a bracket match cannot be drawn"
                                                        if event.is_elimination else ""))
        if winner is not None and winner.pk not in players:
            raise _error("winner", f"{winner.player} does not play in this match")
    if margin is not None and (type(margin) is not int or not 0 <= margin <= MAX_STORED):
        raise _error("margin", f"a margin is a whole number from 0 to {MAX_STORED}; {margin!r} given")
    if kind == MatchResult.Kind.ADJUSTED:
        if margin is None:
            raise _error("margin", "give the margin")
        if winner is None and margin:
            raise _error("margin", f"a draw has no margin; {margin} given")
    result = MatchResult.objects.create(match=match, kind=kind, winner=winner, margin=margin, reason=reason,
                                        entered_by=actor.user)
    _settle_games(actor, match, kind, reason)
    _bump(event)
    return result


DECIDED_BY_DIRECTOR = "the match was decided by a director"


def _settle_games(actor: Actor, match: Match, kind: str, reason: str) -> None:
    """A director's result freezes the match's games still being played (nobody goes on recording hands
    at a table whose result is settled); going back to the games' result reopens those it froze."""
    games = Game.objects.filter(pk__in=MatchGame.objects.filter(match=match).values("game_id"))
    if kind != MatchResult.Kind.CLEARED:
        for game in games.filter(status=Game.Status.IN_PROGRESS):
            scoring.abandon_game_unchecked(actor=actor, game=game, reason=f"{DECIDED_BY_DIRECTOR}: {reason}"[:500])
        return
    for game in games.filter(status=Game.Status.ABANDONED):
        last = GameStatusChange.objects.filter(game=game).order_by("-changed_at", "-pk").first()
        if last is not None and last.reason.startswith(DECIDED_BY_DIRECTOR):
            scoring.reopen_game_unchecked(actor=actor, game=game, reason=f"back to the games' result: {reason}"[:500])


@transaction.atomic
def record_forfeit(*, actor: Actor, match: Match, winner: Entry, reason: str) -> MatchResult:
    """The match is won by ``winner`` by forfeit (the event's forfeit margin), whatever its games say."""
    return _director_result(actor, match, MatchResult.Kind.FORFEIT, winner, None, reason)


@transaction.atomic
def record_adjusted_result(*, actor: Actor, match: Match, winner: Entry | None, margin: int,
                           reason: str) -> MatchResult:
    """A director's result for the match (``winner`` None: a draw, Swiss and round robin only)."""
    return _director_result(actor, match, MatchResult.Kind.ADJUSTED, winner, margin, reason)


@transaction.atomic
def clear_director_result(*, actor: Actor, match: Match, reason: str) -> MatchResult:
    """Back to what the match's games say; the earlier forfeit or adjustment stays in the history."""
    return _director_result(actor, match, MatchResult.Kind.CLEARED, None, None, reason)


# ---------------------------------------------------------------------------------------------------
# Results kept up to date: after every change (on commit), or by the first reader that finds it stale

LIVE = "live"


def answer_view(as_of_round: int | None) -> str:
    return LIVE if as_of_round is None else f"round-{as_of_round}"


def refresh_answer(event: Event, *, as_of_round: int | None = None, key: str | None = None) -> EventAnswer:
    """Run the engine on the stored results and keep the answer with the fingerprint it was computed
    from (read before the results, so a stored answer is never older than its key). The live answer
    also brings rounds' and the event's statuses up to date."""
    key = key if key is not None else results_fingerprint(event)
    state = load_state(event)
    answer, warnings = compute_answer(state, as_of_round=as_of_round)
    stored = store_answer(event, answer_view(as_of_round), key, answer, warnings)
    if as_of_round is None:
        sync_statuses(state, answer)
    return stored


def refresh_answer_if_stale(event_id: int) -> None:
    """The on-commit refresh: nothing to do when another request already stored this state's answer.
    In a running bracket, the matches a new result made ready are opened too."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    key = results_fingerprint(event)
    if EventAnswer.objects.filter(event=event, view=LIVE, key=key).exists():
        return
    refresh_answer(event, key=key)
    if event.is_elimination and event.status == Event.Status.RUNNING:
        open_ready_bracket_matches(event_id=event.pk)


@transaction.atomic
def open_ready_bracket_matches(*, event_id: int) -> Opened | None:
    """Open every bracket match whose two players a result has just made known, at the lowest free
    tables, without waiting for a director: its game is made and it shows on the pairings page and on
    the referees' "my tables". No referee link is made here (its token could be shown to nobody): a
    director prints the table sheet, which makes them. Nothing is opened while a correction has left
    an open match with the wrong players (the event page names it; a director resets it). The system
    does this, not a person: ``created_by`` of its games is the event's creator."""
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None or not event.is_elimination or event.status != Event.Status.RUNNING:
        return None
    try:
        opened = _open_bracket(Actor(user=event.created_by, address="opened automatically"), event,
                               load_state(event), links=False)
    except EventError:
        return None  # nothing is ready, or a stale match waits for a director
    _bump(event)
    return opened


def standings_text(answer: dict[str, Any]) -> str:
    """The standings as the API sends them (compact, UTF-8, like DRF's JSON renderer)."""
    return json.dumps(answer["standings"], ensure_ascii=False, separators=(",", ":"))


def store_answer(event: Event, view: str, key: str, answer: dict[str, Any], warnings: list[dict]) -> EventAnswer:
    """Keep an answer with its fingerprint. Concurrent readers may both write: each write stores a
    consistent (key, answer) pair, and a pair older than the data only costs the next reader a rerun."""
    text = standings_text(answer)
    values = {"key": key, "answer": answer, "warnings": warnings, "standings_json": text,
              "standings_gzip": gzip.compress(text.encode(), 6, mtime=0)}
    updated = EventAnswer.objects.filter(event=event, view=view).update(**values, computed_at=timezone.now())
    if not updated:
        try:
            with transaction.atomic():
                EventAnswer.objects.create(event=event, view=view, **values)
        except IntegrityError:
            EventAnswer.objects.filter(event=event, view=view).update(**values, computed_at=timezone.now())
    return EventAnswer(event=event, view=view, **values)


def sync_statuses(state: EventState, answer: dict[str, Any]) -> dict[str, int]:
    """Close every published round whose matches are all decided (reopen one a correction undid), and
    complete the event when the engine says so. Each change is one conditional UPDATE, so two readers
    arriving at once close a round once. Returns how many rows this call changed."""
    changed = {"closed": 0, "reopened": 0, "completed": 0}
    now = timezone.now()
    decided = decided_rounds(state)
    for rnd in state.rounds:
        if rnd.status == Round.Status.PUBLISHED and decided.get(rnd.number):
            changed["closed"] += Round.objects.filter(pk=rnd.pk, status=Round.Status.PUBLISHED).update(
                status=Round.Status.CLOSED, closed_at=now)
        elif rnd.status == Round.Status.CLOSED and not decided.get(rnd.number):
            changed["reopened"] += Round.objects.filter(pk=rnd.pk, status=Round.Status.CLOSED).update(
                status=Round.Status.PUBLISHED)
    events = Event.objects.filter(pk=state.event.pk)
    if answer.get("complete"):
        changed["completed"] = events.filter(status=Event.Status.RUNNING).update(status=Event.Status.COMPLETE)
    else:
        events.filter(status=Event.Status.COMPLETE).update(status=Event.Status.RUNNING)
    return changed


# ---------------------------------------------------------------------------------------------------
# Two-stage events


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
) -> Event:
    """A bracket of the top ``top_n`` of a finished Swiss or round robin event (dropped entries left
    out), seeded in standings order, under the same frozen conventions, directors and referees. The
    second stage of the event: its directors may start it, as organisers may."""
    source = _lock(source_event)
    policy.require_director(actor, source, "start a knockout from its standings")
    problems: list[Problem] = []
    if source.is_elimination:
        problems.append(Problem(None, "source_event", "a knockout is seeded from a Swiss or round robin event"))
    if format not in (Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION):
        problems.append(Problem(None, "format", "a knockout is single_elimination or double_elimination"))
    if problems:
        raise EventError(problems)
    state = load_state(source)
    answer, _ = compute_answer(state)
    if not answer["complete"]:
        raise _error("source_event", f"{source.name} is not complete: its standings are not final")
    ranked = [row["entry"] for row in answer["standings"] if not row["dropped"]]
    if type(top_n) is not int or not 2 <= top_n <= len(ranked):
        raise _error("top_n", f"take 2 to {len(ranked)} entries (those still in); {top_n!r} given")
    event = _create_event(
        actor=actor, name=name or f"{source.name}: top {top_n}", format=format, conventions=source.conventions,
        match_format=match_format or source.match_format, rounds=None, tiebreaks=None, match_points=None,
        bye_margin=source.bye_margin, forfeit_margin=source.forfeit_margin, third_place=third_place,
        grand_final=grand_final, is_public=source.is_public if is_public is None else is_public,
        directors=list(source.directors.all()), referees=list(source.referees.all()), seeded_from=source,
    )
    players = {e.pk: e.player_id for e in state.entries}
    ratings = {e.pk: e.rating for e in state.entries}
    Entry.objects.bulk_create(Entry(event=event, player_id=players[pk], seed=seed, rating=ratings[pk])
                              for seed, pk in enumerate(ranked[:top_n], start=1))
    event.seeding = {"method": "standings", "order": ranked[:top_n], "source_event": source.pk,
                     "at": timezone.now().isoformat()}
    event.save(update_fields=["seeding"])
    return event


__all__ = [
    "AlreadySent",
    "EventError",
    "NotAllowed",
    "Opened",
    "add_entries_from_text",
    "add_entry",
    "claim_form_once",
    "clear_director_result",
    "create_event",
    "create_knockout_from_standings",
    "drop_entry",
    "issue_table_links",
    "open_ready_bracket_matches",
    "pair_next_round",
    "publish_round",
    "record_adjusted_result",
    "record_forfeit",
    "reset_dependent_bracket_matches",
    "run_event",
    "seed_entries",
    "set_officials",
    "swap_entries",
    "swap_warnings",
]
