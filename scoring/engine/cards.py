"""Cards in the notation of RULES.md and the engine's own compact forms of them.

A card is a small int, ``suit * 16 + rank`` (rank 0 = ace .. 12 = king; suits in the order S H D C),
wrapped in :class:`Card` so it prints as ``7S``. A group of cards is also kept as a bitmask with one
bit per card: each suit owns 16 bits, so ``(mask >> 16 * suit) & 0x1FFF`` is that suit's ranks. The
meld code indexes its precomputed tables with those per-suit masks, which is what makes it fast.

This module must not know about melds, scoring or conventions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_STRIDE = 16
SUIT_BITS = 0x1FFF
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
SPADES = SUITS.index("S")


class CardError(ValueError):
    """A card token or a group of cards that is not acceptable; the message is for a referee."""


class Card(int):
    """One of the 52 cards; an int so that it is cheap to store, hash and turn into a bit."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        return self & 0xF

    @property
    def suit(self) -> int:
        return self >> 4

    @property
    def value(self) -> int:
        return RANK_VALUES[self & 0xF]

    @property
    def bit(self) -> int:
        return 1 << int(self)

    def __str__(self) -> str:
        return RANKS[self & 0xF] + SUITS[self >> 4]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


ALL_CARDS: tuple[Card, ...] = tuple(Card(s * SUIT_STRIDE + r) for s in range(4) for r in range(13))
_BY_INT = {int(c): c for c in ALL_CARDS}


def _spellings() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in ALL_CARDS:
        ranks = [RANKS[card.rank]] + (["10"] if RANKS[card.rank] == "T" else [])
        suits = [SUITS[card.suit]] + [sym for sym, s in SUIT_SYMBOLS.items() if s == SUITS[card.suit]]
        for rank in ranks:
            for suit in suits:
                table[rank + suit] = card
    return table


_BY_TOKEN = _spellings()


def card(index: int) -> Card:
    """The card with this int form (``suit * 16 + rank``)."""
    return _BY_INT[index]


def parse_card(token: object) -> Card:
    """One card from its notation (``AS``, ``TH``, ``10h``, ``7♠``); case and spaces do not matter."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(f"{token!r} is not a card: write a rank and a suit, like 7S or TH")
    found = _BY_TOKEN.get(token.strip().upper())
    if found is None:
        raise CardError(
            f"{token!r} is not a card: write a rank (A 2-9 T/10 J Q K) and a suit (S H D C), like 7S or TH"
        )
    return found


@dataclass(frozen=True, slots=True)
class Hand:
    """Cards with their bitmask, per-suit masks and count: what :func:`parse_cards` gives the meld code.

    The per-suit masks are small ints (13 bits each): reading them is cheaper than shifting the 64-bit
    mask, which matters when a whole deal of hands is solved.
    """

    cards: tuple[Card, ...]
    mask: int
    suits: tuple[int, int, int, int]
    size: int

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Hand:
        cards = tuple(cards)
        mask = 0
        for c in cards:
            mask |= 1 << c
        suits = tuple((mask >> (SUIT_STRIDE * s)) & SUIT_BITS for s in range(4))
        return cls(cards, mask, suits, len(cards))  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)


def parse_cards(tokens: Iterable[object] | Hand, *, sizes: Iterable[int] | None = None) -> Hand:
    """Cards from their notation, refusing bad tokens, duplicates and (with ``sizes``) a wrong count."""
    if isinstance(tokens, Hand):
        cards = list(tokens.cards)
    elif isinstance(tokens, str | bytes) or not isinstance(tokens, Iterable):
        raise CardError("cards must be a list of card names, like [\"7S\", \"8S\", \"9S\"]")
    else:
        cards = []
        for position, token in enumerate(tokens, start=1):
            try:
                cards.append(parse_card(token))
            except CardError as exc:
                raise CardError(f"card {position}: {exc}") from None
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"{c} appears twice; a deck has one of each card")
        seen.add(c)
    if sizes is not None:
        allowed = sorted(set(sizes))
        if len(cards) not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            raise CardError(f"{wanted} cards needed; {len(cards)} given")
    return Hand.of(cards)


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask, in suit then rank order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_BY_INT[low.bit_length() - 1])
        mask ^= low
    return out


def sort_key(c: Card) -> tuple[int, int]:
    return (c.suit, c.rank)
