"""Jersey Gin with cards: each opponent lays off on its own onto the knocker's melds as spread.

Hand-made hands worked out from RULES.md, then random hands against the brute-force reference.
"""

import random

import pytest

from scoring.engine import SheetError, min_deadwood, score_sheet
from scoring.engine.cards import ALL_CARDS, parse_cards

from . import reference
from .test_formats import jersey


def card_knock(knocker_cards, conventions="classic", **opponents_cards):
    hand = {"result": "knock", "knocker": "A", "knocker_cards": knocker_cards.split(),
            "opponents_cards": {name: cards.split() for name, cards in opponents_cards.items()}}
    return jersey([hand], conventions)["hands"][0]


def only_error(hand, conventions="classic"):
    with pytest.raises(SheetError) as caught:
        jersey([hand], conventions)
    (problem,) = caught.value.problems
    return problem


def first_error(hand):
    with pytest.raises(SheetError) as caught:
        jersey([hand])
    return caught.value.problems[0]


# RULES.md's first example with cards. A: AS 2S 3S, 7H 7D 7C, JD QD KD and 5C.
# B lays 4S off onto AS 2S 3S, melds 8C 9C TC and 9H TH JH: 6D 4D 2C = 12 left.
# C melds 8D 9D TD and QS QH QC: 5S 6H 6C 3D = 20 left. C's 5S would follow B's 4S, but may not.
RULES_A = "AS 2S 3S 7H 7D 7C JD QD KD 5C"
RULES_B = "4S 8C 9C TC 9H TH JH 6D 4D 2C"
RULES_C = "5S 8D 9D TD QS QH QC 6H 6C 3D"


