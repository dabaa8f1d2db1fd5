"""Hollywood, rotation, Jersey Gin and partnerships: matches worked out by hand from RULES.md."""

import pytest

from scoring.engine import SheetError, score_sheet

from .helpers import dead, gin, knock


def won(player, points):
    """A knock worth exactly ``points`` to ``player`` (knocker deadwood 1)."""
    return knock(player, 1, points + 1)


def hollywood(hands, conventions="classic"):
    return score_sheet({"format": "hollywood", "conventions": conventions, "players": ["A", "B"], "hands": hands})


class TestHollywood:
    def test_the_worked_example_credits_25_18_36_as_79_54_36(self):
        answer = hollywood([won("A", 25), won("A", 18), won("A", 36)])
        assert [g["players"]["A"]["points"] for g in answer["games"]] == [79, 54, 36]
        assert [h["games"] for h in answer["hands"]] == [[1], [1, 2], [1, 2, 3]]

    # A: 60, 50 (closes game 1, B shut out of it); B: 30; A: 55 (closes game 2); B: 40, 70 (closes game 3)
    MATCH = [won("A", 60), won("A", 50), won("B", 30), won("A", 55), won("B", 40), won("B", 70)]

    def test_with_the_shift_rule_a_shut_out_player_enters_the_next_open_game(self):
        answer = hollywood(self.MATCH)
        assert [h["games"] for h in answer["hands"]] == [[1], [1, 2], [2], [2, 3], [3], [3]]
        g1, g2, g3 = (self.summary(g) for g in answer["games"])
        # game 1: 110 + 2 boxes (40) + game 100 + shutout (game bonus doubled) 100
        assert g1 == ("A", 350, 0, 350)
        # game 2: A 105 + 40 + 100 = 245; B 30 + 20 = 50
        assert g2 == ("A", 245, 50, 195)
        # game 3: B 110 + 40 + 100 = 250; A 55 + 20 = 75
        assert g3 == ("B", 75, 250, 175)
        assert [g["closed_after_hand"] for g in answer["games"]] == [2, 4, 6]
        assert (answer["complete"], answer["winner"], answer["margin"]) == (True, "A", 350 + 195 - 175)
        assert answer["net"] == {"A": 370, "B": -370}

    @staticmethod
    def summary(game):
        """(winner, A's total, B's total, margin) of one game."""
        return game["winner"], game["players"]["A"]["total"], game["players"]["B"]["total"], game["margin"]

    def test_without_the_shift_rule_wins_reaching_only_closed_games_count_nowhere(self):
        answer = hollywood(self.MATCH, {"preset": "classic", "hollywood_shift": False})
        assert [h["games"] for h in answer["hands"]] == [[1], [1, 2], [], [2, 3], [], [3]]
        g2, g3 = answer["games"][1:]
        assert (g2["players"]["A"]["shutout_bonus"], g2["players"]["A"]["total"]) == (100, 105 + 40 + 100 + 100)
        assert (g3["complete"], g3["players"]["B"]["points"]) == (False, 70)
        assert (answer["complete"], answer["winner"], answer["margin"]) == (False, None, None)
        assert answer["net"] == {"A": 350 + 345, "B": -(350 + 345)}

    def test_a_hand_after_all_three_games_close_is_refused(self):
        with pytest.raises(SheetError, match="already complete after hand 6"):
            hollywood([*self.MATCH, won("A", 5)])

    def test_oklahoma_and_card_level_hands_work_inside_hollywood(self):
        answer = hollywood([
            knock("A", 3, 20, upcard="5S"),
            {"result": "gin", "knocker": "B", "upcard": "7H",
             "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD TD".split(),
             "opponent_cards": "4S 5S 8C 8H 8D 2C 3C TH 9H 6D".split()},
        ], "oklahoma")
        assert [h["points"] for h in answer["hands"]] == [34, 56]
        assert answer["hands"][1]["opponent_deadwood"] == 36


def rotation(hands, conventions="classic"):
    return score_sheet({"format": "rotation", "conventions": conventions, "players": ["A", "B", "C"],
                        "first_dealer": "A", "hands": hands})


