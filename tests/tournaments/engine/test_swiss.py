"""Swiss pairing by EVENTS.md's rules, on cases worked out by hand."""

import random

from tournaments.engine import run_event

from .helpers import entries, pairs, row


def result(r, a, b, winner, margin=0):
    return {"round": r, "players": [a, b], "winner": winner, "margin": margin}


def swiss(names, results, **extra):
    return run_event({"format": "swiss", "entries": entries(names), "results": results, **extra})


def test_round_one_folds_the_seed_order_top_half_against_bottom_half():
    assert pairs(swiss("A B C D E F G H", [])) == [["A", "E"], ["B", "F"], ["C", "G"], ["D", "H"]]


def test_round_one_with_an_odd_number_sits_out_the_last_seed():
    answer = swiss("A B C D E", [])
    assert pairs(answer) == [["A", "C"], ["B", "D"]]
    assert (answer["next_round"]["bye"], answer["next_round"]["byes"]) == ("E", ["E"])


def test_default_rounds_are_the_least_power_of_two_covering_the_entries():
    assert [swiss(" ".join(f"P{i}" for i in range(n)), [])["rounds"] for n in (2, 3, 4, 5, 8, 9, 1000)] == [
        1, 2, 2, 3, 3, 4, 10]


def test_the_cheapest_pairing_that_avoids_a_rematch_wins_over_a_cheaper_rematch():
    """After A beat B, C beat D, then A beat C, B beat D: A 4, B 2, C 2, D 0.
    A-B + C-D costs 4 + 4 but both are rematches, A-C + B-D too; A-D + B-C costs 16 with none."""
    answer = swiss("A B C D", [result(1, "A", "B", "A"), result(1, "C", "D", "C"),
                               result(2, "A", "C", "A"), result(2, "B", "D", "B")], rounds=3)
    assert pairs(answer) == [["A", "D"], ["B", "C"]]
    assert (answer["next_round"]["rematches"], answer["next_round"]["cost"]) == (0, 16)


def test_when_everyone_has_met_the_pairing_has_the_fewest_rematches():
    results = [result(1, "A", "C", "A"), result(1, "B", "D", "B"),
               result(2, "A", "B", "A"), result(2, "C", "D", "C"),
               result(3, "A", "D", "A"), result(3, "B", "C", "B")]
    answer = swiss("A B C D", results, rounds=4)
    # A 6, B 4, C 2, D 0: every pair is a rematch; the cheapest is A-B + C-D (4 + 4).
    assert pairs(answer) == [["A", "B"], ["C", "D"]]
    assert (answer["next_round"]["rematches"], answer["next_round"]["cost"]) == (2, 8)


def test_the_bye_goes_to_the_fewest_points_then_the_lowest_placed():
    """After round 1 (A beat C, D beat B, E had the bye): B and C have 0; C is lower (margin)."""
    answer = swiss("A B C D E", [result(1, "A", "C", "A", 50), result(1, "B", "D", "D", 10), {"round": 1, "bye": "E"}])
    assert answer["next_round"]["bye"] == "C"
    assert pairs(answer) == [["A", "D"], ["E", "B"]]


def test_nobody_gets_a_second_bye_while_someone_has_had_none_even_at_the_cost_of_a_rematch():
    """X never had a bye and met Q, R, S (and S twice). P met Q, R and S: with X out, P must rematch.
    Giving Q a second bye would let X-P and R-S play without one, but X takes the bye."""
    results = [
        result(1, "P", "Q", "P"), result(1, "X", "R", "X"), {"round": 1, "bye": "S"},
        result(2, "P", "R", "P"), result(2, "X", "S", "X"), {"round": 2, "bye": "Q"},
        result(3, "P", "S", "P"), result(3, "X", "Q", "X"), {"round": 3, "bye": "R"},
        result(4, "Q", "R", "Q"), result(4, "S", "X", "S"), {"round": 4, "bye": "P"},
    ]
    answer = swiss("P Q R S X", results, rounds=5)
    assert answer["next_round"]["bye"] == "X"
    assert answer["next_round"]["rematches"] == 1
    assert ["R", "S"] in pairs(answer) or ["S", "R"] in pairs(answer)


def test_the_bye_skips_a_candidate_whose_bye_would_force_a_rematch():
    """After A beat C and B beat D, B drops. C and D have 0 points and equal tiebreaks (Buchholz 2,
    margin 0); D is lower by seed, so first in bye order, but with D out A would meet C again.
    The bye goes to C, the next candidate, and A meets D."""
    results = [result(1, "A", "C", "A"), result(1, "B", "D", "B")]
    answer = swiss("A B C D", results, rounds=3, dropped={"B": 1})
    assert [row(answer, n)["tiebreaks"]["buchholz"] for n in "CD"] == [2, 2]
    assert answer["next_round"]["bye"] == "C"
    assert pairs(answer) == [["A", "D"]]
    assert answer["next_round"]["rematches"] == 0


