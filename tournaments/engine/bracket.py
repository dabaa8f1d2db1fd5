"""Single and double elimination brackets of EVENTS.md: the structure, then the results played into it.

``build_bracket`` lays out every match of a bracket for n entries (2^k slots in the standard seed
order, the losers' bracket with its drop-in cycle, the grand final or third-place match) as matches
whose two places each come from a seed, or from the winner or loser of an earlier match.
``play_bracket`` then walks the matches in an order where every place's source comes first and
fills in who plays, what was recorded, who advances: byes advance at once, a dropped entry forfeits
what it has not played, a result for a match that is not ready (or is a bye, or names someone who
is not in it) is refused. Whether a place is a bye never depends on results: it follows from the
seeds alone, so a bye's place is known to be one before the match feeding it is played.

Places (for the standings) follow EVENTS.md's formula, so they stay stable while a round is half
played. It must not read the request: ``document.py`` does, and ``event.py`` writes the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .errors import Problem
from .records import BracketResult, Played

BYE = -1  # a place no entry fills


class Status(StrEnum):
    WAITING = "waiting"
    READY = "ready"
    DONE = "done"
    BYE = "bye"


@dataclass(frozen=True, slots=True)
class Source:
    """Where a place comes from: a seed (0-based; ``seed >= entries`` is a bye), or a match's winner/loser."""

    seed: int | None = None
    winner_of: str | None = None
    loser_of: str | None = None

    def as_dict(self, entries: int) -> dict[str, object]:
        if self.seed is not None:
            return {"seed": self.seed + 1, "bye": self.seed >= entries}
        if self.winner_of is not None:
            return {"winner_of": self.winner_of}
        return {"loser_of": self.loser_of}


@dataclass(slots=True)
class Match:
    id: str
    bracket: str  # winners | losers | final
    round: int
    index: int
    sources: tuple[Source, Source]
    winner_to: str | None = None
    loser_to: str | None = None
    bye_places: tuple[bool, bool] = (False, False)  # which places are byes, known from the seeds alone
    # Filled in by play_bracket:
    places: list[int | None] = field(default_factory=lambda: [None, None])  # entry, BYE, or None (unknown)
    status: Status = Status.WAITING
    winner: int | None = None
    loser: int | None = None
    margin: int | None = None
    forfeit: bool | None = None
    result: int | None = None  # the 1-based index of the result that decided it, if recorded

    @property
    def is_bye(self) -> bool:
        return BYE in self.places

    @property
    def players(self) -> list[int | None]:
        """The real players (a bye match lists only its real place; [] when both places are byes)."""
        return [p for p in self.places if p != BYE]


def standard_order(slots: int) -> list[int]:
    """Seeds (1-based) from top to bottom: seed s meets 2^k + 1 - s first, 1 and 2 only in the final."""
    order = [1]
    while len(order) < slots:
        size = 2 * len(order)
        order = [x for s in order for x in (s, size + 1 - s)]
    return order


def bracket_rounds(entries: int) -> int:
    """k: the least k with 2^k >= entries."""
    return max(1, (entries - 1).bit_length())


def drop_in(losers: list[str], r: int) -> list[str]:
    """The losers of winners' round r + 1 rearranged for losers' round 2r by the cycle of EVENTS.md."""
    half = len(losers) // 2
    step = (r - 1) % 4
    if step == 0:  # reverse
        return losers[::-1]
    if step == 1:  # reverse_half_shift: each half reversed in place
        return losers[:half][::-1] + losers[half:][::-1] if half else list(losers)
    if step == 2:  # half_shift: the second half first
        return losers[half:] + losers[:half]
    return list(losers)  # natural


@dataclass(slots=True)
class Bracket:
    entries: int
    double: bool
    third_place: bool
    reset: bool
    matches: dict[str, Match]  # in listing order: winners, losers, final; by round, then index
    champion: int | None = None

    @property
    def k(self) -> int:
        return bracket_rounds(self.entries)

    def real_matches_by_round(self, bracket: str) -> dict[int, int]:
        counts: dict[int, int] = {}
        for m in self.matches.values():
            if m.bracket == bracket and not any(m.bye_places):
                counts[m.round] = counts.get(m.round, 0) + 1
        return counts


def _add(matches: dict[str, Match], match: Match) -> None:
    matches[match.id] = match


