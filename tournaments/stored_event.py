"""What the stored matches decide, and the event contract's request built from them.

A match's result comes from its games' settlement (a game counts once it is complete with every hand
confirmed; best of 3: once one side has won two, the margin being the net over the games played), or
from a director's latest forfeit or adjusted result. ``build_document`` turns the stored event into
the EVENTS.md request; ``compute_answer`` runs the engine on it once and says what went stale: rounds
paired from results that have since changed, bracket matches opened for players the bracket no longer
puts there (their results are left out of the answer until a director sorts them out);
``answered_document`` is the request that answer was computed from (the event's export).

Everything here works on plain values already loaded (``load_state``: six queries of values, whatever
the event's size; ``match_data`` for a match loaded as a model); it never writes and never pairs:
pairings, brackets and standings come from ``tournaments.engine``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery, prefetch_related_objects
from django.db.models.fields.json import KeyTextTransform, KeyTransform

from scoring.models import RefereeLink, settled_result_of
from tournaments.engine import EventError, run_event
from tournaments.models import Entry, Event, Match, MatchGame, MatchPlayer, MatchResult, ResultChange, Round
from tournaments.stored_asks import asks_document, load_asks

MAX_LABEL = 60


@dataclass(frozen=True, slots=True)
class Outcome:
    """A match's result as it stands. ``winner`` is an entry id (None with ``decided``: a draw)."""

    decided: bool
    winner: int | None = None
    margin: int | None = None
    forfeit: bool = False
    source: str = ""  # games | forfeit | adjusted | bye | "" (undecided)
    games_won: tuple[int, int] = (0, 0)
    started: bool = False  # a hand has been recorded in one of its games


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a match needs of one of its games: whether it has begun, and its settled winner's side."""

    number: int
    started: bool
    side: int | None  # 0 or 1 once settled (``Game.settled_result``), else None
    margin: int
    drawn: bool = False  # settled level at time (``scoring.engine.time_limit``): no side won it


@dataclass(frozen=True, slots=True)
class DirectorResult:
    kind: str
    winner_id: int | None
    margin: int | None


@dataclass(frozen=True, slots=True)
class MatchData:
    """A stored match as its result needs it: plain values, built from model rows or loaded directly."""

    pk: int
    round_id: int | None
    round_number: int | None
    bracket_id: str
    table: int | None
    is_bye: bool
    reset: bool
    sides: tuple[int, ...]  # entry ids, side 0 first (one for a bye)
    games: tuple[GameResult, ...]  # by number
    director: DirectorResult | None  # the latest director's result


def _game_result(number: int, hand_count: int, status: str, summary: dict | None, names: list[str]) -> GameResult:
    settled = settled_result_of(status, summary)
    side = names.index(settled[0]) if settled is not None and settled[0] in names else None
    # Complete with no winner: only a game stopped at time with the sides level ends so.
    drawn = (status == "complete" and bool(summary.get("complete")) and not summary.get("pending_hands")
             and summary.get("winner") is None)
    return GameResult(number, bool(hand_count), side, settled[1] if side is not None else 0, drawn)


def match_data(match: Match) -> MatchData:
    """A match loaded with ``with_match_details`` (its sides, games and results prefetched), as plain data."""
    results = list(match.results.all())
    last = results[-1] if results else None
    return MatchData(
        pk=match.pk, round_id=match.round_id, round_number=match.round.number if match.round_id else None,
        bracket_id=match.bracket_id, table=match.table, is_bye=match.is_bye, reset=match.reset_at is not None,
        sides=tuple(sides(match)),
        games=tuple(_game_result(mg.number, mg.game.hand_count, mg.game.status, mg.game.summary, mg.game.player_names)
                    for mg in sorted(match.match_games.all(), key=lambda mg: mg.number)),
        director=DirectorResult(last.kind, last.winner_id, last.margin) if last is not None else None,
    )


