"""Melds, deadwood and lay-offs from the cards themselves.

How it is fast: a hand is a 64-bit mask, 16 bits per suit. Within one suit, once the sets are chosen,
the best runs are simply every block of 3+ consecutive ranks, so two tables indexed by a suit's 13-bit
mask give the deadwood left in that suit and its highest deadwood card. Sets couple the suits, but
only through ranks held 3 or 4 times; a hand has at most three such ranks, so the engine enumerates
their few set choices (none, the set, or for four of a kind each set of three) and looks the four
suits up again for each. Most random hands hold no such rank and cost four table look-ups.

The same enumeration, keeping the melds, gives every least-deadwood arrangement; lay-offs are the
opponent's best choice among the few ways to extend the knocker's melds. This module must not know
about conventions or points.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from .cards import (
    RANK_VALUES,
    SUIT_BITS,
    SUIT_STRIDE,
    Card,
    CardError,
    Hand,
    card,
    cards_of,
    mask_of,
    parse_cards,
    sort_key,
)

RANK_COLUMN = 0x0001_0001_0001_0001  # one bit per suit at rank 0 (ace); shift left by a rank
_NO_DEADWOOD = 1 << 30


def _suit_tables() -> tuple[list[int], list[int], list[int]]:
    """For every 13-bit suit mask: deadwood after melding its runs, the highest deadwood card, run bits."""
    deadwood, highest, in_runs = [0] * 8192, [0] * 8192, [0] * 8192
    for m in range(8192):
        total = high = runs = rank = 0
        while rank < 13:
            if not m >> rank & 1:
                rank += 1
                continue
            start = rank
            while rank < 13 and m >> rank & 1:
                rank += 1
            if rank - start >= 3:
                runs |= ((1 << (rank - start)) - 1) << start
            else:
                for k in range(start, rank):
                    total += RANK_VALUES[k]
                    high = max(high, RANK_VALUES[k])
        deadwood[m], highest[m], in_runs[m] = total, high, runs
    return deadwood, highest, in_runs


SUIT_DEADWOOD, SUIT_HIGHEST, SUIT_RUN_BITS = _suit_tables()


def _rank_options(mask: int, rank: int) -> tuple[int, ...]:
    """The ways a rank held 3+ times can be set aside as a set: none, all of it, or (four held) each three."""
    column = mask & (RANK_COLUMN << rank)
    if column == RANK_COLUMN << rank:
        singles = [column & (1 << (SUIT_STRIDE * s + rank)) for s in range(4)]
        return (0, column, *(column ^ one for one in singles))
    return (0, column)


def _set_choices(mask: int, triples: int) -> Iterable[int]:
    """Every combination of set choices, as the mask of the cards the sets take."""
    if not triples & (triples - 1):  # one rank only: the usual case, answered without a generator
        return _rank_options(mask, triples.bit_length() - 1)
    return _combined_choices(mask, triples)


def _combined_choices(mask: int, triples: int) -> Iterator[int]:
    ranks = []
    while triples:
        low = triples & -triples
        ranks.append(_rank_options(mask, low.bit_length() - 1))
        triples ^= low
    for combo in product(*ranks):
        yield sum(combo)


def _triples(a: int, b: int, c: int, d: int) -> int:
    """The ranks (as 13-bit mask) held in at least three suits."""
    return (a & b & (c | d)) | (c & d & (a | b))


def deadwood_of_mask(mask: int) -> int:
    """The least deadwood of any group of cards (no discard), given as a bitmask."""
    table = SUIT_DEADWOOD
    a, b, c, d = mask & SUIT_BITS, (mask >> 16) & SUIT_BITS, (mask >> 32) & SUIT_BITS, mask >> 48
    best = table[a] + table[b] + table[c] + table[d]
    triples = (a & b & (c | d)) | (c & d & (a | b))
    if not triples:
        return best
    for taken in _set_choices(mask, triples):
        if taken:
            m = mask ^ taken
            v = table[m & SUIT_BITS] + table[(m >> 16) & SUIT_BITS] + table[(m >> 32) & SUIT_BITS] + table[m >> 48]
            if v < best:
                best = v
    return best


def deadwood_after_discard_of_mask(mask: int) -> int:
    """The least deadwood of 11 cards after the best discard (0 when all 11 meld: big gin)."""
    table, high = SUIT_DEADWOOD, SUIT_HIGHEST
    best = _NO_DEADWOOD
    a, b, c, d = mask & SUIT_BITS, (mask >> 16) & SUIT_BITS, (mask >> 32) & SUIT_BITS, mask >> 48
    triples = (a & b & (c | d)) | (c & d & (a | b))
    for taken in _set_choices(mask, triples) if triples else (0,):
        m = mask ^ taken
        a, b, c, d = m & SUIT_BITS, (m >> 16) & SUIT_BITS, (m >> 32) & SUIT_BITS, m >> 48
        # the discard is the highest deadwood card; when nothing is left over, a card of a long meld goes
        v = table[a] + table[b] + table[c] + table[d] - max(high[a], high[b], high[c], high[d])
        if v < best:
            best = v
    return best


def min_deadwood(cards: Hand | Iterable[object]) -> int:
    """The least deadwood of 10 cards, or of 11 cards after the best discard.

    Takes card strings (``["7H", "8H", ...]``) or what :func:`parse_cards` returns.
    """
    if type(cards) is not Hand:
        cards = parse_cards(cards)
    if cards.size == 10:
        # the no-set case is most hands: four table look-ups, no further call
        a, b, c, d = cards.suits
        if not ((a & b & (c | d)) | (c & d & (a | b))):
            table = SUIT_DEADWOOD
            return table[a] + table[b] + table[c] + table[d]
        return deadwood_of_mask(cards.mask)
    if cards.size == 11:
        a, b, c, d = cards.suits
        if not ((a & b & (c | d)) | (c & d & (a | b))):
            table, high = SUIT_DEADWOOD, SUIT_HIGHEST
            return table[a] + table[b] + table[c] + table[d] - max(high[a], high[b], high[c], high[d])
        return deadwood_after_discard_of_mask(cards.mask)
    raise CardError(f"10 or 11 cards needed; {cards.size} given")


# ---------------------------------------------------------------------------------------------------
# Arrangements: the melds themselves


@dataclass(frozen=True, slots=True)
class Meld:
    cards: tuple[Card, ...]  # sorted by rank (runs) or suit (sets)

    @property
    def is_run(self) -> bool:
        return len({c.suit for c in self.cards}) == 1

    def names(self) -> list[str]:
        return [str(c) for c in self.cards]

    def __str__(self) -> str:
        return " ".join(self.names())


@dataclass(frozen=True, slots=True)
class Arrangement:
    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.deadwood_cards)


def _runs_of(mask: int) -> list[Meld]:
    melds = []
    for suit in range(4):
        bits = SUIT_RUN_BITS[(mask >> (SUIT_STRIDE * suit)) & SUIT_BITS]
        rank = 0
        while bits >> rank:
            if bits >> rank & 1:
                start = rank
                while bits >> rank & 1:
                    rank += 1
                melds.append(Meld(tuple(card(SUIT_STRIDE * suit + r) for r in range(start, rank))))
            else:
                rank += 1
    return melds


def _run_mask(mask: int) -> int:
    out = 0
    for suit in range(4):
        shift = SUIT_STRIDE * suit
        out |= SUIT_RUN_BITS[(mask >> shift) & SUIT_BITS] << shift
    return out


def _sets_of(taken: int) -> list[Meld]:
    melds = []
    for rank in range(13):
        column = taken & (RANK_COLUMN << rank)
        if column:
            melds.append(Meld(tuple(sorted(cards_of(column), key=sort_key))))
    return melds


def arrangements(mask: int) -> list[Arrangement]:
    """Every way to meld these cards that melds all it can once the sets are chosen (one per set choice)."""
    a, b, c, d = mask & SUIT_BITS, (mask >> 16) & SUIT_BITS, (mask >> 32) & SUIT_BITS, mask >> 48
    triples = _triples(a, b, c, d)
    out = []
    for taken in _set_choices(mask, triples) if triples else (0,):
        rest = mask ^ taken
        runs = _run_mask(rest)
        deadwood = sorted(cards_of(rest ^ runs), key=sort_key)
        out.append(Arrangement(tuple(_sets_of(taken) + _runs_of(rest)), tuple(deadwood)))
    return out


def best_arrangements(mask: int) -> list[Arrangement]:
    """The arrangements with the least deadwood."""
    every = arrangements(mask)
    least = min(x.deadwood for x in every)
    return [x for x in every if x.deadwood == least]


@dataclass(frozen=True, slots=True)
class MeldAnalysis:
    """What a referee wants to know about 10 or 11 cards."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int
    discard: Card | None = None  # 11 cards: the card to discard (None for big gin: nothing is discarded)
    big_gin: bool | None = None  # 11 cards only

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "melds": [m.names() for m in self.melds],
            "deadwood_cards": [str(c) for c in self.deadwood_cards],
            "deadwood": self.deadwood,
        }
        if self.big_gin is not None:
            out["discard"] = str(self.discard) if self.discard is not None else None
            out["big_gin"] = self.big_gin
        return out


