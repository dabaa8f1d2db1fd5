"""The event document of EVENTS.md read into typed, validated records.

``read_event(request)`` takes the decoded JSON request and returns an :class:`Event`, or raises
:class:`EventError` naming every problem it found (result index, field, message). It is the only
place that knows the request's field names; pairing, brackets and standings work on the records.
Whatever JSON it is given (wrong types at any level, a list where an object belongs), it answers
with an ``EventError``, never another exception.

What it cannot check alone is left to the bracket: whether an elimination result's match exists,
is ready and names one of its players depends on the other results (see ``bracket.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .asks import read_avoid, read_requested_byes
from .errors import EventError, Problem
from .reading import EntryNames as _EntryNames
from .reading import Reader, describe, json_type
from .records import (
    DEFAULT_TIEBREAKS,
    MATCH_POINT_KEYS,
    MAX_ENTRIES,
    MAX_MARGIN,
    MAX_MATCH_POINTS,
    MAX_NAME_LENGTH,
    MAX_SWISS_ROUNDS,
    TIEBREAK_KEYS,
    TOP_LEVEL_FIELDS,
    BracketResult,
    Entry,
    Event,
    Format,
    GrandFinal,
    MatchPoints,
    Played,
    RecordedBye,
    default_swiss_rounds,
    round_robin_rounds,
)
from .schedule import CircleSchedule


def read_event(request: object) -> Event:
    """The whole request, validated; raises EventError with every problem found."""
    problems: list[Problem] = []
    top = Reader(request, problems, result=None, prefix="", what="the request")
    if not top.ok:
        raise EventError(problems)
    top.reject_unknown(TOP_LEVEL_FIELDS)
    raw_format = top.data.get("format")
    if raw_format is None:
        top.problem("format", f"is required: one of {', '.join(f.value for f in Format)}")
        raise EventError(problems)
    if raw_format not in tuple(f.value for f in Format):
        top.problem("format", f"must be one of {', '.join(f.value for f in Format)}; {describe(raw_format)} given")
        raise EventError(problems)
    fmt = Format(raw_format)
    elimination = fmt.is_elimination

    entries = _read_entries(top, fmt)
    n = len(entries) if entries is not None else 0

    rounds: int | None = None
    if elimination:
        if top.data.get("rounds") is not None:
            top.problem("rounds", "an elimination event has no fixed number of rounds; leave rounds out")
    elif fmt is Format.SWISS:
        rounds = top.integer("rounds", low=1, high=MAX_SWISS_ROUNDS, default=default_swiss_rounds(max(n, 2)))
    else:
        scheduled = round_robin_rounds(max(n, 2))
        given = top.integer("rounds", low=1, high=MAX_ENTRIES)
        if given is not None and entries is not None and given != scheduled:
            top.problem("rounds", f"a round robin of {n} entries plays {scheduled} rounds; {given} given")
        rounds = scheduled

    match_points = _read_match_points(top)
    bye_margin = top.integer("bye_margin", low=0, high=MAX_MARGIN, default=0)
    forfeit_margin = top.integer("forfeit_margin", low=0, high=MAX_MARGIN, default=0)
    tiebreaks = _read_tiebreaks(top, fmt)

    third_place = False
    if "third_place" in top.data:
        if fmt is Format.SINGLE_ELIMINATION:
            third_place = top.boolean("third_place", default=False)
        else:
            top.problem("third_place", "only a single elimination event has a third-place match")
    grand_final = GrandFinal.RESET
    if "grand_final" in top.data:
        raw = top.data.get("grand_final")
        if fmt is not Format.DOUBLE_ELIMINATION:
            top.problem("grand_final", "only a double elimination event has a grand final")
        elif raw not in ("reset", "single"):
            top.problem("grand_final", f"must be \"reset\" or \"single\"; {describe(raw)} given")
        else:
            grand_final = GrandFinal(raw)

    as_of_round: int | None = None
    if top.data.get("as_of_round") is not None:
        if elimination:
            top.problem("as_of_round", "an elimination event has no rounds to look back to; leave as_of_round out")
        elif rounds is not None:
            as_of_round = top.integer("as_of_round", low=0, high=rounds)

    names = _EntryNames(entries) if entries is not None else None
    dropped = _read_dropped(top, names)

    if entries is not None and fmt is Format.SWISS and rounds is not None:
        for e in entries:
            if e.joined > rounds:
                top.problem(f"entries.{e.position}.joined",
                            f"{e.name} cannot join in round {e.joined}: the event has {rounds} rounds")

    played: list[Played] = []
    byes: list[RecordedBye] = []
    bracket_results: list[BracketResult] = []
    raw_results = top.data.get("results", [])
    if raw_results is None:
        raw_results = []
    if not isinstance(raw_results, list):
        top.problem("results", f"must be a list of results, not {json_type(raw_results)}")
        raw_results = []
    for number, raw in enumerate(raw_results, start=1):
        if elimination:
            found = _read_bracket_result(raw, number, problems, names)
            if found is not None:
                bracket_results.append(found)
        else:
            found = _read_round_result(raw, number, problems, names, rounds=rounds if entries is not None else None)
            if isinstance(found, Played):
                played.append(found)
            elif isinstance(found, RecordedBye):
                byes.append(found)

    if entries is not None and not elimination:
        _check_rounds_of_entries(entries, played, byes, dropped, problems)
        if fmt is Format.ROUND_ROBIN:
            _check_schedule(entries, played, byes, dropped, problems)
    requested_byes = read_requested_byes(top, fmt, names, rounds=rounds, entries=entries, dropped=dropped,
                                         played=played, byes=byes)
    avoid = read_avoid(top, fmt, names, rounds=rounds)
    if problems or entries is None:
        raise EventError(sorted(problems, key=lambda p: -1 if p.result is None else p.result))

    assert match_points is not None
    assert bye_margin is not None
    assert forfeit_margin is not None
    _check_forfeit_margins(played, bracket_results, forfeit_margin, problems)
    if problems:
        raise EventError(sorted(problems, key=lambda p: -1 if p.result is None else p.result))
    played = [replace(p, margin=forfeit_margin) if p.forfeit else p for p in played]
    bracket_results = [replace(b, margin=forfeit_margin) if b.forfeit else b for b in bracket_results]
    return Event(
        format=fmt,
        entries=entries,
        rounds=rounds,
        match_points=match_points,
        bye_margin=bye_margin,
        forfeit_margin=forfeit_margin,
        tiebreaks=tiebreaks,
        played=tuple(played),
        byes=tuple(byes),
        bracket_results=tuple(bracket_results),
        dropped=dropped,
        as_of_round=as_of_round,
        third_place=third_place,
        grand_final=grand_final,
        requested_byes=requested_byes,
        avoid=avoid,
    )


def _read_entries(top: Reader, fmt: Format) -> tuple[Entry, ...] | None:
    raw = top.data.get("entries")
    if raw is None:
        top.problem("entries", "is required: a list of entries, like [{\"name\": \"Ann\"}, {\"name\": \"Bob\"}]")
        return None
    if not isinstance(raw, list):
        top.problem("entries", f"must be a list of entries, not {json_type(raw)}")
        return None
    if len(raw) < 2:
        top.problem("entries", f"an event needs at least 2 entries; {len(raw)} given")
        return None
    if len(raw) > MAX_ENTRIES:
        top.problem("entries", f"an event can have at most {MAX_ENTRIES} entries; {len(raw)} given")
        return None
    before = len(top.problems)
    allowed = ("name", "seed", "joined") if fmt is Format.SWISS else ("name", "seed")
    read: list[tuple[int, str, int | None, int]] = []
    first_with_name: dict[str, int] = {}
    first_with_seed: dict[int, int] = {}
    for i, item in enumerate(raw):
        r = Reader(item, top.problems, result=None, prefix=f"entries.{i}.", what="an entry")
        if not r.ok:
            continue
        for key in r.data:
            if key == "joined" and fmt is not Format.SWISS:
                r.problem("joined", "only a Swiss event takes late entries; leave joined out")
            elif key not in allowed:
                r.problem(str(key), f"unknown field {key!r} (expected one of {', '.join(allowed)})")
        name = r.data.get("name")
        if not isinstance(name, str) or not name.strip():
            r.problem("name", f"must be a non-empty name, not {describe(name)}")
            name = None
        elif len(name) > MAX_NAME_LENGTH:
            r.problem("name", f"must be at most {MAX_NAME_LENGTH} characters; {len(name)} given")
            name = None
        elif name in first_with_name:
            r.problem("name", f"{name!r} is already the name of entries.{first_with_name[name]}; names must differ")
            name = None
        else:
            first_with_name[name] = i
        seed = r.integer("seed", low=1, high=10**9)
        if seed is not None:
            if seed in first_with_seed:
                r.problem("seed", f"seed {seed} is already given to entries.{first_with_seed[seed]}; seeds must differ")
            else:
                first_with_seed[seed] = i
        joined = r.integer("joined", low=1, high=MAX_SWISS_ROUNDS, default=1) if fmt is Format.SWISS else 1
        if name is not None:
            read.append((i, name, seed, joined if joined is not None else 1))
    if len(top.problems) > before:
        return None
    seeded = sorted((item for item in read if item[2] is not None), key=lambda item: item[2])
    unseeded = [item for item in read if item[2] is None]
    return tuple(
        Entry(index=k, name=name, seed=seed, joined=joined, position=i)
        for k, (i, name, seed, joined) in enumerate(seeded + unseeded)
    )


def _read_match_points(top: Reader) -> MatchPoints | None:
    raw = top.data.get("match_points")
    if raw is None:
        return MatchPoints()
    r = Reader(raw, top.problems, result=None, prefix="match_points.", what="match_points")
    if not r.ok:
        return MatchPoints()
    r.reject_unknown(MATCH_POINT_KEYS)
    defaults = MatchPoints()
    values = {k: r.integer(k, low=0, high=MAX_MATCH_POINTS, default=getattr(defaults, k)) for k in MATCH_POINT_KEYS}
    return MatchPoints(**values)


def _read_tiebreaks(top: Reader, fmt: Format) -> tuple[str, ...]:
    raw = top.data.get("tiebreaks")
    if raw is None:
        return DEFAULT_TIEBREAKS[fmt]
    if not isinstance(raw, list):
        top.problem("tiebreaks", f"must be a list of keys ({', '.join(TIEBREAK_KEYS)}), not {json_type(raw)}")
        return DEFAULT_TIEBREAKS[fmt]
    keys: list[str] = []
    for i, key in enumerate(raw):
        if key not in TIEBREAK_KEYS:
            top.problem(f"tiebreaks.{i}", f"{describe(key)} is not a tiebreak key ({', '.join(TIEBREAK_KEYS)})")
        elif key in keys:
            top.problem("tiebreaks", f"{key!r} is given twice")
        else:
            keys.append(key)
    return tuple(keys)


def _read_dropped(top: Reader, names: _EntryNames | None) -> dict[int, int]:
    raw = top.data.get("dropped")
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        top.problem("dropped", f"must be an object like {{\"Dev\": 2}} (name: last round played), not {json_type(raw)}")
        return {}
    dropped: dict[int, int] = {}
    r = Reader(raw, top.problems, result=None, prefix="dropped.", what="dropped")
    for name in raw:
        last = r.integer(name, low=0, high=MAX_ENTRIES)
        index = names.index.get(name) if names is not None else None
        if names is not None and index is None:
            r.problem(str(name), f"{describe(name)} is not an entry of this event")
        elif index is not None and last is not None:
            dropped[index] = last
    return dropped


ROUND_RESULT_FIELDS = ("round", "players", "winner", "margin", "forfeit", "bye")
BRACKET_RESULT_FIELDS = ("match", "winner", "margin", "forfeit")


def _read_round_result(
    raw: object, number: int, problems: list[Problem], names: _EntryNames | None, *, rounds: int | None
) -> Played | RecordedBye | None:
    r = Reader(raw, problems, result=number, prefix="", what="a result")
    if not r.ok:
        return None
    before = len(problems)
    r.reject_unknown(ROUND_RESULT_FIELDS)
    round_no = _read_round_number(r, rounds)
    if "bye" in r.data:
        for name in ("players", "winner", "margin", "forfeit"):
            if name in r.data:
                r.problem(name, "a bye has no opponent, winner, margin or forfeit; leave it out")
        entry = names.find(r, "bye", r.data.get("bye")) if names else None
        if len(problems) > before or round_no is None or entry is None:
            return None
        return RecordedBye(number, round_no, entry)

    players = r.data.get("players")
    pair: list[int | None] = [None, None]
    if not isinstance(players, list) or len(players) != 2:
        got = f"{len(players)} names" if isinstance(players, list) else describe(players)
        r.problem("players", f"is required: the two players' names, like [\"Ann\", \"Bob\"] (or \"bye\": name); "
                  f"{got} given" if players is not None else
                  "is required: the two players' names, like [\"Ann\", \"Bob\"] (or \"bye\": name)")
    elif names is not None:
        pair = [names.find(r, f"players.{i}", raw_name) for i, raw_name in enumerate(players)]
        if pair[0] is not None and pair[0] == pair[1]:
            r.problem("players", f"{players[0]} cannot play against themselves")
    if "winner" not in r.data:
        r.problem("winner", "is required: the winner's name, or null for a draw")
    raw_winner = r.data.get("winner")
    winner: int | None = None
    if raw_winner is not None:
        if not isinstance(raw_winner, str):
            r.problem("winner", f"must be one of the players' names or null for a draw, not {describe(raw_winner)}")
        elif isinstance(players, list) and raw_winner not in [p for p in players if isinstance(p, str)]:
            r.problem("winner", f"{raw_winner} did not play in this match ({_pair_text(players)})")
        elif names is not None:
            winner = names.index.get(raw_winner)
    margin = r.integer("margin", low=0, high=MAX_MARGIN, default=0)
    forfeit = r.boolean("forfeit", default=False)
    if raw_winner is None and "winner" in r.data:
        if forfeit:
            r.problem("forfeit", "a forfeit needs a winner")
        if margin:
            r.problem("margin", f"a draw has no margin; {margin} given")
    if len(problems) > before or round_no is None or pair[0] is None or pair[1] is None:
        return None
    assert margin is not None
    return Played(number, round_no, (pair[0], pair[1]), winner, margin, forfeit)


def _read_round_number(r: Reader, rounds: int | None) -> int | None:
    raw = r.data.get("round")
    if raw is None:
        r.problem("round", "is required: the round number")
        return None
    if type(raw) is not int:
        r.problem("round", f"must be a round number, not {describe(raw)}")
        return None
    if raw < 1:
        r.problem("round", f"rounds are numbered from 1; {raw} given")
        return None
    if rounds is not None and raw > rounds:
        r.problem("round", f"the event has {rounds} rounds; round {raw} is beyond the last")
        return None
    return raw


def _pair_text(players: list[Any]) -> str:
    return " v ".join(p if isinstance(p, str) else describe(p) for p in players)


def _read_bracket_result(
    raw: object, number: int, problems: list[Problem], names: _EntryNames | None
) -> BracketResult | None:
    r = Reader(raw, problems, result=number, prefix="", what="a result")
    if not r.ok:
        return None
    before = len(problems)
    for key in r.data:
        if key in ("round", "players", "bye"):
            r.problem(str(key), "an elimination result names its match: {\"match\": \"W1-1\", \"winner\": name}")
        elif key not in BRACKET_RESULT_FIELDS:
            r.problem(str(key), f"unknown field {key!r} (expected one of {', '.join(BRACKET_RESULT_FIELDS)})")
    match = r.data.get("match")
    if match is None:
        r.problem("match", "is required: the bracket match id, like \"W1-1\"")
    elif not isinstance(match, str):
        r.problem("match", f"must be a match id like \"W1-1\", not {describe(match)}")
    raw_winner = r.data.get("winner")
    winner: int | None = None
    if raw_winner is None:
        r.problem("winner", "is required: an elimination match cannot be drawn")
    elif names is not None:
        winner = names.find(r, "winner", raw_winner)
    margin = r.integer("margin", low=0, high=MAX_MARGIN, default=0)
    forfeit = r.boolean("forfeit", default=False)
    if len(problems) > before or winner is None or not isinstance(match, str) or margin is None:
        return None
    return BracketResult(number, match, winner, str(raw_winner), margin, forfeit)


def _check_rounds_of_entries(
    entries: tuple[Entry, ...],
    played: list[Played],
    byes: list[RecordedBye],
    dropped: Mapping[int, int],
    problems: list[Problem],
) -> None:
    """Each entry at most once per round, never after it dropped, never before it joined."""
    seen: dict[tuple[int, int], int] = {}

    def check(number: int, round_no: int, entry: int, field: str) -> None:
        e = entries[entry]
        earlier = seen.get((round_no, entry))
        if earlier is not None:
            problems.append(Problem(number, field, f"{e.name} already has a result in round {round_no} "
                                                   f"(result {earlier})"))
        else:
            seen[(round_no, entry)] = number
        last = dropped.get(entry)
        if last is not None and round_no > last:
            problems.append(Problem(number, field, f"{e.name} dropped after round {last} and cannot have a "
                                                   f"result in round {round_no}"))
        if round_no < e.joined:
            problems.append(Problem(number, field, f"{e.name} joined in round {e.joined} and cannot have a "
                                                   f"result in round {round_no}"))

    results = sorted([(p.number, p) for p in played] + [(b.number, b) for b in byes], key=lambda item: item[0])
    for _, result in results:
        if isinstance(result, Played):
            for i, entry in enumerate(result.players):
                check(result.number, result.round, entry, f"players.{i}")
        else:
            check(result.number, result.round, result.entry, "bye")


def _check_forfeit_margins(
    played: list[Played], bracket_results: list[BracketResult], forfeit_margin: int, problems: list[Problem]
) -> None:
    """A forfeit's margin is the event's ``forfeit_margin``: a different one given beside it is a mistake."""
    for result in [*played, *bracket_results]:
        if result.forfeit and result.margin not in (0, forfeit_margin):
            problems.append(Problem(result.number, "margin", f"a forfeit's margin is the event's forfeit_margin "
                                                             f"({forfeit_margin}); leave margin out"))


def _check_schedule(
    entries: tuple[Entry, ...],
    played: list[Played],
    byes: list[RecordedBye],
    dropped: Mapping[int, int],
    problems: list[Problem],
) -> None:
    """Every round robin result must be a pairing of its round's schedule, every recorded bye a sitter."""
    schedule = CircleSchedule(len(entries))
    names = [e.name for e in entries]
    for p in played:
        a, b = p.players
        if schedule.opponent(a, p.round) != b:
            expected = schedule.opponent(a, p.round)
            meets = f"{names[a]} meets {names[expected]}" if expected is not None else f"{names[a]} sits out"
            problems.append(Problem(p.number, "players", f"{names[a]} and {names[b]} are not paired in round "
                                                         f"{p.round} of the schedule ({meets})"))
    for bye in byes:
        opponent = schedule.opponent(bye.entry, bye.round)
        gone = opponent is not None and opponent in dropped and dropped[opponent] < bye.round
        if opponent is not None and not gone:
            problems.append(Problem(bye.number, "bye", f"{names[bye.entry]} does not sit out round {bye.round}: "
                                                       f"the schedule pairs them with {names[opponent]}"))
