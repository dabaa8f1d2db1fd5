"""Two-player games scored hand by hand: every figure below was worked out by hand from RULES.md."""

import pytest

from scoring.engine import SheetError

from .helpers import big_gin, dead, gin, knock, score

# Source 004's worked game: "we" win a hand for 34, "they" win two (12, 19), then "we" win three more
# and reach 105.
PARLETT_GAME = [
    knock("We", 2, 36),  # 34
    knock("They", 3, 15),  # 12
    knock("They", 1, 20),  # 19 -> They 31
    gin("We", 5),  # 25 -> We 59
    knock("We", 4, 30),  # 26 -> We 85
    knock("We", 2, 22),  # 20 -> We 105
]


def test_source_004_worked_game_pays_214_under_parlett():
    answer = score("parlett", PARLETT_GAME, players=("We", "They"))
    assert answer["complete"] is True
    assert answer["winner"] == "We"
    we, they = answer["players"]["We"], answer["players"]["They"]
    assert (we["points"], we["hands_won"], we["box_bonus"], we["game_bonus"], we["shutout_bonus"]) == (
        105, 4, 40, 100, 0)
    assert we["total"] == 245
    assert they["total"] == 31
    assert answer["margin"] == 214


@pytest.mark.parametrize(
    ("preset", "margin"),
    [
        # (105 - 31) + 100 game + boxes: per hand 4 v 2 boxes of 20 or 25; gin bonus 20 or 25 moves 105.
        ("classic", 105 + 80 + 100 - (31 + 40)),
        ("online", 110 + 100 + 100 - (31 + 50)),
        ("modern", 110 + 100 + 100 - (31 + 50)),
        ("cardgames", 110 + 100 + 100 - (31 + 50)),
    ],
)
def test_the_worked_game_under_the_per_hand_presets(preset, margin):
    answer = score(preset, PARLETT_GAME, players=("We", "They"))
    assert answer["margin"] == margin


def test_the_sheet_example_of_the_contract():
    answer = score("classic", [knock("Ann", 6, 19), gin("Bob", 31), big_gin("Bob", 12), dead()],
                   players=("Ann", "Bob"), first_dealer="Ann")
    first = answer["hands"][0]
    assert (first["dealer"], first["outcome"], first["winner"], first["points"], first["boxes"]) == (
        "Ann", "knock", "Ann", 13, 1)
    assert first["totals"] == {"Ann": 13, "Bob": 0}
    # gin 31 + 20; big gin is plain gin under classic: 12 + 20
    assert [h["points"] for h in answer["hands"]] == [13, 51, 32, 0]
    assert [h["outcome"] for h in answer["hands"]] == ["knock", "gin", "gin", "dead"]
    assert answer["players"]["Bob"] == {"points": 83, "hands_won": 2, "boxes": 2, "box_bonus": 40,
                                        "game_bonus": 0, "shutout_bonus": 0, "total": 123}
    assert (answer["complete"], answer["winner"], answer["margin"]) == (False, None, None)


# A wins every hand: knock 5 v 45 (40), gin v 30, knock 2 v 14 (12).
SHUTOUT_HANDS = [knock("A", 5, 45), gin("A", 30), knock("A", 2, 14)]


@pytest.mark.parametrize(
    ("conventions", "points", "box_bonus", "shutout_bonus", "total"),
    [
        ("classic", 102, 60, 100, 362),  # game bonus doubled: 200
        ({"preset": "classic", "shutout": "double_total"}, 102, 60, 262, 524),
        ("modern", 107, 75, 107, 389),  # gin 25; hand points doubled before bonuses
        ("cardgames", 107, 75, 107, 389),  # won every hand, none dead: still a shutout
        ("parlett", 102, 60, 102, 364),  # net boxes 3 - 0; the difference 102 - 0 doubled
        ({"preset": "classic", "shutout": "none"}, 102, 60, 0, 262),
        ("online", 107, 75, 100, 382),
    ],
)
def test_each_shutout_variant(conventions, points, box_bonus, shutout_bonus, total):
    answer = score(conventions, SHUTOUT_HANDS)
    a = answer["players"]["A"]
    assert (a["points"], a["box_bonus"], a["game_bonus"], a["shutout_bonus"], a["total"]) == (
        points, box_bonus, 100, shutout_bonus, total)
    assert answer["players"]["B"]["total"] == 0
    assert answer["margin"] == total


def test_cardgames_shutout_is_lost_by_a_dead_hand():
    answer = score("cardgames", [SHUTOUT_HANDS[0], dead(), *SHUTOUT_HANDS[1:]])
    a = answer["players"]["A"]
    assert (a["shutout_bonus"], a["total"]) == (0, 107 + 75 + 100)