def build_bracket(entries: int, *, double: bool, third_place: bool = False, reset: bool = True) -> Bracket:
    """Every match of the bracket (GF2 too, for a double elimination with reset; it is listed only if played)."""
    k = bracket_rounds(entries)
    order = standard_order(2**k)
    matches: dict[str, Match] = {}
    for i in range(1, 2 ** (k - 1) + 1):
        top, bottom = order[2 * i - 2] - 1, order[2 * i - 1] - 1
        _add(matches, Match(f"W1-{i}", "winners", 1, i, (Source(seed=top), Source(seed=bottom))))
    for r in range(2, k + 1):
        for i in range(1, 2 ** (k - r) + 1):
            sources = (Source(winner_of=f"W{r - 1}-{2 * i - 1}"), Source(winner_of=f"W{r - 1}-{2 * i}"))
            _add(matches, Match(f"W{r}-{i}", "winners", r, i, sources))
    if double:
        for r in range(1, k):
            if r == 1:
                for i in range(1, 2 ** (k - 2) + 1):
                    sources = (Source(loser_of=f"W1-{2 * i - 1}"), Source(loser_of=f"W1-{2 * i}"))
                    _add(matches, Match(f"L1-{i}", "losers", 1, i, sources))
            else:
                for i in range(1, 2 ** (k - 1 - r) + 1):
                    sources = (Source(winner_of=f"L{2 * r - 2}-{2 * i - 1}"), Source(winner_of=f"L{2 * r - 2}-{2 * i}"))
                    _add(matches, Match(f"L{2 * r - 1}-{i}", "losers", 2 * r - 1, i, sources))
            dropping = drop_in([f"W{r + 1}-{i}" for i in range(1, 2 ** (k - r - 1) + 1)], r)
            for i, from_match in enumerate(dropping, start=1):
                sources = (Source(loser_of=from_match), Source(winner_of=f"L{2 * r - 1}-{i}"))
                _add(matches, Match(f"L{2 * r}-{i}", "losers", 2 * r, i, sources))
        losers_champion = Source(winner_of=f"L{2 * k - 2}-1") if k > 1 else Source(loser_of="W1-1")
        _add(matches, Match("GF1", "final", 1, 1, (Source(winner_of=f"W{k}-1"), losers_champion)))
        if reset:  # the same two again, in the same places
            _add(matches, Match("GF2", "final", 2, 1, matches["GF1"].sources))
    elif third_place and k >= 2:
        _add(matches, Match("3P", "final", k, 1, (Source(loser_of=f"W{k - 1}-1"), Source(loser_of=f"W{k - 1}-2"))))
    for m in matches.values():  # listing order: every source comes before the matches it feeds
        m.bye_places = (_source_is_bye(matches, m.sources[0], entries), _source_is_bye(matches, m.sources[1], entries))
        if m.id == "GF2":
            continue  # GF2 repeats GF1's places; nobody is sent there from a match
        for s in m.sources:
            if s.winner_of is not None:
                matches[s.winner_of].winner_to = m.id
            if s.loser_of is not None:
                matches[s.loser_of].loser_to = m.id
    return Bracket(entries, double, third_place, reset, matches)


def _source_is_bye(matches: Mapping[str, Match], source: Source, entries: int) -> bool:
    """A place is a bye when its seed is beyond the entries, it is the winner of a match of two byes, or
    the loser of a match with a bye. The feeding match's ``bye_places`` are already known."""
    if source.seed is not None:
        return source.seed >= entries
    if source.winner_of is not None:
        return all(matches[source.winner_of].bye_places)
    assert source.loser_of is not None
    return any(matches[source.loser_of].bye_places)


def play_bracket(
    bracket: Bracket,
    results: Sequence[BracketResult],
    *,
    dropped: Mapping[int, int],
    forfeit_margin: int,
    names: Sequence[str],
) -> list[Problem]:
    """Play the recorded results into the bracket; answers the problems with them (empty when all fit)."""
    problems: list[Problem] = []
    by_match: dict[str, BracketResult] = {}
    for result in sorted(results, key=lambda r: r.number):
        if result.match not in bracket.matches or (result.match == "GF2" and not bracket.reset):
            problems.append(Problem(result.number, "match", f"there is no match {result.match!r} in this bracket"))
        elif result.match in by_match:
            first = by_match[result.match]
            problems.append(Problem(result.number, "match", f"match {result.match} already has a result "
                                                            f"(result {first.number})"))
        else:
            by_match[result.match] = result
    used: set[str] = set()
    for match in bracket.matches.values():
        if match.id == "GF2" and not _grand_final_reset(bracket):
            continue
        match.places = [BYE if bye else _resolve(bracket, s) for s, bye in zip(match.sources, match.bye_places,
                                                                                 strict=True)]
        result = by_match.get(match.id)
        if match.is_bye:
            match.status = Status.WAITING if None in match.places else Status.BYE
            real = match.players
            match.winner = real[0] if real else BYE
            match.loser = BYE
            if result is not None:
                used.add(match.id)
                problems.append(Problem(result.number, "match", f"match {match.id} is a bye: its player advances "
                                                                f"without a result"))
            continue
        if None in match.places:
            continue  # waiting
        a, b = match.places
        assert a is not None
        assert b is not None
        match.status = Status.READY
        if result is not None:
            used.add(match.id)
            if result.winner not in (a, b):
                problems.append(Problem(result.number, "winner", f"{result.winner_name} did not play in match "
                                                                  f"{match.id} ({names[a]} v {names[b]})"))
                continue
            _decide(match, result.winner, result.margin, result.forfeit, result.number)
        elif a in dropped or b in dropped:
            if a in dropped and b in dropped:
                _decide(match, min(a, b), 0, True, None)  # both gone: the better seed advances
            else:
                _decide(match, b if a in dropped else a, forfeit_margin, True, None)
    for match_id, result in by_match.items():
        if match_id in used:
            continue
        match = bracket.matches[match_id]
        if match_id == "GF2":
            done = bracket.matches["GF1"].status is Status.DONE
            message = ("there is no GF2: the winners' champion won GF1" if done else
                       "GF2 is not ready: GF1 has no result yet")
            problems.append(Problem(result.number, "match", message))
        else:
            waiting = [s.winner_of or s.loser_of for s in match.sources if _resolve(bracket, s) is None]
            problems.append(Problem(result.number, "match", f"match {match_id} is not ready: its players are not "
                                                            f"known yet ({', '.join(sorted(set(waiting)))} undecided)"))
    bracket.champion = _champion(bracket)
    return problems