class TestRotation:
    HANDS = [
        knock("B", 2, 30),  # A deals, B v C: B +28; C lost and deals
        dead(),  # C deals again to A v B
        gin("A", 25),  # A +45; B lost, deals to A v C
        knock("C", 5, 4),  # undercut: A +11 (56); C lost, deals to A v B
        gin("A", 40),  # A +60: 116, game
    ]

    def test_who_deals_and_who_sits_out_each_hand(self):
        answer = rotation(self.HANDS)
        assert [h["dealer"] for h in answer["hands"]] == ["A", "C", "C", "B", "C"]
        assert [h["sitting_out"] for h in answer["hands"]] == ["A", "C", "C", "B", "C"]
        assert [h["players"] for h in answer["hands"]] == [["B", "C"], ["A", "B"], ["A", "B"], ["A", "C"], ["A", "B"]]

    def test_settlement_each_loser_pays_the_winner_the_difference(self):
        answer = rotation(self.HANDS)
        assert (answer["complete"], answer["winner"]) == (True, "A")
        assert answer["players"]["A"]["total"] == 116 + 60 + 100
        assert answer["players"]["B"]["total"] == 28 + 20
        assert answer["players"]["C"]["total"] == 0
        assert answer["margins"] == {"B": 276 - 48, "C": 276}
        assert answer["margin"] == 228 + 276

    def test_next_dealer_and_players_while_in_progress(self):
        answer = rotation(self.HANDS[:3])
        assert (answer["next_dealer"], answer["next_players"]) == ("B", ["A", "C"])

    def test_card_level_and_oklahoma_hands_in_rotation(self):
        answer = rotation([{"result": "knock", "knocker": "B", "upcard": "TS",
                            "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD 9C".split(),
                            "opponent_cards": "4S 5S 8C 8H 8D 2C 3C TH 9H 6D".split()}], "oklahoma")
        hand = answer["hands"][0]
        # 27 - 9 = 18, doubled on a spade deal; C, the other player, had the lay-offs
        assert (hand["players"], hand["winner"], hand["points"]) == (["B", "C"], "B", 36)
        assert [lo["card"] for lo in hand["layoffs"]] == ["4S", "5S"]

    def test_the_knocker_must_be_one_of_the_two_playing(self):
        with pytest.raises(SheetError) as caught:
            rotation([knock("B", 2, 30), knock("C", 2, 30)])
        (problem,) = caught.value.problems
        assert (problem.hand, problem.field) == (2, "knocker")
        assert problem.message == "C is sitting out this hand (C deals to A and B)"


def jersey(hands, conventions="classic"):
    return score_sheet({"format": "jersey", "conventions": conventions, "players": ["A", "B", "C"], "hands": hands})


def jknock(knocker, knocker_deadwood, **deadwood):
    return {"result": "knock", "knocker": knocker, "knocker_deadwood": knocker_deadwood, "deadwood": deadwood}


class TestJersey:
    def test_the_rules_examples(self):
        answer = jersey([jknock("A", 5, B=12, C=20), jknock("A", 8, B=6, C=20)])
        first, second = answer["hands"]
        assert (first["winner"], first["points"], first["penalty"]) == ("A", 22, 0)
        assert (second["outcome"], second["winner"], second["points"], second["penalty"], second["penalised"]) == (
            "undercut", "B", 16, 20, "A")
        assert second["totals"] == {"A": 2, "B": 16, "C": 0}

    def test_opponents_tied_on_an_undercut_the_first_seated_after_the_knocker_wins(self):
        hand = jersey([jknock("B", 7, A=5, C=5)])["hands"][0]
        assert (hand["winner"], hand["points"], hand["penalised"]) == ("C", 2, "B")

    def test_gin_scores_the_differences_plus_one_gin_bonus_of_50(self):
        hand = jersey([{"result": "gin", "knocker": "C", "deadwood": {"A": 10, "B": 15}}])["hands"][0]
        assert (hand["outcome"], hand["points"]) == ("gin", 75)

    def test_the_penalty_and_gin_bonus_are_conventions_and_a_total_may_go_negative(self):
        conv = {"preset": "classic", "jersey_undercut_penalty": 25, "jersey_gin_bonus": 40}
        answer = jersey([jknock("A", 8, B=6, C=20), {"result": "gin", "knocker": "C",
                                                    "deadwood": {"A": 1, "B": 2}}], conv)
        assert answer["hands"][0]["totals"]["A"] == -25
        assert answer["hands"][1]["points"] == 3 + 40

    def test_game_is_200_then_settled_as_in_rotation(self):
        answer = jersey([jknock("A", 5, B=12, C=20), {"result": "gin", "knocker": "C", "deadwood": {"A": 98, "B": 98}}])
        assert (answer["complete"], answer["winner"]) == (True, "C")
        assert answer["players"]["C"]["total"] == 246 + 20 + 100
        assert answer["margins"] == {"A": 366 - 42, "B": 366}
        assert [h["dealer"] for h in answer["hands"]] == ["A", "B"]

    def test_under_200_the_game_goes_on(self):
        assert jersey([{"result": "gin", "knocker": "C", "deadwood": {"A": 70, "B": 70}}])["complete"] is False

    def test_deadwood_must_name_both_opponents(self):
        with pytest.raises(SheetError) as caught:
            jersey([jknock("A", 5, B=12, A=3)])
        assert {p.field for p in caught.value.problems} == {"deadwood.A", "deadwood.C"}


