"""A deliberately slow, obviously-correct reference solver to check the fast one against.

It lists every meld a group of cards contains and searches every way to use them; lay-offs try every
subset of the opponent's cards and every assignment of them to the knocker's melds.
"""

from functools import cache
from itertools import combinations, product

from scoring.engine.cards import Card


def all_melds(cards):
    cards = frozenset(cards)
    melds = []
    for rank in range(13):
        same = [c for c in cards if c.rank == rank]
        for size in (3, 4):
            melds += [frozenset(m) for m in combinations(same, size)]
    for suit in range(4):
        ranks = sorted(c.rank for c in cards if c.suit == suit)
        have = set(ranks)
        for low in ranks:
            high = low
            while high + 1 in have:
                high += 1
                if high - low >= 2:
                    melds.append(frozenset(Card(suit * 16 + r) for r in range(low, high + 1)))
    return melds


def partitions(cards):
    """Every (melds, deadwood) split of the cards."""
    cards = frozenset(cards)
    melds = all_melds(cards)

    def go(remaining):
        if not remaining:
            yield (), ()
            return
        first = min(remaining)
        for melds_rest, dead_rest in go(remaining - {first}):
            yield melds_rest, (first, *dead_rest)
        for m in melds:
            if first in m and m <= remaining:
                for melds_rest, dead_rest in go(remaining - m):
                    yield (m, *melds_rest), dead_rest

    yield from go(cards)


def min_deadwood(cards):
    melds = all_melds(cards)

    @cache
    def go(remaining):
        if not remaining:
            return 0
        first = min(remaining)
        best = first.value + go(remaining - {first})
        for m in melds:
            if first in m and m <= remaining:
                best = min(best, go(remaining - m))
        return best

    return go(frozenset(cards))


def min_deadwood_after_discard(cards):
    return min(min_deadwood(set(cards) - {c}) for c in cards)


def _extends(card, meld):
    meld = sorted(meld, key=lambda c: (c.suit, c.rank))
    if len({c.rank for c in meld}) == 1:
        return len(meld) == 3 and card.rank == meld[0].rank
    return card.suit == meld[0].suit


def _valid(meld, added):
    if not added:
        return True
    if len({c.rank for c in meld}) == 1:
        return len(added) == 1
    ranks = sorted(c.rank for c in (*meld, *added))
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def layable(cards, knocker_melds):
    choices = [[m for m in knocker_melds if _extends(c, m)] for c in cards]
    if any(not ch for ch in choices):
        return False
    for assignment in product(*choices):
        ok = all(_valid(m, [c for c, a in zip(cards, assignment, strict=True) if a is m]) for m in knocker_melds)
        if ok:
            return True
    return False


def opponent_deadwood(knocker_melds, opponent_cards):
    candidates = [c for c in opponent_cards if any(_extends(c, m) for m in knocker_melds)]
    best = min_deadwood(opponent_cards)
    for size in range(1, len(candidates) + 1):
        for laid in combinations(candidates, size):
            if layable(laid, knocker_melds):
                best = min(best, min_deadwood(set(opponent_cards) - set(laid)))
    return best


# ---------------------------------------------------------------------------------------------------
# Jersey Gin: three players, each opponent laying off on its own


def jersey_score(knocker_deadwood, deadwood, seated, *, gin, tie_rule, penalty, gin_bonus):
    """RULES.md's Jersey hand, plainly: (winner, points, penalty); winner "knocker", an opponent or None.

    ``deadwood`` maps the two opponents to their counts, ``seated`` lists them in seat order after the
    knocker (the first wins a tied undercut).
    """
    if gin:
        return "knocker", sum(deadwood.values()) + gin_bonus, 0
    low = min(deadwood.values())
    lowest = next(p for p in seated if deadwood[p] == low)
    if low < knocker_deadwood or (low == knocker_deadwood and tie_rule == "undercut"):
        others = sum(d - low for p, d in deadwood.items() if p != lowest)
        return lowest, knocker_deadwood - low + others, penalty
    if low == knocker_deadwood and tie_rule == "no_score":
        return None, 0, 0
    return "knocker", sum(d - knocker_deadwood for d in deadwood.values()), 0


def jersey_layoffs(knocker_melds, opponents):
    """Each opponent's least deadwood when it may lay off onto the knocker's melds as spread and onto
    nothing else: every subset of its own cards is tried against those melds alone, so no opponent can
    use the other's melds or a card the other laid off."""
    return {name: opponent_deadwood(knocker_melds, cards) for name, cards in opponents.items()}


def jersey_knock(knocker_cards, opponents, seated, **rules):
    """The knocker's best spread over every partition of the knocker's cards with the least deadwood.

    Returns (advantage, knocker deadwood, [(opponents' deadwood, winner, points, penalty), ...]) for
    every spread of that best advantage: the knocker's points, or when undercut the penalty and the
    undercutter's points as a loss (a win worth 0 ranks above a no-score tie).
    """
    parts = list(partitions(knocker_cards))
    least = min(sum(c.value for c in dead) for _melds, dead in parts)
    found = {}
    for melds, dead in parts:
        if sum(c.value for c in dead) != least:
            continue
        deadwood = jersey_layoffs(melds, opponents)
        winner, points, penalty = jersey_score(least, deadwood, seated, gin=False, **rules)
        advantage = (points, True) if winner == "knocker" else (-penalty - points, False)
        found.setdefault(advantage, set()).add((tuple(sorted(deadwood.items())), winner, points, penalty))
    best = max(found)
    return best, least, found[best]