@dataclass
class EventState:
    """An event's entries, rounds and matches with everything the results need, loaded once."""

    event: Event
    entries: list[Entry]
    rounds: list[Round]
    matches: list[MatchData]  # live and reset
    labels: dict[int, str] = field(default_factory=dict)
    requested_byes: list[tuple[int, int]] = field(default_factory=list)  # (entry id, round)
    avoid: list[tuple[int, int, str]] = field(default_factory=list)  # (entry id, entry id, strength)

    def __post_init__(self) -> None:
        self.labels = entry_labels(self.entries)
        self.by_label = {label: pk for pk, label in self.labels.items()}
        self._outcomes: dict[int, Outcome] = {}

    @property
    def live_matches(self) -> list[MatchData]:
        return [m for m in self.matches if not m.reset]

    def outcome(self, m: MatchData) -> Outcome:
        """``match_outcome`` of ``m``, worked out once per state."""
        if m.pk not in self._outcomes:
            self._outcomes[m.pk] = match_outcome(self.event, m)
        return self._outcomes[m.pk]


def with_match_details(matches: QuerySet[Match], *, links: bool = False) -> QuerySet[Match]:
    """Matches with what their rows need: round, sides, games (with referee links when asked) and
    directors' results. Four queries however many matches, five with links."""
    return matches.select_related("round").prefetch_related(*_details(links)).order_by("id")


def load_match_details(matches: list[Match], *, links: bool = False) -> list[Match]:
    """``with_match_details`` for matches already in hand, reading only what they do not hold yet: the
    service that has just opened them gives their sides, games and links as it made them (a round of
    500 tables published: its answer read back was a third of the request, issue 35). A match's
    related objects, once held, are trusted as the database's: the holder made or read them in the
    same transaction."""
    prefetch_related_objects(matches, "round", *_details(links))
    return matches


def _details(links: bool) -> list[Prefetch]:
    match_games = MatchGame.objects.select_related("game").defer("game__conventions").order_by("number")
    if links:
        match_games = match_games.prefetch_related(
            Prefetch("game__referee_links", queryset=RefereeLink.objects.order_by("id"))
        )
    return [
        Prefetch("players", queryset=MatchPlayer.objects.order_by("side")),
        Prefetch("match_games", queryset=match_games),
        Prefetch("results", queryset=MatchResult.objects.select_related("entered_by").order_by("entered_at", "id")),
    ]


def _count(text: object) -> int:
    """A summary number read as text by the database (SQLite says a JSON null as 'null')."""
    return 0 if text in (None, "", "null") else int(text)


def load_state(event: Event) -> EventState:
    """Entries, rounds and every match's sides, games and latest director's result: six queries of plain
    values (no model instance per match or game), so a 1,000-entry event loads in a fraction of a second."""
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("id"))
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    sides_of: dict[int, list[tuple[int, int]]] = {}
    for match_id, entry_id, side in MatchPlayer.objects.filter(match__event=event).values_list(
            "match_id", "entry_id", "side"):
        sides_of.setdefault(match_id, []).append((side, entry_id))
    games_of: dict[int, list[GameResult]] = {}
    # The few summary keys a result needs, read by the database: no game's whole JSON is decoded here. The
    # winner is read as a JSON value, not as text: SQLite gives a JSON null as the text 'null' (a level game
    # at time has no winner), which a player could also be named.
    for match_id, number, hand_count, status, complete, pending, margin, winner, first, second in (
            MatchGame.objects.filter(match__event=event)
            .values_list("match_id", "number", "game__hand_count", "game__status",
                         *(KeyTextTransform(key, "game__summary") for key in ("complete", "pending_hands", "margin")),
                         KeyTransform("winner", "game__summary"),
                         KeyTextTransform("0", "game__player_names"), KeyTextTransform("1", "game__player_names"))):
        summary = {"complete": complete in (True, 1, "1", "true"), "pending_hands": _count(pending),
                   "winner": winner, "margin": _count(margin)}
        games_of.setdefault(match_id, []).append(_game_result(number, hand_count, status, summary, [first, second]))
    director: dict[int, DirectorResult] = {}
    for match_id, kind, winner_id, margin in (MatchResult.objects.filter(match__event=event)
                                              .order_by("entered_at", "id")
                                              .values_list("match_id", "kind", "winner_id", "margin")):
        director[match_id] = DirectorResult(kind, winner_id, margin)  # the latest counts
    matches = [
        MatchData(pk=pk, round_id=round_id, round_number=number, bracket_id=bracket_id, table=table, is_bye=is_bye,
                  reset=reset_at is not None, sides=tuple(e for _, e in sorted(sides_of.get(pk, []))),
                  games=tuple(sorted(games_of.get(pk, []), key=lambda g: g.number)), director=director.get(pk))
        for pk, round_id, number, bracket_id, table, is_bye, reset_at in (
            Match.objects.filter(event=event).order_by("id")
            .values_list("id", "round_id", "round__number", "bracket_id", "table", "is_bye", "reset_at"))
    ]
    requested, avoid = load_asks(event)
    return EventState(event, entries, rounds, matches, requested_byes=requested, avoid=avoid)


