"""Every tiebreak key on small events whose numbers are worked out by hand in each test."""

import pytest

from tournaments.engine import run_event

from .helpers import entries, ranks, row


def result(r, a, b, winner, margin=0):
    return {"round": r, "players": [a, b], "winner": winner, "margin": margin}


# Six entries, four Swiss rounds (any pairing may be recorded). Win 2, draw 1, loss 0.
#   R1: A beats B by 10, C beats D by 30, F beats E by 25
#   R2: A-C draw, B-E draw, D-F draw
#   R3: B beats C by 40, A-F draw, D beats E by 15
#   R4: D beats A by 5, B-F draw, C-E draw
# Match points: A 4 (W B, D C, D F, L D), B 4 (L A, D E, W C, D F), C 4 (W D, D A, L B, D E),
#               D 5 (L C, D F, W E, W A), E 2 (L F, D B, L D, D C), F 5 (W E, D D, D A, D B).
# Margins: A 10-5 = 5, B -10+40 = 30, C 30-40 = -10, D -30+15+5 = -10, E -25-15 = -40, F 25.
# Buchholz (opponents' points): A B4+C4+F5+D5 = 18, B A4+E2+C4+F5 = 15, C D5+A4+B4+E2 = 15,
#   D C4+F5+E2+A4 = 15, E F5+B4+D5+C4 = 18, F E2+D5+A4+B4 = 15.
# Cut 1 (less the lowest): A 14, B 13, C 13, D 13, E 14, F 13.
# Median (less the highest and the lowest): A 9, B 8, C 8, D 8, E 9, F 8.
# Opponents' margin: A 30-10+25-10 = 35, B 5-40-10+25 = -20, C -10+5+30-40 = -15,
#   D -10+25-40+5 = -20, E 25+30-10-10 = 35, F -40-10+5+30 = -15.
# Head to head: A, B and C have all met (A beat B, drew C; B beat C): A 3, B 2, C 1.
#   D and F met once, a draw: 1 each.
SIX = {
    "format": "swiss",
    "rounds": 4,
    "entries": entries("A B C D E F"),
    "results": [
        result(1, "A", "B", "A", 10), result(1, "C", "D", "C", 30), result(1, "E", "F", "F", 25),
        result(2, "A", "C", None), result(2, "B", "E", None), result(2, "D", "F", None),
        result(3, "B", "C", "B", 40), result(3, "A", "F", None), result(3, "D", "E", "D", 15),
        result(4, "D", "A", "D", 5), result(4, "B", "F", None), result(4, "C", "E", None),
    ],
}


def six(tiebreaks, **extra):
    return run_event(dict(SIX, tiebreaks=tiebreaks, **extra))


def test_records_match_points_and_margins_worked_by_hand():
    answer = six(["match_points"])
    got = {s["name"]: (s["played"], s["wins"], s["draws"], s["losses"], s["match_points"], s["margin"])
           for s in answer["standings"]}
    assert got == {
        "A": (4, 1, 2, 1, 4, 5), "B": (4, 1, 2, 1, 4, 30), "C": (4, 1, 2, 1, 4, -10),
        "D": (4, 2, 1, 1, 5, -10), "E": (4, 0, 2, 2, 2, -40), "F": (4, 1, 3, 0, 5, 25),
    }
    assert answer["complete"] is True
    assert answer["rounds_played"] == 4


def test_every_buchholz_variant_and_opponents_margin_worked_by_hand():
    answer = six(["buchholz", "buchholz_cut1", "median_buchholz", "opponents_margin"])
    got = {s["name"]: tuple(s["tiebreaks"].values()) for s in answer["standings"]}
    assert got == {
        "A": (18, 14, 9, 35), "B": (15, 13, 8, -20), "C": (15, 13, 8, -15),
        "D": (15, 13, 8, -20), "E": (18, 14, 9, 35), "F": (15, 13, 8, -15),
    }


def test_default_swiss_order_points_then_buchholz_then_margin():
    """D and F (5): Buchholz 15 each, margin F 25 > D -10. A, B, C (4): Buchholz A 18; B 30 > C -10."""
    assert ranks(six(["match_points", "buchholz", "margin", "head_to_head"])) == [
        (1, "F"), (2, "D"), (3, "A"), (4, "B"), (5, "C"), (6, "E")]
    assert ranks(run_event(SIX)) == ranks(six(["match_points", "buchholz", "margin", "head_to_head"]))


def test_head_to_head_among_three_who_all_met():
    answer = six(["match_points", "head_to_head", "seed"])
    assert ranks(answer) == [(1, "D"), (2, "F"), (3, "A"), (4, "B"), (5, "C"), (6, "E")]
    assert [row(answer, n)["tiebreaks"]["head_to_head"] for n in "ABC"] == [3, 2, 1]
    assert [row(answer, n)["tiebreaks"]["head_to_head"] for n in "DF"] == [1, 1]
    assert row(answer, "E")["tiebreaks"]["head_to_head"] is None  # alone at its place
    assert [row(answer, n)["tiebreaks"]["seed"] for n in "ABCDEF"] == [1, 2, 3, 4, 5, 6]


def test_entries_equal_on_every_key_share_a_rank_listed_in_seed_order():
    """D and F drew their only meeting: still tied after head-to-head, so both rank 1."""
    assert ranks(six(["match_points", "head_to_head"])) == [
        (1, "D"), (1, "F"), (3, "A"), (4, "B"), (5, "C"), (6, "E")]


def test_wins_alone_shares_rank_two_among_four_in_seed_order():
    assert ranks(six(["wins"])) == [(1, "D"), (2, "A"), (2, "B"), (2, "C"), (2, "F"), (6, "E")]