def _discard_from(arrangement: Arrangement) -> tuple[Card, Arrangement]:
    """Take the highest deadwood card out of an 11-card arrangement (ties: the higher rank)."""
    worst = max(arrangement.deadwood_cards, key=lambda c: (c.value, c.rank, -c.suit))
    rest = tuple(c for c in arrangement.deadwood_cards if c != worst)
    return worst, Arrangement(arrangement.melds, rest)


def analyse(cards: Hand | Iterable[object]) -> MeldAnalysis:
    """The melds, deadwood cards and count of 10 cards; of 11, after the best discard, and whether big gin."""
    hand = cards if type(cards) is Hand else parse_cards(cards, sizes=(10, 11))
    if len(hand) not in (10, 11):
        raise CardError(f"10 or 11 cards needed; {len(hand)} given")
    every = arrangements(hand.mask)
    if len(hand) == 10:
        best = min(every, key=lambda x: x.deadwood)
        return MeldAnalysis(best.melds, best.deadwood_cards, best.deadwood)
    melded = [x for x in every if not x.deadwood_cards]
    if melded:
        return MeldAnalysis(melded[0].melds, (), 0, None, True)
    options = [_discard_from(x) for x in every]
    discard, best = min(options, key=lambda pair: pair[1].deadwood)
    return MeldAnalysis(best.melds, best.deadwood_cards, best.deadwood, discard, False)