def results_fingerprint(event: Event) -> str:
    """A cheap key that changes whenever anything the answer depends on changes (one query).

    Every tournaments write bumps ``event.revision`` under the event's lock; every change of a game's
    settled result adds a ``ResultChange`` row in the hand write's own transaction. Both only grow, so
    equal keys mean the same results, whatever order concurrent transactions commit in.
    """
    row = Event.objects.filter(pk=event.pk).values_list("revision", latest_result_change()).first()
    return fingerprint(*row) if row is not None else fingerprint(0, None)


def latest_result_change(event_ref: str = "pk") -> Subquery:
    """The id of the event's latest ``ResultChange``, as a subquery of a query whose ``event_ref`` field
    is the event's id: what the fingerprint is read with, alongside the event's revision."""
    return Subquery(ResultChange.objects.filter(event_id=OuterRef(event_ref)).order_by("-id").values("id")[:1])


def fingerprint(revision: int, last_change: int | None) -> str:
    """The results fingerprint of an event's revision and its latest result change."""
    return f"{revision}.{last_change or 0}"


def fingerprint_parts(key: str) -> tuple[int, int]:
    """(revision, latest result change id, 0 for none) of a ``fingerprint``."""
    revision, _, last_change = key.partition(".")
    return int(revision), int(last_change or 0)


def entry_labels(entries: Iterable[Entry]) -> dict[int, str]:
    """Each entry's name in the event document: its player's name, told apart by club (or player
    number) when two players of the event share a name. At most 60 characters."""
    return labels_of((e.pk, e.player_id, e.player.display_name, e.player.club) for e in entries)


def entry_labels_of(event: Event) -> dict[int, str]:
    """``entry_labels`` of every entry of the event, read as plain values (one query, no models)."""
    return labels_of(Entry.objects.filter(event=event).order_by("id").values_list(
        "pk", "player_id", "player__display_name", "player__club"))


def labels_of(rows: Iterable[tuple[int, int, str, str]]) -> dict[int, str]:
    """(entry id, player id, name, club) rows: see ``entry_labels``."""
    rows = list(rows)
    counts: dict[str, int] = {}
    for _, _, name, _ in rows:
        counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    labels: dict[int, str] = {}
    for pk, player_id, name, club in rows:
        if counts[name.casefold()] > 1:
            tag = f" ({club})" if club else f" (#{player_id})"
            name = name[: MAX_LABEL - len(tag)] + tag
        labels[pk] = name[:MAX_LABEL]
    # Still alike (a player named "Ann (Riverside)", a club name cut short): the player number decides.
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label.casefold()] = seen.get(label.casefold(), 0) + 1
    for pk, player_id, name, _ in rows:
        if seen[labels[pk].casefold()] > 1:
            tag = f" (#{player_id})"
            labels[pk] = name[: MAX_LABEL - len(tag)] + tag
    return labels


def sides(match: Match) -> list[int]:
    """The entry ids of the match's players, side 0 first (one for a bye)."""
    return [p.entry_id for p in sorted(match.players.all(), key=lambda p: p.side)]