def test_cut1_median_and_opponents_margin_as_the_ordering_keys():
    """D, F: cut 13, median 8, opponents' margin F -15 > D -20. A 14 first; B, C: C -15 > B -20."""
    answer = six(["match_points", "buchholz_cut1", "median_buchholz", "opponents_margin"])
    assert ranks(answer) == [(1, "F"), (2, "D"), (3, "A"), (4, "C"), (5, "B"), (6, "E")]


def test_head_to_head_is_skipped_for_a_group_where_two_have_not_met():
    """Round robin after round 2 of four: A and B have 4 points... but never met: key skipped (null)."""
    request = {
        "format": "round_robin", "entries": entries("A B C D"),
        "tiebreaks": ["match_points", "head_to_head", "seed"],
        "results": [result(1, "A", "D", "A"), result(1, "B", "C", "B"),
                    result(2, "A", "C", "A"), result(2, "D", "B", "B")],
    }
    answer = run_event(request)
    assert ranks(answer) == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    assert row(answer, "A")["tiebreaks"]["head_to_head"] is None
    assert row(answer, "C")["tiebreaks"]["head_to_head"] is None  # C and D (0) have not met either


def test_head_to_head_between_two_decides_before_margin():
    """Round robin of four played out: A, B 4 points; B beat A, so B first despite A's margin."""
    request = {
        "format": "round_robin", "entries": entries("A B C D"),
        "results": [result(1, "A", "D", "A", 100), result(1, "B", "C", "C", 5),
                    result(2, "A", "C", "A", 100), result(2, "D", "B", "B", 5),
                    result(3, "A", "B", "B", 1), result(3, "C", "D", "C", 5)],
    }
    answer = run_event(request)
    # A: W D, W C, L B = 4; B: L C, W D, W A = 4; C: W B, L A, W D = 4; three-way tie, all met:
    # head to head A 2 (beat C), B 2 (beat A), C 2 (beat B): still tied; margin A 199, B 1, C -90.
    assert ranks(answer) == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    assert [row(answer, n)["tiebreaks"]["head_to_head"] for n in "ABC"] == [2, 2, 2]
    assert answer["champion"] == "A"
    two = dict(request, results=[*request["results"][:4], result(3, "A", "B", "B", 1), result(3, "C", "D", "D", 5)])
    answer = run_event(two)
    # Now C lost to D: A 4, B 4 (B beat A), C 2, D 2 (D beat C).
    assert ranks(answer) == [(1, "B"), (2, "A"), (3, "D"), (4, "C")]
    assert row(answer, "B")["tiebreaks"]["head_to_head"] == 2
    assert row(answer, "A")["tiebreaks"]["head_to_head"] == 0


def test_as_of_round_two_uses_only_the_first_two_rounds():
    """After R2: A 3, C 3, F 3; B 1, D 1, E 1. Buchholz A 4, C 4, F 2; D 6, B 4, E 4.
    Margins: A 10, C 30, F 25, B -10, D -30, E -25."""
    answer = six(["match_points", "buchholz", "margin", "head_to_head"], as_of_round=2)
    assert ranks(answer) == [(1, "C"), (2, "A"), (3, "F"), (4, "D"), (5, "B"), (6, "E")]
    assert answer["as_of_round"] == 2
    assert answer["rounds_played"] == 2
    assert answer["complete"] is False
    assert answer["champion"] is None
    nxt = answer["next_round"]
    assert nxt["round"] == 3
    # Three on 3 points and three on 1 with A-C, D-F, B-E already played: one pair must cross (cost 4).
    assert (nxt["rematches"], nxt["cost"]) == (0, 4)


def test_as_of_round_zero_is_the_start():
    answer = six(["match_points"], as_of_round=0)
    assert answer["rounds_played"] == 0
    assert all(s["match_points"] == 0 for s in answer["standings"])
    assert [p["players"] for p in answer["next_round"]["pairings"]] == [["A", "D"], ["B", "E"], ["C", "F"]]


@pytest.mark.parametrize(("as_of", "dropped"), [(1, False), (2, True), (None, True)])
def test_a_drop_shows_only_from_its_round_when_looking_back(as_of, dropped):
    answer = run_event(dict(SIX, rounds=4, results=SIX["results"][:6], dropped={"E": 2}, as_of_round=as_of))
    assert row(answer, "E")["dropped"] is dropped


def test_forfeits_count_as_played_with_the_forfeit_margin_and_byes_with_the_bye_margin():
    request = {
        "format": "swiss", "rounds": 2, "entries": entries("A B C"),
        "match_points": {"win": 3, "draw": 1, "loss": 0, "bye": 2}, "bye_margin": 40, "forfeit_margin": 100,
        "tiebreaks": ["match_points", "buchholz", "margin"],
        "results": [
            {"round": 1, "players": ["A", "B"], "winner": "A", "forfeit": True}, {"round": 1, "bye": "C"},
            {"round": 2, "players": ["C", "B"], "winner": "C", "margin": 70}, {"round": 2, "bye": "A"},
        ],
    }
    answer = run_event(request)
    got = {s["name"]: (s["played"], s["wins"], s["losses"], s["byes"], s["match_points"], s["margin"])
           for s in answer["standings"]}
    # A: forfeit win 3 + bye 2 = 5, margin 100 + 40. C: bye 2 + win 3 = 5, margin 40 + 70. B: 0, -170.
    assert got == {"A": (1, 2, 0, 1, 5, 140), "C": (1, 2, 0, 1, 5, 110), "B": (2, 0, 2, 0, 0, -170)}
    # Buchholz: A met B (0) = 0; C met B = 0: tied, A ahead on margin.
    assert ranks(answer) == [(1, "A"), (2, "C"), (3, "B")]
    assert answer["champion"] == "A"