class TestHandMade:
    def test_the_rules_first_example_from_the_cards(self):
        hand = card_knock(RULES_A, B=RULES_B, C=RULES_C)
        assert hand["deadwood"] == {"A": 5, "B": 12, "C": 20}
        assert (hand["outcome"], hand["winner"], hand["points"]) == ("knock", "A", 7 + 15)
        assert hand["opponents_layoffs"] == {"B": [{"card": "4S", "meld": ["AS", "2S", "3S"]}], "C": []}
        assert "5S" in hand["opponents_deadwood_cards"]["C"]
        assert sorted(map(sorted, hand["opponents_melds"]["B"])) == [["8C", "9C", "TC"], ["9H", "JH", "TH"]]
        assert (hand["knocker_deadwood"], hand["knocker_deadwood_cards"]) == (5, ["5C"])

    def test_the_rules_undercut_example_from_the_cards(self):
        # A keeps 8H as deadwood: 8. B: 4S laid off, AC 2C 3H left: 6. C as before: 20.
        hand = card_knock("AS 2S 3S 7H 7D 7C JD QD KD 8H", B="4S 8C 9C TC 9H TH JH AC 2C 3H", C=RULES_C)
        assert hand["deadwood"] == {"A": 8, "B": 6, "C": 20}
        assert (hand["outcome"], hand["winner"], hand["points"], hand["penalised"], hand["penalty"]) == (
            "undercut", "B", 2 + 14, "A", 20)
        assert hand["totals"] == {"A": -20, "B": 16, "C": 0}

    def test_each_opponent_lays_off_onto_the_knockers_melds_only(self):
        # A: 5H 6H 7H, QS QD QC, 9D TD JD; AC = 1.
        # B lays 8H off (on 5H 6H 7H) and melds 2S 3S 4S and 6C 7C 8C: KS KD 2D = 22.
        # C lays off 4H 3H (down from 5H), QH (the fourth queen) and 8D (under 9D): allowed, the
        # knocker's melds. C may not lay 9H after B's 8H, 5S on B's 2S 3S 4S or 9C on B's 6C 7C 8C.
        hand = card_knock("5H 6H 7H QS QD QC 9D TD JD AC",
                          B="8H 2S 3S 4S 6C 7C 8C KS KD 2D", C="9H 5S 9C 4H 3H QH 8D KC KH 2C")
        assert sorted(lo["card"] for lo in hand["opponents_layoffs"]["C"]) == ["3H", "4H", "8D", "QH"]
        assert [lo["card"] for lo in hand["opponents_layoffs"]["B"]] == ["8H"]
        assert sorted(hand["opponents_deadwood_cards"]["C"]) == ["2C", "5S", "9C", "9H", "KC", "KH"]
        assert hand["deadwood"] == {"A": 1, "B": 22, "C": 9 + 5 + 9 + 10 + 10 + 2}
        assert hand["points"] == 21 + 44

    # A holds four 7s, four 8s, 9S and 9H: spread 7S 8S 9S with 7H 7D 7C and 8H 8D 8C (9H left), or
    # 7H 8H 9H with 7S 7D 7C and 8S 8D 8C (9S left): 9 either way. The first takes TS (B's), the second
    # 6H and TH (C's). B: AC 2C 3C, JD QD KD; TS 2H 3H 4S = 19, or 9 with TS laid off.
    # C: 4C 5C 6C, QS QH QC; 6H TH KH JC = 36, or 20 with 6H TH laid off.
    CHOICE = ("7S 7H 7D 7C 8S 8H 8D 8C 9S 9H", "TS AC 2C 3C JD QD KD 2H 3H 4S", "6H TH 4C 5C 6C QS QH QC KH JC")

    def test_the_knocker_spreads_what_is_best_for_the_knocker(self):
        # spades run: B 9 undercuts (a tie), scoring 0 + 27, A -20. Hearts run: A wins 10 + 11 = 21.
        knocker, b, c = self.CHOICE
        hand = card_knock(knocker, B=b, C=c)
        assert hand["deadwood"] == {"A": 9, "B": 19, "C": 20}
        assert (hand["winner"], hand["points"]) == ("A", 21)
        assert ["7H", "8H", "9H"] in hand["knocker_melds"]

    def test_under_the_knocker_tie_rule_the_other_spread_is_better(self):
        # spades run: the tie goes to A, who scores 0 + 27 = 27 > 21
        knocker, b, c = self.CHOICE
        hand = card_knock(knocker, {"preset": "classic", "tie_rule": "knocker"}, B=b, C=c)
        assert hand["deadwood"] == {"A": 9, "B": 9, "C": 36}
        assert (hand["outcome"], hand["winner"], hand["points"]) == ("knock", "A", 27)
        assert ["7S", "8S", "9S"] in hand["knocker_melds"]

    def test_counts_entered_beside_the_cards_say_which_spread_was_made(self):
        knocker, b, c = self.CHOICE
        hand = jersey([{"result": "knock", "knocker": "A", "knocker_cards": knocker.split(),
                        "opponents_cards": {"B": b.split(), "C": c.split()}, "deadwood": {"B": 9}}])["hands"][0]
        assert (hand["deadwood"], hand["winner"], hand["points"]) == ({"A": 9, "B": 9, "C": 36}, "B", 27)

    def test_declared_melds_are_taken_as_spread(self):
        _knocker, b, c = self.CHOICE
        hand = jersey([{"result": "knock", "knocker": "A", "knocker_melds": [
            ["7S", "8S", "9S"], ["7H", "7D", "7C"], ["8H", "8D", "8C"]], "knocker_deadwood_cards": ["9H"],
            "opponents_cards": {"B": b.split(), "C": c.split()}}])["hands"][0]
        assert (hand["deadwood"], hand["outcome"], hand["winner"]) == ({"A": 9, "B": 9, "C": 36}, "undercut", "B")

    def test_one_opponent_by_cards_the_other_by_count(self):
        hand = jersey([{"result": "knock", "knocker": "A", "knocker_cards": RULES_A.split(),
                        "opponents_cards": {"B": RULES_B.split()}, "deadwood": {"C": 30}}])["hands"][0]
        assert (hand["deadwood"], hand["points"]) == ({"A": 5, "B": 12, "C": 30}, 7 + 25)
        assert hand["opponents_melds"]["C"] is None

    def test_gin_allows_no_layoffs(self):
        # C goes gin with AS-4S, 7H 7D 7C, JD QD KD. A's 5S would follow 4S, but nothing is laid off after
        # gin: A keeps 5S 6D 4D 2C = 17; B melds 6S 6H 6C as well: 3D = 3.
        hand = jersey([{"result": "gin", "knocker": "C", "knocker_cards": "AS 2S 3S 4S 7H 7D 7C JD QD KD".split(),
                        "opponents_cards": {"A": "5S 8C 9C TC 9H TH JH 6D 4D 2C".split(),
                                            "B": "6S 8D 9D TD QS QH QC 6H 6C 3D".split()}}])["hands"][0]
        assert (hand["deadwood"], hand["outcome"], hand["points"]) == ({"C": 0, "A": 17, "B": 3}, "gin", 17 + 3 + 50)
        assert hand["opponents_layoffs"] == {"A": [], "B": []}

    def test_big_gin_takes_eleven_cards_and_scores_as_gin(self):
        # A melds all 11: AS-4S, 7S 7H 7D 7C, JD QD KD. B: 6S 6D 4D 2C = 18; C: 5S 6H 6C 3D = 20.
        hand = jersey([{"result": "big_gin", "knocker": "A",
                        "knocker_cards": "AS 2S 3S 4S 7H 7D 7C 7S JD QD KD".split(),
                        "opponents_cards": {"B": "6S 8C 9C TC 9H TH JH 6D 4D 2C".split(), "C": RULES_C.split()}},
                       ])["hands"][0]
        assert (hand["deadwood"], hand["outcome"], hand["points"]) == ({"A": 0, "B": 18, "C": 20}, "gin", 88)

    def test_an_oklahoma_upcard_limits_the_knock(self):
        problem = only_error({"result": "knock", "knocker": "A", "upcard": "4H", "knocker_cards": RULES_A.split(),
                              "opponents_cards": {"B": RULES_B.split(), "C": RULES_C.split()}}, "oklahoma")
        assert (problem.hand, problem.field, problem.message) == (
            1, "knocker_deadwood", "knock needs deadwood <= 4 (upcard 4H); 5 recorded")


