"""Card-level hands in the score-sheet contract: the engine finds melds, deadwood and lay-offs."""

import pytest

from scoring.engine import SheetError

from .helpers import score

KNOCKER = "AS 2S 3S 7H 7D 7C JD QD KD 9C".split()  # 9 deadwood
OPPONENT = "4S 5S 8C 8H 8D 2C 3C TH 9H 6D".split()


def card_knock(**extra):
    return {"result": "knock", "knocker": "A", "knocker_cards": KNOCKER, "opponent_cards": OPPONENT, **extra}


def only_error(conventions, hands):
    with pytest.raises(SheetError) as caught:
        score(conventions, hands)
    (problem,) = caught.value.problems
    return problem


def test_a_card_level_knock_reports_melds_layoffs_and_deadwood_cards():
    hand = score("classic", [card_knock()])["hands"][0]
    assert (hand["knocker_deadwood"], hand["knocker_deadwood_cards"]) == (9, ["9C"])
    assert sorted(map(tuple, hand["knocker_melds"])) == [("7H", "7D", "7C"), ("AS", "2S", "3S"), ("JD", "QD", "KD")]
    # 4S 5S chain onto AS 2S 3S; 8H 9H TH meld; 8C 8D 2C 3C 6D are left: 27
    assert hand["layoffs"] == [{"card": "4S", "meld": ["AS", "2S", "3S"]}, {"card": "5S", "meld": ["AS", "2S", "3S"]}]
    assert hand["opponent_melds"] == [["8H", "9H", "TH"]]
    assert sorted(hand["opponent_deadwood_cards"]) == ["2C", "3C", "6D", "8C", "8D"]
    assert (hand["opponent_deadwood"], hand["outcome"], hand["points"]) == (27, "knock", 18)


def test_counts_given_beside_the_cards_must_agree():
    problem = only_error("classic", [card_knock(opponent_deadwood=36)])
    assert (problem.hand, problem.field) == (1, "opponent_deadwood")
    assert problem.message == "36 recorded, but the opponent's cards leave 27 after lay-offs (6D 8D 2C 3C 8C)"
    problem = only_error("classic", [card_knock(knocker_deadwood=8)])
    assert problem.message == "8 recorded, but the knocker's cards leave 9 (9C)"


def test_agreeing_counts_are_accepted():
    assert score("classic", [card_knock(knocker_deadwood=9, opponent_deadwood=27)])["hands"][0]["points"] == 18


def test_declared_melds_are_used_as_declared_even_when_not_the_best():
    # 7S could join 7H 7D 7C, but the knocker spread it as deadwood: deadwood counted as declared
    declared = {"result": "knock", "knocker": "A", "knocker_melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"],
                                                                   ["JD", "QD", "KD"]],
                "knocker_deadwood_cards": ["7S"], "opponent_deadwood": 30}
    hand = score("classic", [declared])["hands"][0]
    assert (hand["knocker_deadwood"], hand["knocker_deadwood_cards"], hand["points"]) == (7, ["7S"], 23)


def test_a_declared_meld_that_is_not_a_meld_is_refused():
    problem = only_error("classic", [{"result": "knock", "knocker": "A",
                                      "knocker_melds": [["AS", "2S", "4S"], ["7H", "7D", "7C"], ["JD", "QD", "KD"]],
                                      "knocker_deadwood_cards": ["9C"], "opponent_deadwood": 30}])
    assert problem.field == "knocker_melds[0]"
    assert problem.message.startswith("AS 2S 4S is not a meld")


def test_a_card_in_both_hands_is_refused():
    problem = only_error("classic", [card_knock(opponent_cards=["9C", *OPPONENT[1:]])])
    assert (problem.field, problem.message) == ("opponent_cards",
                                                "9C cannot be in both the knocker's and the opponent's hands")


def test_duplicate_and_bad_cards_are_refused():
    assert only_error("classic", [card_knock(knocker_cards=["AS", "AS", *KNOCKER[2:]])]).message == (
        "AS appears twice; a deck has one of each card")
    problem = only_error("classic", [card_knock(knocker_cards=["XX", *KNOCKER[1:]])])
    assert (problem.field, problem.message[:22]) == ("knocker_cards", "card 1: 'XX' is not a ")


def test_a_knock_over_the_limit_is_found_from_the_cards():
    cards = "AS 2S 3S 7H 7D 7C JD QD 9C 4H".split()  # 9 + 10 + 10 + 4 = 33
    problem = only_error("classic", [card_knock(knocker_cards=cards)])
    assert (problem.field, problem.message) == ("knocker_deadwood", "knock needs deadwood <= 10; 33 recorded")


def test_the_oklahoma_upcard_limits_a_card_level_knock():
    problem = only_error("oklahoma", [card_knock(upcard="5H")])
    assert problem.message == "knock needs deadwood <= 5 (upcard 5H); 9 recorded"


def test_gin_from_the_cards_allows_no_layoffs():
    gin_cards = "AS 2S 3S 7H 7D 7C JD QD KD TD".split()
    hand = score("classic", [{"result": "gin", "knocker": "A", "knocker_cards": gin_cards,
                              "opponent_cards": OPPONENT}])["hands"][0]
    assert hand["layoffs"] == []
    # without lay-offs 4S 5S stay deadwood: 8C 8D 2C 3C 6D 4S 5S = 36
    assert (hand["opponent_deadwood"], hand["points"]) == (36, 56)


def test_gin_with_deadwood_in_the_cards_is_refused():
    problem = only_error("classic", [{"result": "gin", "knocker": "A", "knocker_cards": KNOCKER,
                                      "opponent_deadwood": 20}])
    assert problem.field == "knocker_cards"
    assert problem.message == "gin needs all 10 cards melded; these leave 9 deadwood (9C)"


def test_big_gin_takes_eleven_cards_all_melded():
    eleven = "AS 2S 3S 7S 7H 7D 7C JD QD KD TD".split()
    hand = score("modern", [{"result": "big_gin", "knocker": "A", "knocker_cards": eleven,
                             "opponent_cards": OPPONENT}])["hands"][0]
    assert (hand["outcome"], hand["opponent_deadwood"], hand["points"]) == ("big_gin", 36, 86)
    problem = only_error("modern", [{"result": "big_gin", "knocker": "A", "knocker_cards": KNOCKER,
                                     "opponent_deadwood": 3}])
    assert problem.message == "11 cards needed; 10 given"


def test_opponent_cards_of_a_knock_need_the_knockers_cards():
    problem = only_error("classic", [{"result": "knock", "knocker": "A", "knocker_deadwood": 5,
                                      "opponent_cards": OPPONENT}])
    assert problem.field == "opponent_cards"


def test_a_card_level_knock_that_is_undercut():
    knocker = "AS 2S 3S 7H 7D 7C JD QD KD 9C".split()
    opponent = "4S 5S 6S 8H 9H TH 2C 3C 4C 5D".split()  # all laid off or melded but 5D: 5
    hand = score("classic", [card_knock(knocker_cards=knocker, opponent_cards=opponent)])["hands"][0]
    assert (hand["opponent_deadwood"], hand["outcome"], hand["winner"], hand["points"]) == (5, "undercut", "B", 14)
