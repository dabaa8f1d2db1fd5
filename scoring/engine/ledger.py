"""The game ledger: running totals, whose deal it is, when the game ends, and the settlement.

``score_game`` turns a two-player game's recorded hands into a :class:`GameResult`, the paper score
sheet with its settlement. ``settle`` is shared by every format that ends in "first to the target
wins, then bonuses": it turns per-player tallies into grand totals under a convention set.

Pure functions of their arguments (the fold remembers its recent steps, which changes no answer:
``score_game``); nothing here parses input or knows about the web.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from threading import Lock

from .conventions import BoxMode, Conventions, DeadHandRule, DealerRule, Shutout
from .errors import SheetError
from .hands import HandRecord, ScoredHand, score_hand


@dataclass(frozen=True, slots=True)
class Tally:
    """What a player has earned hand by hand: points toward the target, hands won, boxes."""

    points: int = 0
    hands_won: int = 0
    boxes: int = 0

    def add(self, points: int, boxes: int) -> Tally:
        return Tally(self.points + points, self.hands_won + 1, self.boxes + boxes)


def toward_target(conventions: Conventions, tally: Tally) -> int:
    """The running total the target is measured against: the points, plus the box points when a club
    counts per-hand boxes as they are won (``boxes_count_toward_target``)."""
    if conventions.boxes_count_toward_target:
        return tally.points + conventions.box_bonus * tally.boxes
    return tally.points


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's grand total, broken down as the score sheet shows it."""

    points: int = 0
    hands_won: int = 0
    boxes: int = 0
    box_bonus: int = 0
    game_bonus: int = 0
    shutout_bonus: int = 0

    @property
    def total(self) -> int:
        return self.points + self.box_bonus + self.game_bonus + self.shutout_bonus

    def as_dict(self) -> dict[str, int]:
        return {
            "points": self.points,
            "hands_won": self.hands_won,
            "boxes": self.boxes,
            "box_bonus": self.box_bonus,
            "game_bonus": self.game_bonus,
            "shutout_bonus": self.shutout_bonus,
            "total": self.total,
        }


def running_totals(conventions: Conventions, tallies: Mapping[str, Tally]) -> dict[str, int]:
    """Everyone's running total toward the target: the score sheet's totals column."""
    return {name: toward_target(conventions, t) for name, t in tallies.items()}


def settle(
    conventions: Conventions,
    tallies: Mapping[str, Tally],
    *,
    winner: str | None,
    hands_played: int,
) -> dict[str, Standing]:
    """Grand totals: hand points + box bonus (+ game bonus and shutout for the winner of a finished game).

    Before the game is finished (``winner`` None) only per-hand boxes count: every other bonus depends
    on who wins. With more than two players the losers are taken together: a shutout means none of
    them scored, and net boxes are the winner's boxes less each loser's, summed.
    """
    standings: dict[str, Standing] = {}
    per_hand = conventions.box_mode is BoxMode.PER_HAND
    for name, t in tallies.items():
        box_bonus = conventions.box_bonus * t.boxes if per_hand else 0
        standings[name] = Standing(t.points, t.hands_won, t.boxes, box_bonus)
    if winner is None:
        return standings

    won = tallies[winner]
    losers = [t for name, t in tallies.items() if name != winner]
    current = standings[winner]
    if not per_hand:
        current = replace(current, box_bonus=conventions.box_bonus * sum(won.boxes - t.boxes for t in losers))
    current = replace(current, game_bonus=conventions.game_bonus)

    # "Scored nothing": no points, and no box points either when boxes count toward the target.
    shut_out = all(t.points == 0 and toward_target(conventions, t) == 0 for t in losers)
    if conventions.shutout_requires_all_hands:
        shut_out = shut_out and won.hands_won == hands_played
    if shut_out:
        shutout_bonus = {
            Shutout.DOUBLE_GAME_BONUS: current.game_bonus,
            Shutout.DOUBLE_TOTAL: current.points + current.box_bonus + current.game_bonus,
            Shutout.DOUBLE_HAND_POINTS: current.points,
            Shutout.DOUBLE_DIFFERENCE: current.points - sum(t.points for t in losers),
            Shutout.FLAT: conventions.shutout_bonus,
            Shutout.NONE: 0,
        }[conventions.shutout]
        current = replace(current, shutout_bonus=shutout_bonus)
    standings[winner] = current
    return standings


def next_dealer_two_player(
    conventions: Conventions, players: tuple[str, str], dealer: str, scored: ScoredHand
) -> str:
    """Who deals after ``scored``, under the dealer rule and the dead-hand rule.

    A tie under ``tie_rule: no_score`` has no winner and no loser, so the dead-hand rule decides it.
    """
    other = players[1] if dealer == players[0] else players[0]
    if scored.winner is None:
        return dealer if conventions.dead_hand_rule is DeadHandRule.SAME_DEALER else other
    if conventions.dealer_rule is DealerRule.ALTERNATE:
        return other
    if conventions.dealer_rule is DealerRule.LOSER_DEALS:
        assert scored.loser is not None
        return scored.loser
    return scored.winner


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the score sheet: the hand, who dealt it, and everyone's running total after it."""

    number: int
    dealer: str
    hand: ScoredHand
    totals: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class GameResult:
    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    complete: bool
    winner: str | None
    next_dealer: str | None
    standings: Mapping[str, Standing]

    @property
    def margin(self) -> int | None:
        if self.winner is None:
            return None
        loser_best = max(s.total for name, s in self.standings.items() if name != self.winner)
        return self.standings[self.winner].total - loser_best