def match_outcome(event: Event, match: MatchData) -> Outcome:
    """The match's result as it stands now (see the module docstring)."""
    players = match.sides
    if match.is_bye:
        return Outcome(decided=True, winner=players[0] if players else None, source="bye")
    started = any(g.started for g in match.games)
    wins = [0, 0]
    net = [0, 0]
    decided_side: int | None = None
    at_time_level = False
    needed = 2 if event.match_format == Event.MatchFormat.BEST_OF_3 else 1
    for game in match.games:
        if game.drawn:  # a game settled level at time ends the match where it stands
            at_time_level = True
            break
        if game.side is None:
            break
        wins[game.side] += 1
        net[game.side] += game.margin
        net[1 - game.side] -= game.margin
        if wins[game.side] >= needed:
            decided_side = game.side
            break
    director = match.director
    if director is not None and director.kind != MatchResult.Kind.CLEARED:
        forfeit = director.kind == MatchResult.Kind.FORFEIT
        margin = event.forfeit_margin if forfeit else director.margin
        return Outcome(True, director.winner_id, margin, forfeit, director.kind, (wins[0], wins[1]), started)
    if decided_side is None and at_time_level and len(players) == 2:
        if wins[0] == wins[1]:
            return Outcome(True, None, 0, False, "games", (wins[0], wins[1]), started)  # a draw at time
        decided_side = 0 if wins[0] > wins[1] else 1
    if decided_side is None or len(players) < 2:
        return Outcome(False, games_won=(wins[0], wins[1]), started=started)
    return Outcome(True, players[decided_side], net[decided_side], False, "games", (wins[0], wins[1]), started)


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def round_results(state: EventState, before_round: int) -> dict[str, list[int | None]]:
    """{match id: [winner entry id, margin]} for the decided matches of rounds before ``before_round``."""
    out: dict[str, list[int | None]] = {}
    for m in state.live_matches:
        if m.round_id is not None and m.round_number < before_round:
            o = state.outcome(m)
            if o.decided:
                out[str(m.pk)] = [o.winner, o.margin]
    return out


def results_key(results: dict[str, list[int | None]]) -> str:
    return _digest(results)


@dataclass
class Built:
    document: dict[str, Any]
    counted: list[MatchData]  # the match behind each result, in document order


def build_document(state: EventState, *, as_of_round: int | None = None,
                   leave_out: frozenset[int] = frozenset()) -> Built:
    """The EVENTS.md request for the stored event (matches in ``leave_out`` contribute no result)."""
    event = state.event
    labels = state.labels
    ordered = sorted(state.entries, key=lambda e: (e.seed is None, e.seed or 0, e.pk))
    entries = []
    for e in ordered:
        item: dict[str, Any] = {"name": labels[e.pk]}
        if e.seed is not None:
            item["seed"] = e.seed
        if event.format == Event.Format.SWISS and e.joined_round > 1:
            item["joined"] = e.joined_round
        entries.append(item)
    doc: dict[str, Any] = {
        "format": event.format,
        "entries": entries,
        "match_points": dict(event.match_points),
        "tiebreaks": list(event.tiebreaks),
        "bye_margin": event.bye_margin,
        "forfeit_margin": event.forfeit_margin,
    }
    if event.format == Event.Format.SWISS and event.rounds:
        doc["rounds"] = event.rounds
    if event.format == Event.Format.SINGLE_ELIMINATION:
        doc["third_place"] = event.third_place
    if event.format == Event.Format.DOUBLE_ELIMINATION:
        doc["grand_final"] = event.grand_final
    if as_of_round is not None:
        doc["as_of_round"] = as_of_round
    results: list[dict[str, Any]] = []
    counted: list[MatchData] = []
    for m in state.live_matches:
        if m.pk in leave_out:
            continue
        o = state.outcome(m)
        if not o.decided:
            continue
        players = [labels[e] for e in m.sides]
        if m.is_bye:
            if m.round_id is None or not players:
                continue
            results.append({"round": m.round_number, "bye": players[0]})
        else:
            winner = labels[o.winner] if o.winner is not None else None
            if m.bracket_id:
                item = {"match": m.bracket_id, "winner": winner}
            else:
                item = {"round": m.round_number, "players": players, "winner": winner}
            if o.forfeit:
                item["forfeit"] = True
            else:
                item["margin"] = o.margin or 0
            results.append(item)
        counted.append(m)
    doc["results"] = results
    dropped = {labels[e.pk]: e.dropped_after_round for e in state.entries if e.dropped_after_round is not None}
    if dropped:
        doc["dropped"] = dropped
    placed = {(m.round_number, e) for m in state.live_matches if m.round_id is not None for e in m.sides}
    doc.update(asks_document(event, state.entries, labels, placed=placed, requested=state.requested_byes,
                             avoid=state.avoid))
    return Built(doc, counted)


