"""The event contract of EVENTS.md: a request document in, the answer document out.

``run_event(request)`` reads the request (``document.py``), plays the results into the format
(the round robin schedule, Swiss rounds, or the bracket), ranks the standings and says what comes
next: the next round's pairings, or what is still owed. It raises :class:`EventError` naming every
problem found. It must not do I/O: the management command, the API view and the stored events feed
it and use its answer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .avoid_seeding import seeded_avoiding
from .bracket import (
    Bracket,
    Status,
    build_bracket,
    bye_entries,
    listed_matches,
    places,
    play_bracket,
    played_matches,
)
from .document import read_event
from .errors import EventError, Problem
from .records import Event, Format, GrandFinal, Played, RecordedBye
from .schedule import CircleSchedule
from .standings import Record, Standing, build_records, rank_entries
from .swiss import History, finish, fold_avoiding, pair_round


def run_event(request: object) -> dict[str, Any]:
    """The whole contract: a decoded request document in, the decoded answer document out."""
    event = read_event(request)
    if event.format.is_elimination:
        return _elimination_answer(event)
    return RoundEvent(event).answer()


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """A round's pairings (or what is owed in it) in entries' 0-based seed positions."""

    round: int
    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...]
    rematches: int = 0
    cost: int = 0
    never_broken: tuple[tuple[int, int], ...] = ()
    avoids_broken: int = 0


class RoundEvent:
    """A Swiss or round robin event played up to ``as_of_round`` (or to the end of what is recorded)."""

    def __init__(self, event: Event):
        self.event = event
        self.n = event.size
        self.swiss = event.format is Format.SWISS
        self.schedule = None if self.swiss else CircleSchedule(self.n)
        assert event.rounds is not None
        self.rounds = event.rounds
        self.limit = event.as_of_round if event.as_of_round is not None else event.rounds
        self.played = [p for p in event.played if p.round <= self.limit]
        self.recorded_byes = [b for b in event.byes if b.round <= self.limit]
        self.drops = {e: last for e, last in event.dropped.items()
                      if event.as_of_round is None or last <= event.as_of_round}
        self.by_round: dict[int, set[int]] = defaultdict(set)  # who has a result (match or bye) in each round
        for p in self.played:
            self.by_round[p.round].update(p.players)
        for b in self.recorded_byes:
            self.by_round[b.round].add(b.entry)
        self.requested: dict[int, set[int]] = defaultdict(set)  # who asked to sit out each round
        for ask in event.requested_byes:
            self.requested[ask.round].add(ask.entry)
        self.last_result_round = max(self.by_round, default=0)
        self.rounds_played = self._rounds_played()
        credited = self._credited_byes()
        records = build_records(self.n, self.played, credited, event.match_points,
                                bye_margin=event.bye_margin, byes_score=True,
                                requested=self._credited_requested(self.limit))
        self.records = records
        self.standings = rank_entries(event, records, dropped=self.drops)
        self.order = [s.entry for s in self.standings]

    def is_in(self, entry: int, round_no: int) -> bool:
        """Whether the entry is paired in that round: joined by then and not dropped before it."""
        last = self.drops.get(entry)
        return self.event.entries[entry].joined <= round_no and (last is None or last >= round_no)

    def sitting_out(self, round_no: int) -> list[int]:
        """Round robin: the entries still in whose scheduled opponent is the empty place or has dropped."""
        assert self.schedule is not None
        out = []
        for e in range(self.n):
            if self.is_in(e, round_no):
                opponent = self.schedule.opponent(e, round_no)
                if opponent is None or not self.is_in(opponent, round_no):
                    out.append(e)
        return out

    def _round_complete(self, round_no: int) -> bool:
        have = self.by_round.get(round_no, set()) | self.requested.get(round_no, set())
        sitting = set(self.sitting_out(round_no)) if self.schedule is not None else set()
        return all(e in have or e in sitting for e in range(self.n) if self.is_in(e, round_no))

    def _rounds_played(self) -> int:
        played = 0
        for r in range(1, self.limit + 1):
            if not self._round_complete(r):
                break
            played = r
        return played

    def _credited_requested(self, up_to: int) -> list[int]:
        """The requested byes that score: those of rounds up to ``up_to`` that are complete or have begun."""
        return [e for r, asked in sorted(self.requested.items())
                if r <= up_to and (r <= self.rounds_played or r in self.by_round) for e in sorted(asked)]

    def _credited_byes(self) -> list[int]:
        if self.swiss:
            return [b.entry for b in self.recorded_byes]
        # Round robin byes follow from the schedule: they count once their round is complete or has begun.
        started = max(self.rounds_played, self.last_result_round)
        return [e for r in range(1, started + 1) if r <= self.rounds_played or r in self.by_round
                for e in self.sitting_out(r)]

    @property
    def complete(self) -> bool:
        return self.rounds_played == self.rounds

    def next_round(self) -> RoundPlan | None:
        # Asked by the answer and by owed(): the pairing (a matching of the whole field) is made once.
        if not hasattr(self, "_next_round"):
            self._next_round = self._plan_next_round()
        return self._next_round

    def _plan_next_round(self) -> RoundPlan | None:
        if self.complete or self.rounds_played < self.last_result_round:
            return None  # a round is still being played: see owed()
        round_no = self.rounds_played + 1
        history = self.history(self.played, self.recorded_byes, self.records, round_no)
        plan = self.plan(round_no, self.order, history)
        if plan.never_broken:
            names = [e.name for e in self.event.entries]
            raise EventError([Problem(None, "avoid", f"round {round_no} cannot be paired without pairing "
                                      f"{names[a]} with {names[b]}, whom a \"never\" pair keeps apart: every "
                                      "pairing of the entries still in breaks one") for a, b in plan.never_broken])
        return plan

    def history(self, played: Sequence[Played], byes: Sequence[RecordedBye], records: Sequence[Record],
                round_no: int) -> History:
        met: dict[int, set[int]] = defaultdict(set)
        for p in played:
            a, b = p.players
            met[a].add(b)
            met[b].add(a)
        never: dict[int, set[int]] = defaultdict(set)
        avoid: dict[int, set[int]] = defaultdict(set)
        for pair in self.event.avoid:
            if pair.holds_in(round_no):
                a, b = pair.players
                kept = never if pair.never else avoid
                kept[a].add(b)
                kept[b].add(a)
        return History({e: r.match_points for e, r in enumerate(records)}, met, {b.entry for b in byes},
                       never, avoid)

    def plan(self, round_no: int, order: Sequence[int], history: History) -> RoundPlan:
        """The pairings of a round for the entries still in it, ``order`` being the standings before it."""
        asked = self.requested.get(round_no, set())
        players = [e for e in order if self.is_in(e, round_no) and e not in asked]
        if self.schedule is not None:
            sitting = set(self.sitting_out(round_no))
            pairs = [(a, b) for a, b in self.schedule.pairs(round_no)
                     if a is not None and b is not None and self.is_in(a, round_no) and self.is_in(b, round_no)]
            pairing = finish(pairs, [e for e in players if e in sitting], order, history)
        elif round_no == 1:
            pairing = fold_avoiding(sorted(players), order, history)
        else:
            pairing = pair_round(players, history)
        return RoundPlan(round_no, pairing.pairs, pairing.byes, pairing.rematches, pairing.cost,
                         pairing.never_broken, pairing.avoids_broken)

    def owed(self) -> list[dict[str, Any]]:
        """What is still owed in the rounds begun but not complete (``pending``)."""
        if self.next_round() is not None or self.complete:
            return []
        names = [e.name for e in self.event.entries]
        out: list[dict[str, Any]] = []
        for r in range(self.rounds_played + 1, max(self.rounds_played + 1, self.last_result_round) + 1):
            if r > self.limit:
                break
            have = self.by_round.get(r, set())
            for plan_pairs, plan_byes in self._owed_in(r, have):
                out.extend({"round": r, "players": [names[a], names[b]]} for a, b in plan_pairs)
                out.extend({"round": r, "bye": names[e]} for e in plan_byes)
        return out

    def _owed_in(self, round_no: int, have: set[int]):
        before = [p for p in self.played if p.round < round_no]
        byes_before = [b for b in self.recorded_byes if b.round < round_no]
        records = build_records(self.n, before, self._byes_before(round_no, byes_before), self.event.match_points,
                                bye_margin=self.event.bye_margin, byes_score=True,
                                requested=self._credited_requested(round_no - 1))
        order = [s.entry for s in rank_entries(self.event, records, dropped=self.drops)]
        history = self.history(before, byes_before, records, round_no)
        plan = self.plan(round_no, order, history)
        pairs = [(a, b) for a, b in plan.pairs if a not in have and b not in have]
        byes = [e for e in plan.byes if e not in have] if self.swiss else []
        yield pairs, byes
        covered = (have | {e for p in pairs for e in p} | set(byes) | set(plan.byes)
                   | self.requested.get(round_no, set()))
        left = [e for e in order if self.is_in(e, round_no) and e not in covered]
        if self.swiss and left:
            rest = pair_round(left, history)
            yield rest.pairs, rest.byes

    def _byes_before(self, round_no: int, byes_before: Sequence[RecordedBye]) -> list[int]:
        if self.swiss:
            return [b.entry for b in byes_before]
        return [e for r in range(1, round_no) for e in self.sitting_out(r)]

    def answer(self) -> dict[str, Any]:
        event = self.event
        names = [e.name for e in event.entries]
        upcoming = self.next_round()
        next_round = None
        if upcoming is not None:
            next_round = {
                "round": upcoming.round,
                "pairings": [{"table": t, "players": [names[a], names[b]]}
                             for t, (a, b) in enumerate(upcoming.pairs, start=1)],
                "bye": names[upcoming.byes[0]] if upcoming.byes else None,
                "byes": [names[e] for e in upcoming.byes],
            }
            if self.swiss:
                next_round["rematches"] = upcoming.rematches
                next_round["cost"] = upcoming.cost
                next_round["requested_byes"] = [names[e] for e in self.order
                                                if e in self.requested.get(upcoming.round, set())
                                                and self.is_in(e, upcoming.round)]
                next_round["avoids_broken"] = upcoming.avoids_broken
        champion = None
        if self.complete:
            leaders = [s for s in self.standings if s.rank == 1]
            champion = names[leaders[0].entry] if len(leaders) == 1 else None
        return {
            "format": event.format.value,
            "rounds": self.rounds,
            "rounds_played": self.rounds_played,
            "as_of_round": event.as_of_round,
            "complete": self.complete,
            "champion": champion,
            "standings": standings_rows(event, self.standings),
            "next_round": next_round,
            "pending": self.owed(),
        }


def standings_rows(event: Event, standings: Sequence[Standing]) -> list[dict[str, Any]]:
    rows = []
    for s in standings:
        entry = event.entries[s.entry]
        r = s.record
        rows.append({
            "rank": s.rank,
            "name": entry.name,
            "seed": entry.seed,
            "played": r.played,
            "wins": r.wins,
            "draws": r.draws,
            "losses": r.losses,
            "byes": r.byes,
            "match_points": r.match_points,
            "margin": r.margin,
            "dropped": s.dropped,
            "tiebreaks": dict(s.tiebreaks),
        })
        if event.requested_byes:  # only where some were asked for: the rows' shape is otherwise as it was
            rows[-1]["requested_byes"] = r.requested_byes
    return rows


def _elimination_answer(event: Event) -> dict[str, Any]:
    event = seeded_avoiding(event)
    bracket = build_bracket(event.size, double=event.format is Format.DOUBLE_ELIMINATION,
                            third_place=event.third_place, reset=event.grand_final is GrandFinal.RESET)
    names = [e.name for e in event.entries]
    problems = play_bracket(bracket, event.bracket_results, dropped=event.dropped,
                            forfeit_margin=event.forfeit_margin, names=names)
    if problems:
        raise EventError(sorted(problems, key=lambda p: p.result or 0))
    records = build_records(event.size, played_matches(bracket), bye_entries(bracket), event.match_points,
                            bye_margin=event.bye_margin, byes_score=False)
    standings = rank_entries(event, records, dropped=event.dropped, places=places(bracket))
    position = {s.entry: i for i, s in enumerate(standings)}
    matches = listed_matches(bracket)
    pending = []
    for m in matches:
        if m.status is Status.READY:
            a, b = sorted(m.players, key=lambda e: position[e])
            pending.append({"match": m.id, "players": [names[a], names[b]]})
    complete = all(m.status in (Status.DONE, Status.BYE) for m in matches)
    return {
        "format": event.format.value,
        "rounds": None,
        "rounds_played": _winners_rounds_played(bracket),
        "complete": complete,
        "champion": names[bracket.champion] if bracket.champion is not None else None,
        "standings": standings_rows(event, standings),
        "next_round": None,
        "pending": pending,
        "bracket": [bracket_row(m, names, bracket.entries) for m in matches],
    }


def _winners_rounds_played(bracket: Bracket) -> int:
    played = 0
    for r in range(1, bracket.k + 1):
        if any(m.bracket == "winners" and m.round == r and m.status not in (Status.DONE, Status.BYE)
               for m in bracket.matches.values()):
            break
        played = r
    return played


def bracket_row(m, names: Sequence[str], entries: int) -> dict[str, Any]:
    decided = m.status is Status.DONE
    moves_on = m.players or m.status is not Status.BYE  # a match of two byes sends nobody on
    return {
        "id": m.id,
        "bracket": m.bracket,
        "round": m.round,
        "index": m.index,
        "players": [names[p] if p is not None else None for p in m.players],
        "status": m.status.value,
        "winner": names[m.winner] if decided else None,
        "margin": m.margin if decided else None,
        "forfeit": m.forfeit if decided else None,
        "winner_to": m.winner_to if moves_on else None,
        "loser_to": None if any(m.bye_places) else m.loser_to,
        "from": [s.as_dict(entries) for s in m.sources],
    }