def test_modern_shutout_survives_a_dead_hand():
    answer = score("modern", [SHUTOUT_HANDS[0], dead(), *SHUTOUT_HANDS[1:]])
    assert answer["players"]["A"]["shutout_bonus"] == 107


def test_no_shutout_once_the_loser_has_scored():
    answer = score("classic", [knock("B", 3, 4), *SHUTOUT_HANDS])
    a, b = answer["players"]["A"], answer["players"]["B"]
    assert (a["shutout_bonus"], a["total"]) == (0, 102 + 60 + 100)
    assert b["total"] == 1 + 20
    assert answer["margin"] == 262 - 21


def test_undercut_scores_the_difference_plus_the_bonus_for_the_opponent():
    answer = score("classic", [knock("A", 9, 4)])
    hand = answer["hands"][0]
    assert (hand["outcome"], hand["winner"], hand["points"]) == ("undercut", "B", 5 + 10)


@pytest.mark.parametrize(("preset", "points"), [("classic", 10), ("online", 25), ("parlett", 20), ("modern", 15)])
def test_a_tie_under_the_undercut_rule_is_an_undercut_worth_the_bonus(preset, points):
    hand = score(preset, [knock("A", 7, 7)])["hands"][0]
    assert (hand["outcome"], hand["winner"], hand["points"], hand["boxes"]) == ("undercut", "B", points, 1)


def test_a_tie_under_the_no_score_rule_scores_nothing_for_either():
    answer = score({"preset": "classic", "tie_rule": "no_score"}, [knock("A", 7, 7)])
    hand = answer["hands"][0]
    assert (hand["outcome"], hand["winner"], hand["points"], hand["boxes"]) == ("tie", None, 0, 0)
    assert answer["players"]["A"]["total"] == answer["players"]["B"]["total"] == 0


def test_gin_is_never_undercut_even_by_zero():
    hand = score("classic", [gin("A", 0)])["hands"][0]
    assert (hand["outcome"], hand["winner"], hand["points"]) == ("gin", "A", 20)


@pytest.mark.parametrize(
    ("preset", "outcome", "points"),
    [("classic", "gin", 32), ("cardgames", "big_gin", 43), ("modern", "big_gin", 62), ("online", "gin", 37),
     ("parlett", "gin", 32), ("oklahoma", "gin", 32)],
)
def test_big_gin_per_preset(preset, outcome, points):
    hand = score(preset, [big_gin("A", 12, upcard="9H")])["hands"][0]
    assert (hand["result"], hand["outcome"], hand["points"]) == ("big_gin", outcome, points)


def test_knock_limit_is_enforced_and_the_error_names_hand_and_field():
    with pytest.raises(SheetError) as caught:
        score("classic", [knock("A", 3, 20), knock("B", 11, 20)])
    assert caught.value.as_dict() == {"errors": [
        {"hand": 2, "field": "knocker_deadwood", "message": "knock needs deadwood <= 10; 11 recorded"}]}


def test_gin_only_play_refuses_any_knock():
    with pytest.raises(SheetError, match="allow only gin"):
        score({"preset": "classic", "knock_limit": 0}, [knock("A", 1, 20)])
    assert score({"preset": "classic", "knock_limit": 0}, [gin("A", 20)])["hands"][0]["points"] == 40


def test_the_game_ends_on_exactly_the_hand_that_reaches_the_target():
    hands = [knock("A", 1, 50), knock("A", 1, 49), knock("B", 2, 10)]  # 49, 48 -> 97, then B 8
    assert score("classic", hands)["complete"] is False
    answer = score("classic", [*hands, knock("A", 1, 4)])  # +3 -> exactly 100
    assert (answer["complete"], answer["winner"], answer["next_dealer"]) == (True, "A", None)
    with pytest.raises(SheetError) as caught:
        score("classic", [*hands, knock("A", 1, 4), knock("B", 1, 30)])
    (problem,) = caught.value.problems
    assert problem.hand == 5
    assert "already complete after hand 4" in problem.message


