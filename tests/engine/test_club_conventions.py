"""Knocker ties, flat shutouts and boxes counted toward the target, in every table format.

Every figure was worked out by hand from RULES.md (classic: gin 20, undercut 10, box 20, target 100,
game 100, Jersey target 200, partnership target 125) before the engine was asked.
"""

import pytest

from scoring.engine import SheetError, resolve_conventions, score_sheet

from .helpers import dead, gin, knock, score
from .test_formats import TestHollywood, hollywood, jersey, jknock, partnership, rotation

KNOCKER_TIES = {"preset": "classic", "tie_rule": "knocker"}
FLAT = {"preset": "classic", "shutout": "flat", "shutout_bonus": 150}
PALACE = {"preset": "classic", "boxes_count_toward_target": True}


def breakdown(standing):
    """(points, box bonus, game bonus, shutout bonus, total): a player's settlement as the sheet shows it."""
    return tuple(standing[k] for k in ("points", "box_bonus", "game_bonus", "shutout_bonus", "total"))


class TestValidation:
    def test_the_new_fields_resolve_and_default_to_todays_scoring(self):
        classic = resolve_conventions("classic").as_dict()
        assert (classic["tie_rule"], classic["shutout_bonus"], classic["boxes_count_toward_target"]) == (
            "undercut", 100, False)
        resolved = resolve_conventions({**KNOCKER_TIES, **FLAT, **PALACE}).as_dict()
        assert (resolved["tie_rule"], resolved["shutout"], resolved["shutout_bonus"]) == ("knocker", "flat", 150)
        assert resolved["boxes_count_toward_target"] is True

    @pytest.mark.parametrize(
        ("spec", "field", "message"),
        [
            ({"tie_rule": "dealer"}, "conventions.tie_rule", "one of undercut, no_score, knocker; 'dealer' given"),
            ({"shutout": "triple"}, "conventions.shutout", "double_difference, flat, none"),
            ({"shutout": "flat", "shutout_bonus": -1}, "conventions.shutout_bonus", "between 0 and 1000; -1"),
            ({"shutout_bonus": "100"}, "conventions.shutout_bonus", "must be a whole number"),
            ({"boxes_count_toward_target": 1}, "conventions.boxes_count_toward_target", "true or false"),
            ({"preset": "parlett", "boxes_count_toward_target": True}, "conventions.boxes_count_toward_target",
             "box_mode per_hand"),
            ({"box_mode": "net", "boxes_count_toward_target": True}, "conventions.boxes_count_toward_target",
             "pay boxes net (box_mode net) when the game is settled"),
        ],
    )
    def test_bad_values_are_refused_naming_the_field(self, spec, field, message):
        with pytest.raises(SheetError) as caught:
            resolve_conventions(spec)
        (problem,) = caught.value.problems
        assert (problem.hand, problem.field) == (None, field)
        assert message in problem.message


# ---------------------------------------------------------------------------------------------------
# tie_rule "knocker": a tie is an ordinary knock worth 0 that wins the hand and its box