def knock_hand(**fields):
    return {"result": "knock", "knocker": "A", "knocker_cards": RULES_A.split(),
            "opponents_cards": {"B": RULES_B.split(), "C": RULES_C.split()}, **fields}


class TestRefused:
    @pytest.mark.parametrize(
        ("hand", "field", "message"),
        [
            (knock_hand(deadwood={"B": 15}), "deadwood.B",
             "15 recorded, but B's cards leave 12 after lay-offs (4D 6D 2C)"),
            (knock_hand(knocker_deadwood=4), "knocker_deadwood", "4 recorded, but the knocker's cards leave 5 (5C)"),
            (knock_hand(opponents_cards={"B": RULES_B.split(), "C": ["4S", *RULES_C.split()[1:]]}),
             "opponents_cards.C", "4S cannot be in both B's and C's hands"),
            (knock_hand(opponents_cards={"B": ["5C", *RULES_B.split()[1:]], "C": RULES_C.split()}),
             "opponents_cards.B", "5C cannot be in both the knocker's and B's hands"),
            (knock_hand(opponents_cards={"B": RULES_B.split()[1:], "C": RULES_C.split()}),
             "opponents_cards.B", "10 cards needed; 9 given"),
            (knock_hand(opponents_cards={"A": RULES_B.split(), "C": RULES_C.split()}),
             "opponents_cards.A", "'A' is not an opponent of the knocker (B, C)"),
            (knock_hand(opponents_cards=["4S"]), "opponents_cards", "must be an object naming each opponent"),
            (knock_hand(opponents_cards={"B": RULES_B.split()}), "deadwood.C", "is required"),
            (knock_hand(opponent_cards=RULES_B.split()), "opponent_cards", "a Jersey hand has two opponents"),
            ({"result": "knock", "knocker": "A", "knocker_deadwood": 5,
              "opponents_cards": {"B": RULES_B.split(), "C": RULES_C.split()}},
             "opponents_cards.B", "the knocker's cards (knocker_cards or knocker_melds) are needed"),
            ({"result": "gin", "knocker": "A", "knocker_cards": RULES_A.split(), "deadwood": {"B": 1, "C": 2}},
             "knocker_cards", "gin needs all 10 cards melded; these leave 5 deadwood (5C)"),
            ({"result": "dead", "opponents_cards": {"B": RULES_B.split()}}, "opponents_cards",
             "a dead hand has no knocker"),
        ],
    )
    def test_a_bad_card_level_jersey_hand_is_refused_naming_the_field(self, hand, field, message):
        problem = first_error(hand)
        assert (problem.hand, problem.field) == (1, field)
        assert message in problem.message

    def test_two_player_hands_name_the_jersey_field(self):
        with pytest.raises(SheetError) as caught:
            score_sheet({"players": ["A", "B"], "hands": [knock_hand()]})
        assert caught.value.problems[0].field == "opponents_cards"


# ---------------------------------------------------------------------------------------------------
# Random hands against the brute-force reference

SEED = 20261123
RULES = [
    {"tie_rule": "undercut", "penalty": 20},
    {"tie_rule": "no_score", "penalty": 25},
    {"tie_rule": "knocker", "penalty": 20},
]