def reject_after_complete(number: int, completed_at: int) -> SheetError:
    return SheetError.one(
        number, None, f"the game was already complete after hand {completed_at}; no hand can follow it"
    )


def score_game(
    *,
    conventions: Conventions,
    players: tuple[str, str],
    first_dealer: str,
    hands: Sequence[HandRecord],
    target: int | None = None,
) -> GameResult:
    """Score a two-player game hand by hand; the game ends on the first hand that reaches the target."""
    target = conventions.target if target is None else target
    step = _first_step(conventions, players, first_dealer, target)
    for number, record in enumerate(hands, start=1):
        if step.winner is not None:
            raise reject_after_complete(number, number - 1)
        step = _next_step(step, record, number)
    rows = step.rows()
    winner = step.winner
    standings = settle(conventions, step.tallies, winner=winner, hands_played=len(rows))
    return GameResult(
        players=players,
        rows=rows,
        complete=winner is not None,
        winner=winner,
        next_dealer=None if winner is not None else step.dealer,
        standings=standings,
    )


# A stored game's sheet is scored whole every time a hand is recorded, and again for the table's page
# (the hands before a pending one, the hands before the next): each time the same hands in the same
# order up to the last few. So the fold remembers its steps. A step is the state after a hand (tallies,
# dealer, winner, the sheet's row), found from the step before it and the hand's record: a trie of folds
# whose root is the game's conventions, players, first dealer and target. Every value is frozen or never
# changed once made, and a step depends on nothing but its parent and its record, so a remembered step
# is the step the fold would make. Bounded: the oldest steps are forgotten first, and a fold that finds
# no step makes it afresh (a forgotten step's children are then not found again: they age out).
_STEPS_REMEMBERED = 8192  # about 1 KB each with the hand it holds: 8 MB per process at most
_steps: dict[tuple, _Step] = {}
_steps_lock = Lock()


@dataclass(frozen=True, slots=True, eq=False)  # eq=False: a step is known by its identity (the trie's keys)
class _Step:
    conventions: Conventions
    players: tuple[str, str]
    target: int
    tallies: Mapping[str, Tally]
    dealer: str
    winner: str | None
    remembered: bool  # found again by later folds (False: made afresh, as is every step after it)
    parent: _Step | None = None
    row: SheetRow | None = None

    def rows(self) -> tuple[SheetRow, ...]:
        rows, step = [], self
        while step.row is not None:
            rows.append(step.row)
            step = step.parent
        return tuple(reversed(rows))


def _remembered(key: tuple, make: Callable[[bool], _Step]) -> _Step:
    try:
        found = _steps.get(key)
    except TypeError:  # a record that is no key (a card-level hand's report maps opponents): made afresh
        return make(False)
    if found is None:
        found = make(True)
        with _steps_lock:
            _steps[key] = found
            if len(_steps) > _STEPS_REMEMBERED:
                del _steps[next(iter(_steps))]  # the oldest: a dict keeps its keys in insertion order
    return found


def _first_step(conventions: Conventions, players: tuple[str, str], first_dealer: str, target: int) -> _Step:
    return _remembered((conventions, players, first_dealer, target), lambda remembered: _Step(
        conventions, players, target, {p: Tally() for p in players}, first_dealer, None, remembered))


def _next_step(step: _Step, record: HandRecord, number: int) -> _Step:
    """The step after ``step`` with ``record`` as hand ``number`` (its place: the trie's depth). After a step
    made afresh, the rest of the fold is too: no later fold could find its children."""
    if not step.remembered:
        return _step_after(step, record, number, False)
    return _remembered((step, record), lambda remembered: _step_after(step, record, number, remembered))


def _step_after(step: _Step, record: HandRecord, number: int, remembered: bool) -> _Step:
    conventions, players = step.conventions, step.players
    scored = score_hand(record, players=players, conventions=conventions, number=number)
    tallies, winner = step.tallies, None
    if scored.winner is not None:
        tallies = {**tallies, scored.winner: tallies[scored.winner].add(scored.points, scored.boxes)}
        if toward_target(conventions, tallies[scored.winner]) >= step.target:
            winner = scored.winner
    row = SheetRow(number, step.dealer, scored, running_totals(conventions, tallies))
    dealer = next_dealer_two_player(conventions, players, step.dealer, scored)
    return _Step(conventions, players, step.target, tallies, dealer, winner, remembered, step, row)