def _decide(match: Match, winner: int, margin: int, forfeit: bool, result: int | None) -> None:
    a, b = match.places
    match.status = Status.DONE
    match.winner = winner
    match.loser = b if winner == a else a
    match.margin = margin
    match.forfeit = forfeit
    match.result = result


def _resolve(bracket: Bracket, source: Source) -> int | None:
    """Who fills a place that is not a bye: an entry, or None while unknown."""
    if source.seed is not None:
        return source.seed
    feeding = bracket.matches[source.winner_of or source.loser_of]
    if feeding.status not in (Status.DONE, Status.BYE):
        return None
    return feeding.winner if source.winner_of is not None else feeding.loser


def _grand_final_reset(bracket: Bracket) -> bool:
    """GF2 is played only when the losers' champion wins GF1 (with the reset option)."""
    gf1 = bracket.matches.get("GF1")
    return bool(bracket.reset and gf1 is not None and gf1.status is Status.DONE and gf1.winner == gf1.places[1])


def listed_matches(bracket: Bracket) -> list[Match]:
    """Every match of the answer (GF2 only when it is played)."""
    return [m for m in bracket.matches.values() if m.id != "GF2" or _grand_final_reset(bracket)]


def _champion(bracket: Bracket) -> int | None:
    if not bracket.double:
        final = bracket.matches[f"W{bracket.k}-1"]
        return final.winner if final.status is Status.DONE else None
    gf1 = bracket.matches["GF1"]
    if gf1.status is not Status.DONE:
        return None
    if _grand_final_reset(bracket):
        gf2 = bracket.matches["GF2"]
        return gf2.winner if gf2.status is Status.DONE else None
    return gf1.winner


def played_matches(bracket: Bracket) -> list[Played]:
    """The decided matches as records for the standings (automatic forfeits included)."""
    out = []
    for m in listed_matches(bracket):
        if m.status is Status.DONE:
            a, b = m.places
            assert a is not None
            assert b is not None
            assert m.winner is not None
            assert m.margin is not None
            out.append(Played(m.result or 0, m.round, (a, b), m.winner, m.margin, bool(m.forfeit)))
    return out


def bye_entries(bracket: Bracket) -> list[int]:
    return [m.players[0] for m in listed_matches(bracket) if m.status is Status.BYE and m.players]


def places(bracket: Bracket) -> list[int]:
    """Each entry's place by EVENTS.md's formula; entries still in share place 1."""
    n = bracket.entries
    place = [1] * n
    out_bracket = "losers" if bracket.double else "winners"
    counts = bracket.real_matches_by_round(out_bracket)
    before = 0
    played_up_to: dict[int, int] = {}
    for r in sorted(counts):
        before += counts[r]
        played_up_to[r] = before
    for m in listed_matches(bracket):
        if m.status is not Status.DONE or m.loser is None or m.loser == BYE:
            continue
        if m.bracket == out_bracket:
            place[m.loser] = 1 + n - played_up_to[m.round]
    if not bracket.double:
        third = bracket.matches.get("3P")
        if third is not None and third.status is Status.DONE:
            place[third.winner] = 3
            place[third.loser] = 4
        return place
    gf1 = bracket.matches["GF1"]
    if gf1.status is Status.DONE:
        if _grand_final_reset(bracket):
            gf2 = bracket.matches["GF2"]
            if gf2.status is Status.DONE:
                place[gf2.loser] = 2
        else:
            place[gf1.loser] = 2
    return place