def test_a_late_entry_is_paired_from_its_round_with_nothing_for_the_rounds_before():
    request = {"format": "swiss", "rounds": 3,
               "entries": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}, {"name": "E", "joined": 2}]}
    first = run_event(request)
    assert pairs(first) == [["A", "C"], ["B", "D"]]
    assert first["next_round"]["byes"] == []
    request["results"] = [result(1, "A", "C", "A"), result(1, "B", "D", "B")]
    second = run_event(request)
    assert row(second, "E")["played"] == 0
    assert row(second, "E")["match_points"] == 0
    assert second["rounds_played"] == 1
    # Five are in for round 2: the bye goes to the lowest on 0 who has had none: E is below C and D.
    assert second["next_round"]["bye"] == "E"


def test_a_dropped_entry_is_not_paired_after_its_last_round():
    results = [result(1, "A", "E", "A"), result(1, "B", "F", "B"), result(1, "C", "G", "C"), result(1, "D", "H", "D")]
    answer = swiss("A B C D E F G H", results, dropped={"B": 1, "H": 1})
    assert row(answer, "B")["dropped"] is True
    assert row(answer, "H")["dropped"] is True
    assert sorted(n for p in pairs(answer) for n in p) == ["A", "C", "D", "E", "F", "G"]
    assert answer["next_round"]["byes"] == []


def test_withdrawn_before_round_one_is_never_paired():
    answer = swiss("A B C D E", [], dropped={"E": 0})
    assert pairs(answer) == [["A", "C"], ["B", "D"]]
    assert answer["next_round"]["byes"] == []


def test_the_same_request_in_any_result_order_gives_the_same_answer():
    rng = random.Random(5)
    names = " ".join(f"P{i:02d}" for i in range(20))
    request = {"format": "swiss", "entries": entries(names), "rounds": 5, "results": []}
    for r in range(1, 4):
        answer = run_event(request)
        for a, b in pairs(answer):
            request["results"].append(result(r, a, b, rng.choice([a, b, None]) if rng.random() < 0.2 else a,
                                             0 if rng.random() < 0.2 else rng.randrange(1, 90)))
            if request["results"][-1]["winner"] is None:
                request["results"][-1]["margin"] = 0
    first = run_event(request)
    for _ in range(5):
        shuffled = dict(request, results=rng.sample(request["results"], len(request["results"])))
        assert run_event(shuffled) == first


def test_a_round_half_played_lists_what_is_owed_instead_of_a_next_round():
    answer = swiss("A B C D E", [result(1, "A", "C", "A")])
    assert answer["next_round"] is None
    assert answer["rounds_played"] == 0
    assert answer["pending"] == [{"round": 1, "players": ["B", "D"]}, {"round": 1, "bye": "E"}]


def test_an_unrecorded_bye_is_owed():
    answer = swiss("A B C", [result(1, "A", "B", "A")])
    assert answer["pending"] == [{"round": 1, "bye": "C"}]
    assert answer["next_round"] is None


def test_a_swapped_pairing_leaves_the_others_owed_among_themselves():
    """The engine pairs A-E, B-F, C-G, D-H; the director played A-F and B-E, recording A-F only."""
    answer = swiss("A B C D E F G H", [result(1, "A", "F", "A")])
    assert answer["pending"] == [{"round": 1, "players": ["C", "G"]}, {"round": 1, "players": ["D", "H"]},
                                 {"round": 1, "players": ["B", "E"]}]


def test_complete_swiss_names_the_champion_ranked_first_alone():
    results = [result(1, "A", "C", "A"), result(1, "B", "D", "B"), result(2, "A", "B", "A"),
               result(2, "C", "D", "C")]
    answer = swiss("A B C D", results)
    assert answer["complete"] is True
    assert answer["champion"] == "A"
    assert answer["next_round"] is None
    assert answer["pending"] == []


def test_complete_with_a_shared_first_place_has_no_champion():
    results = [result(1, "A", "B", None), {"round": 1, "bye": "C"}, result(2, "A", "C", "C"),
               {"round": 2, "bye": "B"}]
    answer = swiss("A B C", results, tiebreaks=["match_points"])
    # A 1, B 1 + 2, C 2 + 2: C alone first.
    assert answer["champion"] == "C"
    tied = swiss("A B", [result(1, "A", "B", None)], tiebreaks=["match_points"])
    assert tied["complete"] is True
    assert tied["champion"] is None