def partnership(deals, conventions="classic", **extra):
    return score_sheet({"format": "partnership", "conventions": conventions, "teams": [["N", "S"], ["E", "W"]],
                        "hands": [{"tables": list(t)} for t in deals], **extra})


class TestPartnership:
    DEALS = [
        (knock("N", 2, 30), gin("W", 10)),  # N v E: N +28; S v W: W +30 -> team 2 scores 2
        (gin("N", 40), knock("S", 3, 20)),  # N v W: N +60; S v E: S +17 -> team 1 scores 77
        (dead(), knock("S", 1, 60)),  # N v E dead; S v W: S +59 -> team 1 136: game
    ]

    def test_opponents_alternate_and_teams_aggregate(self):
        answer = partnership(self.DEALS)
        assert [[t["players"] for t in d["tables"]] for d in answer["hands"]] == [
            [["N", "E"], ["S", "W"]], [["N", "W"], ["S", "E"]], [["N", "E"], ["S", "W"]]]
        assert [d["team_points"] for d in answer["hands"]] == [[0, 2], [77, 0], [59, 0]]
        assert [d["totals"] for d in answer["hands"]] == [[0, 2], [77, 2], [136, 2]]

    def test_settlement_target_125_game_bonus_boxes_margin(self):
        answer = partnership(self.DEALS)
        team1, team2 = answer["teams"]
        assert (team1["points"], team1["hands_won"], team1["box_bonus"], team1["game_bonus"], team1["total"]) == (
            136, 2, 40, 100, 276)
        assert (team2["points"], team2["box_bonus"], team2["total"]) == (2, 20, 22)
        assert (answer["complete"], answer["winner"], answer["margin"]) == (True, 0, 254)

    def test_a_shutout_in_partnership(self):
        answer = partnership([(gin("N", 60), gin("S", 40))])  # 80 + 60 = 140
        assert answer["teams"][0]["shutout_bonus"] == 100
        assert answer["margin"] == 140 + 20 + 100 + 100

    def test_an_even_split_scores_nothing_and_earns_no_box(self):
        deal = partnership([(won("N", 20), won("W", 20))])["hands"][0]
        assert (deal["team_points"], deal["scoring_team"], deal["boxes"]) == ([0, 0], None, 0)

    def test_dealers_alternate_between_the_teams(self):
        answer = partnership(self.DEALS[:2])
        assert [[t["dealer"] for t in d["tables"]] for d in answer["hands"]] == [["N", "S"], ["W", "E"]]
        assert answer["next_dealers"] == ["N", "S"]

    def test_the_answer_says_who_plays_whom_in_the_next_deal_and_nothing_once_complete(self):
        """The phone page shows the next deal's tables from here: deal 2 pairs N-W and S-E, deal 3 N-E."""
        assert partnership([])["next_tables"] == [["N", "E"], ["S", "W"]]
        assert partnership(self.DEALS[:1])["next_tables"] == [["N", "W"], ["S", "E"]]
        assert partnership(self.DEALS[:2])["next_tables"] == [["N", "E"], ["S", "W"]]
        assert partnership(self.DEALS)["next_tables"] is None

    def test_a_knocker_at_the_wrong_table_is_refused_naming_the_table(self):
        with pytest.raises(SheetError) as caught:
            partnership([self.DEALS[0], (knock("E", 2, 30), dead())])
        (problem,) = caught.value.problems
        assert (problem.hand, problem.field) == (2, "tables[0].knocker")
        assert "not playing at table 1 in deal 2" in problem.message

    def test_a_deal_needs_two_tables(self):
        with pytest.raises(SheetError) as caught:
            score_sheet({"format": "partnership", "teams": [["N", "S"], ["E", "W"]],
                         "hands": [{"tables": [dead()]}]})
        assert caught.value.problems[0].field == "tables"

    def test_oklahoma_doubling_per_table(self):
        deal = partnership([(knock("N", 3, 20, upcard="5S"), knock("S", 3, 20, upcard="5S"))], "oklahoma")["hands"][0]
        assert deal["team_points"] == [68, 0]
