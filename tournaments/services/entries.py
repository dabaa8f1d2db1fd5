"""Entries: one player by id or by name, a pasted list or ``name,rating`` CSV (all or nothing), late
entries in a running Swiss, seeding (by hand, by typed rating, by computed OpenSkill rating, at random) and drops.

It must not pair rounds or touch matches and games: a drop only marks the entry, the engine does the rest.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.refusals import Refusal
from core.text import folded
from scoring import services as scoring
from scoring.models import Player
from tournaments import ratings_source, selectors
from tournaments.engine.errors import Problem
from tournaments.models import Entry, Event, MatchPlayer, Registration, Round
from tournaments.policy import Actor
from tournaments.services.base import refusing

from ..answers.job import bump
from .base import (
    MAX_DROP_ROUND,
    MAX_SEED,
    MAX_STORED,
    MAX_TEXT_LINES,
    error,
    lock_event_to_change,
    reason_text,
)

# ---------------------------------------------------------------------------------------------------
# Entries


def _late_round(event: Event) -> int:
    """The round a new entry joins: 1 in registration, else the round after the last one paired."""
    if event.status == Event.Status.REGISTRATION:
        return 1
    if event.format != Event.Format.SWISS:
        raise error("event", "entries join a round robin or a bracket only during registration")
    if event.status == Event.Status.COMPLETE:
        raise error("event", "the event is complete")
    last = selectors.rounds_paired(event)
    joined = last + 1
    if event.rounds is not None and joined > event.rounds:
        raise error("event", f"every round of {event.name} is already paired: no round is left to join")
    return joined


def _find_or_create_player(name: str, club: str, field_name: str) -> Player:
    """The player of that name (any case): in ``club`` when one is given, else in any club; a new player
    (in ``club``) when there is none. A name that several clubs' players share, with no club given, is
    refused: the director names the club (a new namesake is never made by mistake)."""
    name = (name or "").strip()
    club = (club or "").strip()
    if not name:
        raise error(field_name, "a player needs a name")
    if len(name) > 60:
        raise error(field_name, f"a name has at most 60 characters; {len(name)} given")
    players = Player.objects.filter(display_name__iexact=name)
    found = list((players.filter(club=club) if club else players).order_by("club", "pk")[:3])
    if len(found) > 1:
        clubs = ", ".join(f"{p} ({p.club or 'no club'})" for p in found)
        raise error(field_name, f"{name!r} is the name of more than one player: {clubs}; say which club")
    if found:
        return found[0]
    try:
        return scoring.create_player_unchecked(display_name=name, club=club)
    except Refusal as exc:
        raise error(field_name, exc.problems[0].message) from None


def _taken_names(event: Event) -> dict[str, str]:
    return {n.casefold(): n for n in Entry.objects.filter(event=event).values_list("player__display_name", flat=True)}


def _add(event: Event, player: Player, *, seed: int | None, rating: int | None, joined: int, field_name: str) -> Entry:
    if Entry.objects.filter(event=event, player=player).exists():
        raise error(field_name, f"{player} is already entered in {event.name}")
    if seed is not None:
        if type(seed) is not int or not 1 <= seed <= MAX_SEED:
            raise error("seed", f"a seed is a whole number from 1 to {MAX_SEED}; {seed!r} given")
        if event.status != Event.Status.REGISTRATION:
            raise error("seed", "seeds are set during registration")
        if Entry.objects.filter(event=event, seed=seed).exists():
            raise error("seed", f"seed {seed} is already taken in {event.name}")
    if rating is not None and (type(rating) is not int or not -MAX_STORED <= rating <= MAX_STORED):
        raise error("rating", f"a rating is a whole number of at most ten digits; {rating!r} given")
    if rating is None:
        rating = player.rating  # the club's rating of the player, when it keeps one
    try:
        with transaction.atomic():
            return Entry.objects.create(event=event, player=player, seed=seed, rating=rating, joined_round=joined)
    except IntegrityError:
        raise error(field_name, f"{player} is already entered in {event.name}") from None


@refusing
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
    event = lock_event_to_change(actor, event, "add entries")
    joined = _late_round(event)
    if player is None:
        if not (name or "").strip():
            raise error("player", "give a player, or a name for a new one")
        taken = _taken_names(event)
        if name.strip().casefold() in taken:
            raise error("name", f"{taken[name.strip().casefold()]} is already entered in {event.name}")
        player = _find_or_create_player(name, club, "name")
    entry = _add(event, player, seed=seed, rating=rating, joined=joined, field_name="player")
    bump(event)
    return entry


def enter_player(event: Event, player: Player) -> Entry:
    """Enter a player found or made elsewhere (a sign-up), under the event's lock the caller holds: an entry
    playing from round 1 (the caller bumps the event)."""
    return _add(event, player, seed=None, rating=None, joined=_late_round(event), field_name="player")


def _parse_lines(text: str) -> list[tuple[int, str, int | None]]:
    """(line number, name, rating) per non-blank line of a pasted list or ``name,rating`` CSV."""
    if len(text) > 400_000:
        raise error("text", "paste at most 400,000 characters")
    rows: list[tuple[int, str, int | None]] = []
    problems: list[Problem] = []
    lines = text.splitlines()
    if len(lines) > MAX_TEXT_LINES:
        raise error("text", f"paste at most {MAX_TEXT_LINES} lines; {len(lines)} given")
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
        raise Refusal(problems)
    if not rows:
        raise error("text", "no names given: one name per line, or name,rating")
    return rows


@refusing
@transaction.atomic
def add_entries_from_text(*, actor: Actor, event: Event, text: str, club: str = "",
                          new_alike: bool = False) -> list[Entry]:
    """Enter every player of a pasted list (one name per line) or CSV (``name,rating``, an optional
    header). All or nothing: any bad line refuses the whole paste, each problem naming its line.

    A name found as the player search finds it (case and accents aside: "Rosa Marquez" for "Rosa Márquez")
    but not as written is refused, naming the club's player, unless ``new_alike`` (the director asked for new
    players all the same): a near-duplicate is never made silently. Each entry of a player made now is marked
    ``player_is_new``, for the page to say who was added to the club."""
    event = lock_event_to_change(actor, event, "add entries")
    joined = _late_round(event)
    rows = _parse_lines(text or "")
    taken = _taken_names(event)
    seen: dict[str, int] = {}
    problems: list[Problem] = []
    known = {name.casefold() for name in Player.objects.values_list("display_name", flat=True)}
    alike = {folded(name): name for name in Player.objects.values_list("display_name", flat=True)}
    for number, name, _ in rows:
        key = name.casefold()
        if key in taken:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: {taken[key]} is already entered"))
        elif key in seen:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: {name} is already on line {seen[key]}"))
        else:
            seen[key] = number
            if not new_alike and key not in known and folded(name) in alike:
                problems.append(Problem(None, f"lines.{number}", f"line {number}: {name} is not in the club, but "
                                        f"{alike[folded(name)]} is: write the name as the club has it, or ask for "
                                        "new players all the same"))
    if problems:
        raise Refusal(problems)
    entries = []
    for number, name, rating in rows:
        is_new = name.strip().casefold() not in known
        player = _find_or_create_player(name, club, f"lines.{number}")
        entry = _add(event, player, seed=None, rating=rating, joined=joined, field_name=f"lines.{number}")
        entry.player_is_new = is_new
        entries.append(entry)
    bump(event)
    return entries


@refusing
@transaction.atomic
def seed_entries(
    *, actor: Actor, event: Event, method: str, order: Sequence[int] | None = None, rng: random.Random | None = None
) -> list[Entry]:
    """Set the seeds during registration, returned in seed order.

    ``manual``: ``order`` lists entry ids, seeds 1, 2, ... in that order (entries left out are
    unseeded); ``rating``: the highest rating first, then the unrated in the order they entered;
    ``openskill``: the same by the players' computed ratings (``mu - 3 sigma``, from the registered
    ``ratings_source``), players never rated last in the order they entered;
    ``random``: a shuffle (``rng`` for tests), stored in ``event.seeding`` with the method."""
    event = lock_event_to_change(actor, event, "seed entries")
    if event.status != Event.Status.REGISTRATION:
        raise error("method", "seeds are set during registration, before the first round")
    entries = list(Entry.objects.filter(event=event).order_by("id"))
    by_id = {e.pk: e for e in entries}
    if method == "manual":
        if not order:
            raise error("order", "list the entry ids in seed order")
        ids = list(order)
        problems = [Problem(None, f"order.{i}", f"{pk!r} is not an entry of {event.name}")
                    for i, pk in enumerate(ids) if pk not in by_id]
        if len(set(ids)) != len(ids):
            problems.append(Problem(None, "order", "an entry is listed twice"))
        if problems:
            raise Refusal(problems)
    elif method == "rating":
        if order:
            raise error("order", "only manual seeding takes an order")
        rated = sorted((e for e in entries if e.rating is not None), key=lambda e: (-e.rating, e.pk))
        ids = [e.pk for e in rated] + [e.pk for e in entries if e.rating is None]
    elif method == "openskill":
        if order:
            raise error("order", "only manual seeding takes an order")
        computed = ratings_source.computed_ratings(e.player_id for e in entries)
        if computed is None:
            raise error("method", "no ratings are computed here: seed by hand, by typed rating or at random")
        rated = sorted((e for e in entries if e.player_id in computed), key=lambda e: (-computed[e.player_id], e.pk))
        ids = [e.pk for e in rated] + [e.pk for e in entries if e.player_id not in computed]
    elif method == "random":
        if order:
            raise error("order", "only manual seeding takes an order")
        ids = [e.pk for e in entries]
        (rng or random.SystemRandom()).shuffle(ids)
    else:
        raise error("method", f"must be manual, rating, openskill or random; {method!r} given")
    Entry.objects.filter(event=event).update(seed=None)
    for seed, pk in enumerate(ids, start=1):
        by_id[pk].seed = seed
    for e in entries:
        if e.pk not in ids:
            e.seed = None
    Entry.objects.bulk_update(entries, ["seed"])
    event.seeding = {"method": method, "order": ids, "at": timezone.now().isoformat()}
    event.save(update_fields=["seeding"])
    bump(event)
    return [by_id[pk] for pk in ids]


@refusing
@transaction.atomic
def drop_entry(*, actor: Actor, entry: Entry, after_round: int | None = None, reason: str = "") -> Entry:
    """The entry plays no more after ``after_round`` (default: the last round it is paired in; 0 before
    round 1). It keeps its results and its place in the standings, marked dropped. In a bracket it
    forfeits every match it has not played. A match it still owes in that round needs a result (a
    forfeit) for the round to close."""
    event = lock_event_to_change(actor, entry.event, "drop entries")
    entry = Entry.objects.select_for_update().get(pk=entry.pk, event=event)
    mark_dropped(event, entry, after_round=after_round, reason=reason)
    bump(event)
    return entry


def mark_dropped(event: Event, entry: Entry, *, after_round: int | None = None, reason: str = "") -> Entry:
    """Mark a locked entry dropped after ``after_round`` (the caller holds the event's lock and bumps it)."""
    if entry.dropped_after_round is not None:
        when = ("withdrew before round 1" if entry.dropped_after_round == 0
                else f"dropped after round {entry.dropped_after_round}")
        raise error("entry", f"{entry.player} already {when}")
    reason = reason_text(reason, required=False)
    last_paired = (MatchPlayer.objects.filter(entry=entry, round__isnull=False, match__reset_at__isnull=True)
                   .order_by("-round__number").values_list("round__number", flat=True).first() or 0)
    if after_round is None:
        after_round = last_paired
    # The engine's own limit on a drop's round (the event document's ``dropped``): a drop it would
    # refuse must never be stored.
    if type(after_round) is not int or not 0 <= after_round <= MAX_DROP_ROUND:
        raise error("after_round", f"the last round played is a whole number from 0 to {MAX_DROP_ROUND}; "
                                    f"{after_round!r} given")
    if not event.is_elimination and after_round < last_paired:
        raise error("after_round", f"{entry.player} is paired in round {last_paired}: drop after round "
                                    f"{last_paired} or later (record a forfeit for a match not played)")
    entry.dropped_after_round = after_round
    entry.drop_reason = reason
    entry.save(update_fields=["dropped_after_round", "drop_reason"])
    return entry



@refusing
@transaction.atomic
def undo_drop(*, actor: Actor, entry: Entry) -> Entry:
    """A drop made by mistake, undone: the entry is in again, as if never dropped, while no round after the
    last it played has been paired (once one has, it missed that round: enter it again as a late entry)."""
    event = lock_event_to_change(actor, entry.event, "undo drops")
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk, event=event)
    if entry.dropped_after_round is None:
        raise error("entry", f"{entry.player} has not dropped")
    if event.is_elimination:  # a bracket forfeits a dropped entry's matches: only before it starts
        paired = MatchPlayer.objects.filter(match__event=event).exists()
    else:
        paired = Round.objects.filter(event=event, number__gt=entry.dropped_after_round).exists()
    if paired:
        raise error("entry", f"a round after {entry.player}'s drop is already paired: it cannot be undone")
    entry.dropped_after_round, entry.drop_reason = None, ""
    entry.save(update_fields=["dropped_after_round", "drop_reason"])
    bump(event)
    return entry


@refusing
@transaction.atomic
def remove_entry(*, actor: Actor, entry: Entry) -> None:
    """An entry made by mistake, removed before round 1 (after it, an entry leaves by dropping: its results
    stay). A sign-up behind it is marked withdrawn."""
    event = lock_event_to_change(actor, entry.event, "remove entries")
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk, event=event)
    if event.status != Event.Status.REGISTRATION or MatchPlayer.objects.filter(entry=entry).exists():
        raise error("entry", f"{event.name} has started: drop {entry.player} instead (the results stay)")
    Registration.objects.filter(entry=entry).update(status=Registration.Status.WITHDRAWN, entry=None,
                                                    changed_at=timezone.now())
    entry.delete()
    bump(event)
