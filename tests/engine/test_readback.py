"""A scored hand read back in words; the likely accepter first; what a game's conventions change."""

from scoring.engine import score_sheet
from scoring.engine.acceptance import likely_accepters, losing_side
from scoring.engine.conventions import FIELD_NAMES, field_specs, overrides_of, resolve_conventions
from scoring.engine.readback import describe_hand

from .helpers import dead, gin, knock


def only_hand(hands, conventions="classic", players=("Ann", "Bob"), **extra):
    return score_sheet({"conventions": conventions, "players": list(players), "hands": hands, **extra})["hands"][-1]


def test_an_undercut_is_read_back_with_the_engines_numbers():
    scored = only_hand([knock("Bob", 8, 8)])
    assert describe_hand(scored) == "Bob knocks with 8, Ann has 8: undercut, Ann scores 10 (+1 box)"


def test_knock_gin_dead_and_tie_read_back():
    assert describe_hand(only_hand([knock("Ann", 6, 19)])) == "Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)"
    assert describe_hand(only_hand([gin("Bob", 31)])) == "Bob goes gin, Ann has 31: Bob scores 51 (+1 box)"
    assert describe_hand(only_hand([dead()])) == "Dead hand: nobody scores"
    tie = only_hand([knock("Ann", 7, 7)], conventions={"preset": "classic", "tie_rule": "no_score"})
    assert describe_hand(tie) == "Ann knocks with 7, Bob has 7: a tie, nobody scores"
    zero = only_hand([knock("Ann", 7, 7)], conventions={"preset": "classic", "tie_rule": "knocker"})
    assert describe_hand(zero) == "Ann knocks with 7, Bob has 7: Ann scores 0 (+1 box)"


def test_an_oklahoma_spade_deal_says_it_doubled():
    scored = only_hand([knock("Ann", 2, 12, upcard="5S")], conventions="oklahoma")
    assert describe_hand(scored) == "Ann knocks with 2, Bob has 12: Ann scores 20 (+1 box) [upcard 5♠ doubled]"


def test_cards_read_back_with_the_lay_offs_the_engine_found():
    scored = only_hand([{"result": "knock", "knocker": "Ann", "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD 9C".split(),
                         "opponent_cards": "4S 5S 8C 8H 8D 2C 3C TH 9H 6D".split()}])
    assert describe_hand(scored).startswith("Ann knocks with 9, Bob has 27 after laying off 4♠ 5♠: Ann scores 18")


def test_jersey_reads_back_every_opponent_and_the_undercut_penalty():
    request = {"format": "jersey", "conventions": "classic", "players": ["A", "B", "C"]}
    won = score_sheet({**request, "hands": [{"result": "knock", "knocker": "A", "knocker_deadwood": 5,
                                              "deadwood": {"B": 12, "C": 20}}]})["hands"][0]
    assert describe_hand(won) == "A knocks with 5, B has 12, C has 20: A scores 22 (+1 box)"
    under = score_sheet({**request, "hands": [{"result": "knock", "knocker": "A", "knocker_deadwood": 8,
                                                "deadwood": {"B": 6, "C": 20}}]})["hands"][0]
    assert describe_hand(under) == "A knocks with 8, B has 6, C has 20: undercut, B scores 16 (+1 box), A loses 20"
    assert likely_accepters(under) == ["A", "C"]
    assert likely_accepters(won) == ["C", "B"]  # C is left with more deadwood: the hand costs C most


def test_a_partnership_deal_reads_back_each_table_and_the_team():
    deal = score_sheet({"format": "partnership", "conventions": "classic", "teams": [["N", "S"], ["E", "W"]],
                        "hands": [{"tables": [knock("N", 5, 25), gin("W", 10)]}]})["hands"][0]
    said = describe_hand(deal, [["N", "S"], ["E", "W"]])
    assert said == ("table 1: N knocks with 5, E has 25: N scores 20 (+1 box); "
                    "table 2: W goes gin, S has 10: W scores 30 (+1 box). E & W score 10 (+1 box)")


def test_the_likely_accepter_comes_first_and_the_winner_never_appears():
    undercut = only_hand([knock("Ann", 8, 5)])
    assert likely_accepters(undercut) == ["Ann"]
    nothing = only_hand([dead()], first_dealer="Ann")
    assert losing_side(nothing) == {"Ann", "Bob"}
    assert likely_accepters(nothing) == ["Bob", "Ann"]  # the one who did not deal first


def test_overrides_name_only_what_differs_from_the_preset():
    stored = resolve_conventions({"preset": "classic", "gin_bonus": 25, "tie_rule": "knocker"}).as_dict()
    assert overrides_of(stored) == {"gin_bonus": 25, "tie_rule": "knocker"}
    assert overrides_of(resolve_conventions("modern").as_dict()) == {}


def test_every_convention_field_is_offered_with_its_range():
    specs = {s.name: s for s in field_specs()}
    assert tuple(specs) == FIELD_NAMES
    assert (specs["knock_limit"].low, specs["knock_limit"].high) == (0, 10)
    assert specs["tie_rule"].choices == ("undercut", "no_score", "knocker")
    assert "flat" in specs["shutout"].choices
    assert specs["boxes_count_toward_target"].kind == "bool"
    assert specs["big_gin_bonus"].nullable