# ---------------------------------------------------------------------------------------------------
# Lay-offs


@dataclass(frozen=True, slots=True)
class LayOff:
    card: Card
    meld: Meld  # the knocker's meld as spread, which the card (and any chained before it) extends


@dataclass(frozen=True, slots=True)
class OpponentResult:
    melds: tuple[Meld, ...]
    layoffs: tuple[LayOff, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.deadwood_cards)


def _layoff_options(knocker_melds: Sequence[Meld], opponent_mask: int) -> list[list[tuple[LayOff, ...]]]:
    """Per place to lay off, the choices: nothing, or one more card at a time (chained along a run)."""
    places: list[list[tuple[LayOff, ...]]] = []
    for meld in knocker_melds:
        if meld.is_run:
            suit = meld.cards[0].suit
            low, high = meld.cards[0].rank, meld.cards[-1].rank
            for step, stop in ((-1, -1), (1, 13)):
                chain: list[LayOff] = []
                rank = (low if step < 0 else high) + step
                while rank != stop:
                    c = card(SUIT_STRIDE * suit + rank)
                    if not opponent_mask >> c & 1:
                        break
                    chain.append(LayOff(c, meld))
                    rank += step
                if chain:
                    places.append([tuple(chain[:n]) for n in range(len(chain) + 1)])
        elif len(meld.cards) == 3:
            rank = meld.cards[0].rank
            missing = RANK_COLUMN << rank & ~mask_of(meld.cards)
            if opponent_mask & missing:
                places.append([(), (LayOff(card(missing.bit_length() - 1), meld),)])
    return places


def best_layoffs(knocker_melds: Sequence[Meld], opponent: Hand) -> OpponentResult:
    """The opponent's least deadwood: its own melds plus lay-offs onto the knocker's melds.

    A card may leave the opponent's own meld to be laid off when that leaves less deadwood; among equal
    results the one with fewer lay-offs is taken (the opponent keeps its melds).
    """
    places = _layoff_options(knocker_melds, opponent.mask)
    best: tuple[int, int, tuple[LayOff, ...]] | None = None
    for combo in product(*places) if places else [()]:
        laid = tuple(lo for choice in combo for lo in choice)
        laid_mask = mask_of(lo.card for lo in laid)
        if laid_mask.bit_count() != len(laid):
            continue  # one card offered to two melds
        key = (deadwood_of_mask(opponent.mask & ~laid_mask), len(laid))
        if best is None or key < best[:2]:
            best = (*key, laid)
    assert best is not None
    laid = best[2]
    rest = opponent.mask & ~mask_of(lo.card for lo in laid)
    own = min(arrangements(rest), key=lambda x: x.deadwood) if rest else Arrangement((), ())
    return OpponentResult(own.melds, laid, own.deadwood_cards)