def compute_answer(state: EventState, *, as_of_round: int | None = None) -> tuple[dict[str, Any], list[dict]]:
    """The engine's answer for the stored event, and the warnings about what went stale (``answered``)."""
    answered = answer_with_document(state, as_of_round=as_of_round)
    return answered.answer, answered.warnings


@dataclass
class Answered:
    """The engine's answer, the stale warnings, and the request the answer was computed from (None for
    an event still waiting for entries: there was no request)."""

    answer: dict[str, Any]
    warnings: list[dict]
    document: dict[str, Any] | None


def answered_document(state: EventState) -> dict[str, Any]:
    """The request the live answer is computed from, exactly: every counted result, the stale ones left
    out as ``compute_answer`` leaves them out, so the calculator answers it with the same standings. An
    event with fewer than two entries has no request of its own: its document as built (the calculator
    refuses it, naming the entries)."""
    answered = answer_with_document(state)
    return answered.document if answered.document is not None else build_document(state).document


def answer_with_document(state: EventState, *, as_of_round: int | None = None) -> Answered:
    """The engine's answer for the stored event, the warnings about what went stale, and its request.

    A bracket match whose stored players differ from those the bracket now puts there (a correction
    changed an earlier result) has its result left out, and the engine runs again, until the two
    agree; a result the engine refuses is left out the same way and named. Each round of the event
    costs at most one more engine run, and only after a correction.

    An event with fewer than two entries (registration has just opened) has nothing for the engine to
    answer: its answer is the empty one (no standings, no pairings), with ``"waiting_for_entries"``.
    """
    if len(state.entries) < 2:
        return Answered(_waiting_for_entries(state), [], None)
    warnings: list[dict] = []
    leave_out: set[int] = set()
    while True:
        built = build_document(state, as_of_round=as_of_round, leave_out=frozenset(leave_out))
        try:
            answer = run_event(built.document)
        except EventError as exc:
            if all(p.field == "avoid" and p.result is None for p in exc.problems) and built.document.get("avoid"):
                answer = _refused_pairing(built.document, exc)
                break
            refused = {p.result for p in exc.problems}
            if None in refused or not refused:
                raise  # an event-level problem in stored data is a bug: loud
            for number in sorted(refused):
                m = built.counted[number - 1]
                leave_out.add(m.pk)
                warnings.append(_warning(state, m, "result_refused", "its result no longer fits the event and "
                                         "is not counted: " + "; ".join(p.message for p in exc.problems
                                                                          if p.result == number)))
            continue
        if state.event.is_elimination:
            stale = _stale_bracket_matches(state, answer, leave_out)
            newly = [w for w in stale if w["match_pk"] not in leave_out and w["has_result"]]
            if newly:
                leave_out.update(w["match_pk"] for w in newly)
                continue
            warnings.extend(stale)
        else:
            warnings.extend(_stale_rounds(state))
        break
    _add_entry_ids(state, answer)
    return Answered(answer, warnings, built.document)