class TestOklahoma:
    def test_the_upcard_sets_the_knock_limit(self):
        assert score("oklahoma", [knock("A", 7, 20, upcard="7H")])["hands"][0]["points"] == 13
        with pytest.raises(SheetError) as caught:
            score("oklahoma", [knock("A", 8, 20, upcard="7H")])
        assert caught.value.problems[0].message == "knock needs deadwood <= 7 (upcard 7H); 8 recorded"

    def test_a_picture_upcard_allows_ten(self):
        assert score("oklahoma", [knock("A", 10, 20, upcard="KD")])["hands"][0]["knock_limit"] == 10

    def test_an_ace_means_gin_only_or_one(self):
        with pytest.raises(SheetError, match="allows only gin"):
            score("oklahoma", [knock("A", 1, 20, upcard="AH")])
        assert score("oklahoma", [gin("A", 20, upcard="AH")])["hands"][0]["points"] == 40
        one = {"preset": "oklahoma", "oklahoma_ace": "one"}
        assert score(one, [knock("A", 1, 20, upcard="AH")])["hands"][0]["points"] == 19

    def test_a_spade_upcard_doubles_everything_bonuses_included(self):
        answer = score("oklahoma", [knock("A", 3, 20, upcard="5S"), gin("B", 10, upcard="QS"),
                                    knock("A", 6, 2, upcard="9S")])
        # 17 x 2; (10 + 20) x 2; undercut (4 + 10) x 2
        assert [h["points"] for h in answer["hands"]] == [34, 60, 28]
        assert [h["multiplier"] for h in answer["hands"]] == [2, 2, 2]

    def test_spades_do_not_double_when_the_club_says_so(self):
        conv = {"preset": "oklahoma", "spade_doubles": False}
        assert score(conv, [knock("A", 3, 20, upcard="5S")])["hands"][0]["points"] == 17

    def test_extra_boxes_undercut_one_gin_two_doubled_on_spades(self):
        conv = {"preset": "oklahoma", "oklahoma_extra_boxes": True}
        answer = score(conv, [knock("A", 3, 20, upcard="5H"), knock("A", 6, 2, upcard="9H"),
                              gin("A", 5, upcard="7D"), knock("A", 6, 2, upcard="9S"), gin("B", 5, upcard="7S")])
        assert [h["boxes"] for h in answer["hands"]] == [1, 2, 3, 3, 5]
        assert answer["players"]["B"]["boxes"] == 2 + 3 + 5
        assert answer["players"]["B"]["box_bonus"] == 200

    def test_target_is_150(self):
        hands = [gin("A", 98, upcard="2H"), knock("A", 1, 30, upcard="TH")]  # 118 + 29 = 147
        assert score("oklahoma", hands)["complete"] is False
        assert score("oklahoma", [*hands, knock("A", 1, 4, upcard="TH")])["winner"] == "A"

    def test_a_hand_without_its_upcard_is_refused(self):
        with pytest.raises(SheetError) as caught:
            score("oklahoma", [knock("A", 3, 20)])
        assert (caught.value.problems[0].hand, caught.value.problems[0].field) == (1, "upcard")

    def test_a_dead_hand_may_omit_the_upcard(self):
        assert score("oklahoma", [dead()])["hands"][0]["outcome"] == "dead"

    def test_a_bad_upcard_is_refused(self):
        with pytest.raises(SheetError) as caught:
            score("oklahoma", [knock("A", 3, 20, upcard="1X")])
        assert caught.value.problems[0].field == "upcard"


# A wins, B wins, dead hand, A wins (first dealer A); the dealers of the four hands and the next one.
DEALER_HANDS = [knock("A", 2, 10), knock("B", 2, 10), dead(), knock("A", 2, 10)]


@pytest.mark.parametrize(
    ("dealer_rule", "dead_hand_rule", "dealers", "next_dealer"),
    [
        ("alternate", "same_dealer", ["A", "B", "A", "A"], "B"),
        ("alternate", "pass_deal", ["A", "B", "A", "B"], "A"),
        ("loser_deals", "same_dealer", ["A", "B", "A", "A"], "B"),
        ("loser_deals", "pass_deal", ["A", "B", "A", "B"], "B"),
        ("winner_deals", "same_dealer", ["A", "A", "B", "B"], "A"),
        ("winner_deals", "pass_deal", ["A", "A", "B", "A"], "A"),
    ],
)
def test_each_dealer_rule_with_each_dead_hand_rule(dealer_rule, dead_hand_rule, dealers, next_dealer):
    conv = {"preset": "classic", "dealer_rule": dealer_rule, "dead_hand_rule": dead_hand_rule}
    answer = score(conv, DEALER_HANDS, first_dealer="A")
    assert [h["dealer"] for h in answer["hands"]] == dealers
    assert answer["next_dealer"] == next_dealer


def test_first_dealer_defaults_to_the_first_player():
    assert score("classic", [dead()], players=("Zoe", "Abe"))["hands"][0]["dealer"] == "Zoe"


def test_a_no_score_tie_passes_the_deal_like_a_dead_hand():
    conv = {"preset": "classic", "tie_rule": "no_score", "dead_hand_rule": "pass_deal"}
    assert score(conv, [knock("A", 5, 5)], first_dealer="A")["next_dealer"] == "B"
