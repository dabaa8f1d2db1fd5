"""One two-player hand: what was recorded and what it scores under a convention set.

``score_hand`` is a pure function from a :class:`HandRecord` (already type-checked by the sheet
parser) to a :class:`ScoredHand`. It refuses what cannot have happened under the rules (a knock over
the limit, a knock with no deadwood) with a :class:`SheetError`. It knows nothing of running totals,
dealers or formats: the ledger and the format modules do that.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from .cards import SPADES, Card
from .conventions import Conventions, OklahomaAce, TieRule
from .errors import SheetError

if TYPE_CHECKING:
    from .melds import CardReport


class Result(StrEnum):
    """What the referee records."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DEAD = "dead"


class Outcome(StrEnum):
    """How the engine scored it."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DEAD = "dead"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand as recorded: counts always (derived from the cards when cards were entered)."""

    result: Result
    knocker: str | None = None
    knocker_deadwood: int | None = None
    opponent_deadwood: int | None = None
    upcard: Card | None = None
    cards: CardReport | None = None


@dataclass(frozen=True, slots=True)
class DealTerms:
    """What the deal's upcard (Oklahoma) makes of the conventions: the knock limit and the multiplier."""

    knock_limit: int
    multiplier: int


@dataclass(frozen=True, slots=True)
class ScoredHand:
    record: HandRecord
    players: tuple[str, str]
    outcome: Outcome
    winner: str | None
    loser: str | None
    points: int
    boxes: int
    terms: DealTerms

    @property
    def knocker_deadwood(self) -> int | None:
        return self.record.knocker_deadwood

    @property
    def opponent_deadwood(self) -> int | None:
        return self.record.opponent_deadwood


def deal_terms(conventions: Conventions, upcard: Card | None) -> DealTerms:
    """The knock limit and score multiplier of a deal (Oklahoma: set by the first upcard)."""
    if not conventions.oklahoma or upcard is None:
        return DealTerms(conventions.knock_limit, 1)
    if upcard.rank == 0:
        upcard_limit = 0 if conventions.oklahoma_ace is OklahomaAce.GIN_ONLY else 1
    else:
        upcard_limit = upcard.value
    multiplier = 2 if conventions.spade_doubles and upcard.suit == SPADES else 1
    # A club that also plays a lower house limit keeps it: the stricter of the two applies.
    return DealTerms(min(conventions.knock_limit, upcard_limit), multiplier)


def knock_limit_message(conventions: Conventions, record: HandRecord, terms: DealTerms) -> str:
    recorded = record.knocker_deadwood
    if conventions.oklahoma and record.upcard is not None:
        if terms.knock_limit == 0:
            return f"upcard {record.upcard} allows only gin; a knock with {recorded} deadwood recorded"
        return f"knock needs deadwood <= {terms.knock_limit} (upcard {record.upcard}); {recorded} recorded"
    if terms.knock_limit == 0:
        return f"these conventions allow only gin (knock_limit 0); a knock with {recorded} deadwood recorded"
    return f"knock needs deadwood <= {terms.knock_limit}; {recorded} recorded"


def score_hand(
    record: HandRecord, *, players: tuple[str, str], conventions: Conventions, number: int
) -> ScoredHand:
    """Score one recorded hand between ``players`` (the knocker must be one of them)."""
    terms = deal_terms(conventions, record.upcard)
    if conventions.oklahoma and record.upcard is None and record.result is not Result.DEAD:
        raise SheetError.one(number, "upcard", "Oklahoma hands need the deal's first upcard, like \"7S\"")
    if record.result is Result.DEAD:
        return ScoredHand(record, players, Outcome.DEAD, None, None, 0, 0, terms)

    knocker = record.knocker
    if knocker not in players:
        raise SheetError.one(number, "knocker", f"{knocker!r} is not playing this hand ({' v '.join(players)})")
    opponent = players[1] if knocker == players[0] else players[0]
    opp_dw = record.opponent_deadwood
    assert opp_dw is not None, "the sheet parser guarantees opponent_deadwood on a non-dead hand"
    extra_boxes = 0
    if record.result is Result.KNOCK:
        knock_dw = record.knocker_deadwood
        assert knock_dw is not None
        if knock_dw == 0:
            raise SheetError.one(
                number, "knocker_deadwood", "a knock with 0 deadwood is gin: record the result as gin"
            )
        if knock_dw > terms.knock_limit:
            raise SheetError.one(number, "knocker_deadwood", knock_limit_message(conventions, record, terms))
        tied = knock_dw == opp_dw
        if knock_dw < opp_dw or (tied and conventions.tie_rule is TieRule.KNOCKER):
            # under the knocker tie rule a tie is an ordinary knock worth 0 that still wins the box
            outcome, winner, loser, points = Outcome.KNOCK, knocker, opponent, opp_dw - knock_dw
        elif tied and conventions.tie_rule is TieRule.NO_SCORE:
            return ScoredHand(record, players, Outcome.TIE, None, None, 0, 0, terms)
        else:
            outcome, winner, loser = Outcome.UNDERCUT, opponent, knocker
            points = knock_dw - opp_dw + conventions.undercut_bonus
            extra_boxes = 1
    elif record.result is Result.BIG_GIN and conventions.big_gin_bonus is not None:
        outcome, winner, loser = Outcome.BIG_GIN, knocker, opponent
        points = opp_dw + conventions.big_gin_bonus
        extra_boxes = 2
    else:  # gin, or big gin under conventions that score it as gin
        outcome, winner, loser = Outcome.GIN, knocker, opponent
        points = opp_dw + conventions.gin_bonus
        extra_boxes = 2
    boxes = 1 + (extra_boxes * terms.multiplier if conventions.oklahoma and conventions.oklahoma_extra_boxes else 0)
    return ScoredHand(record, players, outcome, winner, loser, points * terms.multiplier, boxes, terms)