class TestKnockerTies:
    HANDS = [
        knock("A", 7, 7),  # A deals; tie: A wins 0 and a box; B lost and deals
        knock("B", 4, 4),  # tie: B wins 0 and a box; A deals
        gin("A", 85),  # 85 + 20 = 105: game
    ]

    def test_a_standard_game(self):
        answer = score(KNOCKER_TIES, self.HANDS)
        assert [(h["outcome"], h["winner"], h["points"], h["boxes"]) for h in answer["hands"]] == [
            ("knock", "A", 0, 1), ("knock", "B", 0, 1), ("gin", "A", 105, 1)]
        assert [h["dealer"] for h in answer["hands"]] == ["A", "B", "A"]
        a, b = answer["players"]["A"], answer["players"]["B"]
        # A: 105 + 2 boxes (40) + game 100 + shutout 100: B won a box but scored no points
        assert breakdown(a) == (105, 40, 100, 100, 345)
        assert (b["points"], b["hands_won"], b["box_bonus"], b["total"]) == (0, 1, 20, 20)
        assert answer["margin"] == 325

    def test_the_other_tie_rules_on_the_same_first_hand(self):
        assert score("classic", self.HANDS[:1])["hands"][0]["outcome"] == "undercut"
        assert score({"preset": "classic", "tie_rule": "no_score"}, self.HANDS[:1])["hands"][0]["outcome"] == "tie"

    def test_a_card_level_tie(self):
        # knocker 9C = 9; the opponent lays off 4S 5S and keeps 2C 3C 4C as a run: 6D 3H = 9 left
        hand = score(KNOCKER_TIES, [{"result": "knock", "knocker": "A",
                                     "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD 9C".split(),
                                     "opponent_cards": "4S 5S 2C 3C 4C 6D 3H TH JH QH".split()}])["hands"][0]
        assert (hand["knocker_deadwood"], hand["opponent_deadwood"]) == (9, 9)
        assert (hand["outcome"], hand["winner"], hand["points"]) == ("knock", "A", 0)

    def test_hollywood_a_zero_point_win_is_the_knockers_first_win(self):
        # A's tie is credited to game 1 with 0 points, so A's 30 reaches games 1 and 2
        answer = hollywood([knock("A", 5, 5), knock("A", 2, 32)], KNOCKER_TIES)
        assert [h["games"] for h in answer["hands"]] == [[1], [1, 2]]
        assert [g["players"]["A"]["points"] for g in answer["games"]] == [30, 30, 0]
        assert [g["players"]["A"]["boxes"] for g in answer["games"]] == [2, 1, 0]

    def test_rotation_the_knocker_wins_and_the_opponent_deals(self):
        answer = rotation([knock("B", 5, 5)], KNOCKER_TIES)  # A deals to B and C
        hand = answer["hands"][0]
        assert (hand["outcome"], hand["winner"], hand["points"], hand["boxes"]) == ("knock", "B", 0, 1)
        assert (answer["next_dealer"], answer["next_players"]) == ("C", ["A", "B"])

    def test_jersey_an_opponent_level_with_the_knocker_does_not_undercut(self):
        answer = jersey([jknock("A", 6, B=6, C=15), jknock("B", 6, A=6, C=6), jknock("C", 6, A=5, B=6)],
                        KNOCKER_TIES)
        first, second, third = answer["hands"]
        # A wins 0 from B and 9 from C
        assert (first["outcome"], first["winner"], first["points"], first["penalty"]) == ("knock", "A", 9, 0)
        # everyone at 6: B wins 0 and the box
        assert (second["outcome"], second["winner"], second["points"], second["boxes"]) == ("knock", "B", 0, 1)
        # A is below C: an undercut still, A scores 1 + 1 and C loses 20
        assert (third["outcome"], third["winner"], third["points"], third["penalised"]) == ("undercut", "A", 2, "C")
        assert third["totals"] == {"A": 9 + 2, "B": 0, "C": -20}

    def test_jersey_the_same_hand_under_the_other_tie_rules(self):
        hand = jersey([jknock("A", 6, B=6, C=15)])["hands"][0]
        assert (hand["outcome"], hand["winner"], hand["points"], hand["penalty"]) == ("undercut", "B", 9, 20)
        hand = jersey([jknock("A", 6, B=6, C=15)], {"preset": "classic", "tie_rule": "no_score"})["hands"][0]
        assert (hand["outcome"], hand["winner"], hand["points"]) == ("tie", None, 0)

    def test_partnership_a_zero_point_win_still_wins_the_deal_and_its_box(self):
        answer = partnership([(knock("N", 5, 5), dead())], KNOCKER_TIES)
        deal = answer["hands"][0]
        assert (deal["team_points"], deal["scoring_team"], deal["boxes"]) == ([0, 0], 0, 1)
        assert (answer["teams"][0]["hands_won"], answer["teams"][0]["total"]) == (1, 20)

    def test_partnership_two_zero_point_wins_split_evenly_score_nothing(self):
        deal = partnership([(knock("N", 5, 5), knock("W", 3, 3))], KNOCKER_TIES)["hands"][0]
        assert (deal["team_points"], deal["scoring_team"], deal["boxes"]) == ([0, 0], None, 0)


# ---------------------------------------------------------------------------------------------------
# shutout "flat": a flat shutout_bonus for the winner of a shutout


# A wins every hand: knock 5 v 45 (40), gin v 30 (50), knock 2 v 14 (12) = 102
SHUTOUT_HANDS = [knock("A", 5, 45), gin("A", 30), knock("A", 2, 14)]