def random_deals(count, seed=SEED):
    """Deals made to exercise the rules: the knocker's 10 cards from a few neighbouring ranks (often
    with fours of a kind, so there are several spreads), least deadwood 10 or less; B's and C's from
    the rest of those ranks and a few others, often one of them close to the knocker's count."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        width = rng.choice((5, 6, 7))
        low = rng.randrange(0, 14 - width)
        pool = [c for c in ALL_CARDS if low <= c.rank < low + width]
        kind = rng.random()
        if kind < 0.25:  # two fours of a kind and two of the next rank: two spreads, different lay-offs
            rank = rng.randrange(low, low + width - 2)
            knocker = [c for c in pool if c.rank in (rank, rank + 1)]
            knocker += rng.sample([c for c in pool if c.rank == rank + 2], 2)
        elif kind < 0.55:
            rank = rng.randrange(low, low + width)
            knocker = [c for c in pool if c.rank == rank] + rng.sample([c for c in pool if c.rank != rank], 6)
        else:
            knocker = rng.sample(pool, 10)
        least = min_deadwood(knocker)
        if least > 10:
            continue
        rest = [c for c in pool if c not in knocker]
        rest += rng.sample([c for c in ALL_CARDS if c not in pool], max(0, 22 - len(rest)))
        close = rng.random() < 0.6  # undercuts and ties
        for _ in range(200):
            others = rng.sample(rest, 20)
            if not close or min(min_deadwood(others[:10]), min_deadwood(others[10:])) <= least + 6:
                break
        made += 1
        yield rng, knocker, {"B": others[:10], "C": others[10:]}


def names(cards):
    return [str(c) for c in cards]


def test_random_card_level_jersey_hands_agree_with_the_reference():
    for rng, knocker, opponents in random_deals(500):
        rules = rng.choice(RULES)
        conventions = {"preset": "classic", "tie_rule": rules["tie_rule"], "jersey_undercut_penalty": rules["penalty"]}
        request = {"format": "jersey", "conventions": conventions, "players": ["A", "B", "C"], "hands": [
            {"result": "knock" if reference.min_deadwood(knocker) else "gin", "knocker": "A",
             "knocker_cards": names(knocker), "opponents_cards": {p: names(c) for p, c in opponents.items()}}]}
        hand = score_sheet(request)["hands"][0]
        context = (names(knocker), {p: names(c) for p, c in opponents.items()}, rules)
        if hand["result"] == "gin":
            expected = {p: reference.min_deadwood(c) for p, c in opponents.items()}
            assert {p: hand["deadwood"][p] for p in "BC"} == expected, context
            assert (hand["winner"], hand["points"]) == ("A", sum(expected.values()) + 50), context
            continue
        _advantage, least, best = reference.jersey_knock(
            knocker, opponents, ["B", "C"], gin_bonus=50, tie_rule=rules["tie_rule"], penalty=rules["penalty"])
        assert hand["knocker_deadwood"] == least, context
        engine_deadwood = tuple(sorted((p, hand["deadwood"][p]) for p in "BC"))
        winner = None if hand["winner"] is None else "knocker" if hand["winner"] == "A" else hand["winner"]
        assert (engine_deadwood, winner, hand["points"], hand["penalty"]) in best, (context, hand, best)
        check_reported_spread(hand, knocker, opponents, context)


def check_reported_spread(hand, knocker, opponents, context):
    """What the engine reports is a legal spread and legal lay-offs, and leaves what it counts."""
    melds = [frozenset(parse_cards(m).cards) for m in hand["knocker_melds"]]
    spread = [c for m in melds for c in m] + list(parse_cards(hand["knocker_deadwood_cards"]).cards)
    assert sorted(spread) == sorted(knocker), context
    for name, cards in opponents.items():
        laid = list(parse_cards([lo["card"] for lo in hand["opponents_layoffs"][name]]).cards)
        own = [c for m in hand["opponents_melds"][name] for c in parse_cards(m).cards]
        left = list(parse_cards(hand["opponents_deadwood_cards"][name]).cards)
        assert sorted(laid + own + left) == sorted(cards), context
        assert not laid or reference.layable(laid, melds), context
        assert sum(c.value for c in left) == hand["deadwood"][name] == reference.jersey_layoffs(
            melds, {name: cards})[name], context


def test_random_declared_spreads_agree_with_the_reference():
    for rng, knocker, opponents in random_deals(150, seed=SEED + 1):
        parts = list(reference.partitions(knocker))
        least = min(sum(c.value for c in dead) for _melds, dead in parts)
        if least == 0:
            continue
        melds, dead = rng.choice([p for p in parts if sum(c.value for c in p[1]) == least])
        hand = score_sheet({"format": "jersey", "players": ["A", "B", "C"], "hands": [
            {"result": "knock", "knocker": "A", "knocker_melds": [names(m) for m in melds],
             "knocker_deadwood_cards": names(dead), "opponents_cards": {p: names(c) for p, c in opponents.items()}}]}
        )["hands"][0]
        expected = reference.jersey_layoffs(melds, opponents)
        winner, points, penalty = reference.jersey_score(
            least, expected, ["B", "C"], gin=False, tie_rule="undercut", penalty=20, gin_bonus=50)
        assert {p: hand["deadwood"][p] for p in "BC"} == expected, (names(knocker), melds)
        assert (hand["points"], hand["penalty"]) == (points, penalty)
        assert hand["winner"] == ("A" if winner == "knocker" else winner)