def _refused_pairing(document: dict[str, Any], refused: EventError) -> dict[str, Any]:
    """The answer when the next pairing cannot keep every "never" pair apart: the standings as they are, no
    pairing (``next_round`` null, a bracket not laid out), and the engine's words in ``pairing_refused``."""
    answer = run_event({key: value for key, value in document.items() if key != "avoid"})
    answer["next_round"] = None
    if "bracket" in answer:
        answer["bracket"], answer["pending"] = [], []
    answer["pairing_refused"] = [p.message for p in refused.problems]
    return answer


def _waiting_for_entries(state: EventState) -> dict[str, Any]:
    event = state.event
    answer: dict[str, Any] = {
        "format": event.format, "rounds": event.rounds if event.format == Event.Format.SWISS else None,
        "rounds_played": 0, "complete": False, "champion": None, "standings": [], "next_round": None,
        "pending": [], "waiting_for_entries": 2 - len(state.entries),
    }
    if event.is_elimination:
        answer["bracket"] = []
    return answer


def _add_entry_ids(state: EventState, answer: dict[str, Any]) -> None:
    for row in answer["standings"]:
        row["entry"] = state.by_label.get(row["name"])


def _describe(state: EventState, m: MatchData) -> str:
    names = " v ".join(state.labels[e] for e in m.sides) or "nobody"
    if m.bracket_id:
        return f"{m.bracket_id} ({names})"
    if m.is_bye:
        return f"round {m.round_number} bye ({names})"
    return f"round {m.round_number} table {m.table} ({names})"


def _warning(state: EventState, m: MatchData, kind: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "match_pk": m.pk, "match": m.bracket_id or None,
            "round": m.round_number, "message": f"{_describe(state, m)}: {message}", **extra}


def _stale_bracket_matches(state: EventState, answer: dict[str, Any], leave_out: set[int]) -> list[dict]:
    rows = {row["id"]: row for row in answer.get("bracket", [])}
    out = []
    for m in state.live_matches:
        if not m.bracket_id:
            continue
        row = rows.get(m.bracket_id)
        now = [state.by_label.get(name) if name is not None else None for name in (row["players"] if row else [])]
        stored = list(m.sides)
        if sorted(stored) == sorted(p for p in now if p is not None) and None not in now and len(now) == 2:
            continue
        o = state.outcome(m)
        now_names = " v ".join(state.labels[p] if p is not None else "(to be decided)" for p in now) or "nobody"
        if o.decided:
            message = (f"was opened for players the bracket no longer puts there (now {now_names}): its result is "
                       "not counted until a director records the right one or the earlier correction is undone")
        else:
            message = (f"was opened from a result that has since changed: the bracket now has {now_names}; "
                       "reset it to open the right match")
        out.append(_warning(state, m, "bracket_players_changed", message, has_result=o.decided,
                            resettable=not o.decided, players_now=now))
    return out


def _stale_rounds(state: EventState) -> list[dict]:
    out = []
    matches_by_pk = {str(m.pk): m for m in state.matches}
    for rnd in state.rounds:
        if rnd.number == 1:
            continue
        now = round_results(state, rnd.number)
        if now == rnd.paired_from:  # compared as stored ({match id: [winner, margin]}), not digested again
            continue
        changed = sorted({k for k in set(now) | set(rnd.paired_from) if now.get(k) != rnd.paired_from.get(k)},
                         key=int)
        named = "; ".join(_describe(state, matches_by_pk[k]) for k in changed if k in matches_by_pk)
        out.append({"kind": "round_paired_from_changed_results", "match_pk": None, "match": None,
                    "round": rnd.number, "changed_matches": [int(k) for k in changed],
                    "results_now": {k: now.get(k) for k in changed},  # what changed: part of the warning's key
                    "message": f"Round {rnd.number} was paired from results that have since changed: {named}. "
                               "Nothing was re-paired; decide whether to keep these pairings."})
    return out


def decided_rounds(state: EventState) -> dict[int, bool]:
    """For each stored round number: whether every match in it is decided."""
    out: dict[int, bool] = {r.number: True for r in state.rounds}
    for m in state.live_matches:
        if m.round_id is not None and not state.outcome(m).decided:
            out[m.round_number] = False
    return out