class TestFlatShutout:
    def test_a_standard_shutout_earns_the_flat_bonus(self):
        a = score(FLAT, SHUTOUT_HANDS)["players"]["A"]
        assert breakdown(a) == (102, 60, 100, 150, 412)

    def test_the_bonus_defaults_to_100(self):
        assert score({"preset": "modern", "shutout": "flat"}, SHUTOUT_HANDS)["players"]["A"]["shutout_bonus"] == 100

    def test_no_flat_bonus_once_the_loser_has_scored(self):
        a = score(FLAT, [knock("B", 3, 4), *SHUTOUT_HANDS])["players"]["A"]
        assert (a["shutout_bonus"], a["total"]) == (0, 102 + 60 + 100)

    def test_hollywood_each_shut_out_game_earns_it(self):
        answer = hollywood(TestHollywood.MATCH, FLAT)
        # game 1: 110 + 40 + 100 + 150 = 400 (B shut out); games 2 and 3 as under classic
        assert [g["players"][g["winner"]]["shutout_bonus"] for g in answer["games"]] == [150, 0, 0]
        assert [g["margin"] for g in answer["games"]] == [400, 195, 175]
        assert (answer["winner"], answer["margin"]) == ("A", 400 + 195 - 175)

    def test_rotation_both_losers_scoreless(self):
        answer = rotation([gin("B", 98)], FLAT)  # A deals to B and C; 98 + 20 = 118
        assert answer["players"]["B"]["total"] == 118 + 20 + 100 + 150
        assert answer["margins"] == {"A": 388, "C": 388}

    def test_jersey_both_losers_scoreless(self):
        answer = jersey([jknock("A", 4, B=90, C=98), {"result": "gin", "knocker": "A", "deadwood": {"B": 10, "C": 20}}],
                        FLAT)
        # 86 + 94 = 180, then 10 + 20 + 50 = 80: 260
        a = answer["players"]["A"]
        assert breakdown(a) == (260, 40, 100, 150, 550)

    def test_partnership_the_other_team_scoreless(self):
        answer = partnership([(gin("N", 60), gin("S", 40))], FLAT)  # 80 + 60 = 140
        assert answer["teams"][0]["shutout_bonus"] == 150
        assert answer["margin"] == 140 + 20 + 100 + 150


# ---------------------------------------------------------------------------------------------------
# boxes_count_toward_target: each box's points join the running total as the hand is won