def opponent_without_layoffs(opponent: Hand) -> OpponentResult:
    own = min(arrangements(opponent.mask), key=lambda x: x.deadwood)
    return OpponentResult(own.melds, (), own.deadwood_cards)


@dataclass(frozen=True, slots=True)
class Spread:
    """One way the knocker may spread, and what each opponent (by key) makes of it."""

    arrangement: Arrangement | None  # None: a gin entered without the knocker's cards
    opponents: Mapping[str | None, OpponentResult]


def spreads(
    knocker: Hand, opponents: Mapping[str | None, Hand], *, declared: Arrangement | None = None
) -> list[Spread]:
    """The knocker's spread as declared, or each least-deadwood one, with every opponent's best lay-offs.

    Each opponent lays off onto the knocker's melds as spread and nothing else: with two opponents
    (Jersey) neither can use the other's melds or a card the other laid off, so each opponent's best
    is found on its own. Chaining onto one's own lay-offs is allowed, as in two-player gin.
    """
    candidates = [declared] if declared is not None else best_arrangements(knocker.mask)
    return [Spread(x, {key: best_layoffs(x.melds, hand) for key, hand in opponents.items()}) for x in candidates]


def knockers_choice(knocker: Hand, opponent: Hand | None) -> tuple[Arrangement, OpponentResult | None]:
    """Among the knocker's least-deadwood arrangements, the one leaving the opponent the most deadwood."""
    if opponent is None:
        return best_arrangements(knocker.mask)[0], None
    chosen = max(spreads(knocker, {None: opponent}), key=lambda s: s.opponents[None].deadwood)
    return chosen.arrangement, chosen.opponents[None]


def check_meld(cards: Sequence[Card]) -> Meld:
    """A declared meld, refused with the reason when it is not a set or a run."""
    ordered = tuple(sorted(cards, key=sort_key))
    if len(ordered) < 3:
        raise CardError(f"{' '.join(map(str, ordered)) or 'an empty meld'} is not a meld: a meld has 3 or more cards")
    ranks = {c.rank for c in ordered}
    suits = {c.suit for c in ordered}
    if len(ranks) == 1 and len(ordered) <= 4:
        return Meld(ordered)
    if len(suits) == 1:
        run = sorted(c.rank for c in ordered)
        if run == list(range(run[0], run[0] + len(run))):
            return Meld(tuple(sorted(ordered, key=lambda c: c.rank)))
    raise CardError(
        f"{' '.join(map(str, ordered))} is not a meld: a set is 3 or 4 cards of one rank, a run 3 or more "
        "cards in sequence in one suit (ace low)"
    )


def _names(cards: Iterable[Card] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


@dataclass(frozen=True, slots=True)
class CardReport:
    """What the engine found in a card-level hand, reported beside the counts.

    ``opponents`` holds what each opponent entered as cards made of the spread: the two-player
    opponent under the key None, Jersey's opponents under their names (None for one entered as a count).
    """

    knocker_melds: tuple[Meld, ...] | None
    knocker_deadwood_cards: tuple[Card, ...] | None
    opponents: Mapping[str | None, OpponentResult | None]

    def _knocker(self) -> dict[str, object]:
        return {
            "knocker_melds": None if self.knocker_melds is None else [m.names() for m in self.knocker_melds],
            "knocker_deadwood_cards": _names(self.knocker_deadwood_cards),
        }

    def as_dict(self) -> dict[str, object]:
        """The two-player fields of the score-sheet contract."""
        opp = self.opponents.get(None)
        return {
            **self._knocker(),
            "opponent_melds": None if opp is None else [m.names() for m in opp.melds],
            "layoffs": None if opp is None else _layoff_names(opp),
            "opponent_deadwood_cards": None if opp is None else _names(opp.deadwood_cards),
        }

    def as_jersey_dict(self) -> dict[str, object]:
        """Jersey's fields: the same findings per opponent, keyed by name."""
        opps = self.opponents
        return {
            **self._knocker(),
            "opponents_melds": {k: None if o is None else [m.names() for m in o.melds] for k, o in opps.items()},
            "opponents_layoffs": {k: None if o is None else _layoff_names(o) for k, o in opps.items()},
            "opponents_deadwood_cards": {k: None if o is None else _names(o.deadwood_cards) for k, o in opps.items()},
        }


def _layoff_names(result: OpponentResult) -> list[dict[str, object]]:
    return [{"card": str(lo.card), "meld": lo.meld.names()} for lo in result.layoffs]