class TestBoxesTowardTheTarget:
    HANDS = [
        knock("A", 2, 32),  # 30 + box 20: A 50
        gin("B", 10),  # 30 + box 20: B 50
        knock("A", 3, 33),  # 30 + box 20: A 100, game (without the rule A would have 60)
    ]

    def test_a_standard_game_ends_when_points_and_boxes_reach_the_target(self):
        answer = score(PALACE, self.HANDS)
        assert [h["totals"] for h in answer["hands"]] == [{"A": 50, "B": 0}, {"A": 50, "B": 50}, {"A": 100, "B": 50}]
        assert [h["points"] for h in answer["hands"]] == [30, 30, 30]
        assert (answer["complete"], answer["winner"]) == (True, "A")
        a, b = answer["players"]["A"], answer["players"]["B"]
        # the breakdown is unchanged: the boxes are still box bonus, paid once
        assert breakdown(a) == (60, 40, 100, 0, 200)
        assert (b["points"], b["box_bonus"], b["total"]) == (30, 20, 50)
        assert answer["margin"] == 150
        assert score("classic", self.HANDS)["complete"] is False

    def test_a_zero_point_box_is_a_score_so_the_loser_is_not_shut_out(self):
        hands = [knock("B", 4, 4), knock("A", 1, 81)]  # B's tie: 0 + box 20; A: 80 + 20 = 100
        both = {**KNOCKER_TIES, **PALACE, "shutout": "flat", "shutout_bonus": 100}
        a = score(both, hands)["players"]["A"]
        assert breakdown(a) == (80, 20, 100, 0, 200)
        # without boxes toward the target B's box is not on the running total: B scored nothing
        a = score({**both, "boxes_count_toward_target": False}, [*hands, knock("A", 1, 21)])["players"]["A"]
        assert (a["points"], a["shutout_bonus"]) == (100, 100)

    def test_oklahoma_extra_boxes_count_too(self):
        conv = {"preset": "oklahoma", "boxes_count_toward_target": True, "oklahoma_extra_boxes": True,
                "target": 100}
        hand = score(conv, [gin("A", 10, upcard="9H")])["hands"][0]
        # gin 10 + 20 = 30, and 1 + 2 boxes of 20
        assert (hand["points"], hand["boxes"], hand["totals"]["A"]) == (30, 3, 90)

    def test_hollywood_each_game_counts_its_own_boxes(self):
        answer = hollywood([knock("A", 1, 41), knock("A", 1, 31), knock("B", 1, 11), knock("A", 1, 36)], PALACE)
        # A 40 (+20) -> g1 60; A 30 -> g1 110 closes, g2 50; B (shifted) 10 -> g2 30; A 35 -> g2 105 closes, g3 55
        assert [h["games"] for h in answer["hands"]] == [[1], [1, 2], [2], [2, 3]]
        assert answer["hands"][-1]["game_totals"] == [{"A": 110, "B": 0}, {"A": 105, "B": 30}, {"A": 55, "B": 0}]
        g1, g2, g3 = answer["games"]
        assert (g1["winner"], g1["players"]["A"]["total"], g1["margin"]) == ("A", 70 + 40 + 100 + 100, 310)
        assert (g2["winner"], g2["players"]["A"]["total"], g2["players"]["B"]["total"]) == ("A", 65 + 40 + 100, 30)
        assert (g3["complete"], answer["net"]) == (False, {"A": 310 + 175, "B": -(310 + 175)})

    def test_rotation(self):
        answer = rotation([knock("B", 2, 42), gin("A", 30), knock("A", 5, 15)], PALACE)
        # B 40 + 20 = 60; C deals: A 50 + 20 = 70; B deals: A 10 + 20 -> 100, game
        assert [h["totals"] for h in answer["hands"]] == [
            {"A": 0, "B": 60, "C": 0}, {"A": 70, "B": 60, "C": 0}, {"A": 100, "B": 60, "C": 0}]
        assert answer["players"]["A"]["total"] == 60 + 40 + 100
        assert answer["margins"] == {"B": 200 - 60, "C": 200}

    def test_jersey(self):
        answer = jersey([jknock("A", 4, B=90, C=98)], PALACE)
        # 86 + 94 = 180 + box 20 = 200: Jersey's target, on one hand; both losers scoreless
        assert (answer["complete"], answer["hands"][0]["totals"]["A"]) == (True, 200)
        assert answer["players"]["A"]["total"] == 180 + 20 + 100 + 100
        assert jersey([jknock("A", 4, B=90, C=98)])["complete"] is False

    def test_jersey_an_undercut_penalty_comes_off_the_running_total(self):
        answer = jersey([jknock("A", 8, B=6, C=20), jknock("B", 3, A=10, C=4)], PALACE)
        # B 2 + 14 + box 20 = 36, A -20; B again 7 + 1 = 8 + box: 64
        assert answer["hands"][-1]["totals"] == {"A": -20, "B": 64, "C": 0}

    def test_partnership(self):
        answer = partnership([(knock("N", 1, 61), gin("S", 25))], PALACE)
        # team 1: 60 + 45 = 105 + box 20 = 125: the partnership target
        assert (answer["complete"], answer["hands"][0]["totals"]) == (True, [125, 0])
        assert answer["teams"][0]["total"] == 105 + 20 + 100 + 100
        assert partnership([(knock("N", 1, 61), gin("S", 25))])["complete"] is False


def test_all_three_together_through_the_contract():
    answer = score_sheet({"conventions": {"preset": "online", "tie_rule": "knocker", "shutout": "flat",
                                          "shutout_bonus": 75, "boxes_count_toward_target": True},
                          "players": ["Ann", "Bob"], "hands": [knock("Ann", 6, 6), gin("Ann", 50)]})
    # online: gin 25, box 25. Ann's tie: 0 + 25; gin 50 + 25 = 75 + 25: 125, game; Bob scoreless
    assert [h["totals"]["Ann"] for h in answer["hands"]] == [25, 125]
    ann = answer["players"]["Ann"]
    assert breakdown(ann) == (75, 50, 100, 75, 300)
