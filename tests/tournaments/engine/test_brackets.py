"""Single and double elimination on cases worked out by hand: seeding, byes, places, grand finals."""

import pytest

from tournaments.engine import run_event

from .helpers import entries, match, ranks


def seeds(n):
    return [f"S{i}" for i in range(1, n + 1)]


def first_round(n):
    answer = run_event({"format": "single_elimination", "entries": entries(seeds(n))})
    return [m["players"] for m in answer["bracket"] if m["bracket"] == "winners" and m["round"] == 1]


def test_seed_placement_for_four():
    assert first_round(4) == [["S1", "S4"], ["S2", "S3"]]


def test_seed_placement_for_five_gives_byes_to_the_top_three():
    assert first_round(5) == [["S1"], ["S4", "S5"], ["S2"], ["S3"]]


def test_seed_placement_for_eight():
    assert first_round(8) == [["S1", "S8"], ["S4", "S5"], ["S2", "S7"], ["S3", "S6"]]


def test_seed_placement_for_thirteen_gives_byes_to_seeds_one_to_three():
    assert first_round(13) == [["S1"], ["S8", "S9"], ["S4", "S13"], ["S5", "S12"],
                               ["S2"], ["S7", "S10"], ["S3"], ["S6", "S11"]]


def test_seed_placement_for_sixteen():
    assert first_round(16) == [["S1", "S16"], ["S8", "S9"], ["S4", "S13"], ["S5", "S12"],
                               ["S2", "S15"], ["S7", "S10"], ["S3", "S14"], ["S6", "S11"]]


def test_byes_advance_at_once_and_have_no_result():
    answer = run_event({"format": "single_elimination", "entries": entries(seeds(5))})
    w11 = match(answer, "W1-1")
    assert w11 == {"id": "W1-1", "bracket": "winners", "round": 1, "index": 1, "players": ["S1"], "status": "bye",
                   "winner": None, "margin": None, "forfeit": None, "winner_to": "W2-1", "loser_to": None,
                   "from": [{"seed": 1, "bye": False}, {"seed": 8, "bye": True}]}
    assert match(answer, "W2-1")["players"] == ["S1", None]
    assert match(answer, "W2-2")["players"] == ["S2", "S3"]
    assert match(answer, "W2-2")["status"] == "ready"
    assert answer["pending"] == [{"match": "W1-2", "players": ["S4", "S5"]}, {"match": "W2-2", "players": ["S2", "S3"]}]


def test_single_elimination_with_third_place_ranks_one_to_four_and_the_rest_by_round():
    results = [
        {"match": "W1-1", "winner": "S1", "margin": 10}, {"match": "W1-2", "winner": "S5", "margin": 20},
        {"match": "W1-3", "winner": "S2"}, {"match": "W1-4", "winner": "S6"},
        {"match": "W2-1", "winner": "S5"}, {"match": "W2-2", "winner": "S2"},
        {"match": "W3-1", "winner": "S2", "margin": 90}, {"match": "3P", "winner": "S1"},
    ]
    answer = run_event({"format": "single_elimination", "entries": entries(seeds(8)), "third_place": True,
                        "results": results})
    assert answer["complete"] is True
    assert answer["champion"] == "S2"
    # Round 1 losers: 1 + 8 - 4 = 5, shared, listed in seed order.
    assert ranks(answer) == [(1, "S2"), (2, "S5"), (3, "S1"), (4, "S6"), (5, "S3"), (5, "S4"), (5, "S7"), (5, "S8")]
    assert match(answer, "3P")["bracket"] == "final"
    assert match(answer, "3P")["round"] == 3
    assert match(answer, "W2-1")["loser_to"] == "3P"
    assert answer["rounds"] is None
    assert answer["rounds_played"] == 3


def test_places_stay_stable_while_a_round_is_half_played():
    """One quarter-final played: its loser is 5th already (1 + 8 - 4), the others all share 1."""
    answer = run_event({"format": "single_elimination", "entries": entries(seeds(8)),
                        "results": [{"match": "W1-2", "winner": "S4"}]})
    assert ranks(answer)[-1] == (5, "S5")
    assert [r for r, _ in ranks(answer)[:-1]] == [1] * 7
    semis = run_event({"format": "single_elimination", "entries": entries(seeds(8)), "third_place": True,
                       "results": [{"match": f"W1-{i}", "winner": f"S{s}"} for i, s in enumerate([1, 4, 2, 3], 1)]
                       + [{"match": "W2-1", "winner": "S1"}, {"match": "W2-2", "winner": "S3"}]})
    assert [r for r, n in ranks(semis) if n in ("S4", "S2")] == [3, 3]  # awaiting 3P


def test_places_with_byes_count_only_real_matches():
    """Five entries: round 1 has one real match (its loser 1 + 5 - 1 = 5), round 2 two (losers 3)."""
    answer = run_event({"format": "single_elimination", "entries": entries(seeds(5)),
                        "results": [{"match": "W1-2", "winner": "S4"}, {"match": "W2-1", "winner": "S1"},
                                    {"match": "W2-2", "winner": "S3"}, {"match": "W3-1", "winner": "S3"}]})
    assert ranks(answer) == [(1, "S3"), (2, "S1"), (3, "S2"), (3, "S4"), (5, "S5")]
    assert sum(1 for m in answer["bracket"] if m["status"] == "done") == 4  # n - 1 real matches


def test_double_elimination_of_six_with_a_grand_final_reset():
    e = entries(seeds(6))
    results = [
        {"match": "W1-2", "winner": "S4"}, {"match": "W1-4", "winner": "S3"},  # S5, S6 drop to L1
        {"match": "W2-1", "winner": "S1"}, {"match": "W2-2", "winner": "S2"},  # S4, S3 drop to L2
        {"match": "W3-1", "winner": "S1"},  # S2 drops to L4
    ]
    answer = run_event({"format": "double_elimination", "entries": e, "results": results})
    # L1-1 = [bye (loser of W1-1), S5]: a bye; L1-2 = [S6, bye]: a bye.
    assert match(answer, "L1-1")["players"] == ["S5"]
    assert match(answer, "L1-1")["status"] == "bye"
    # Losers of W2 drop into L2 reversed: L2-1 = [loser of W2-2 (S3), S5]; L2-2 = [S4, S6].
    assert match(answer, "L2-1")["players"] == ["S3", "S5"]
    assert match(answer, "L2-2")["players"] == ["S4", "S6"]
    assert match(answer, "W2-2")["loser_to"] == "L2-1"
    assert match(answer, "W3-1")["loser_to"] == "L4-1"
    results += [{"match": "L2-1", "winner": "S5"}, {"match": "L2-2", "winner": "S4"}, {"match": "L3-1", "winner": "S4"},
                {"match": "L4-1", "winner": "S4"}, {"match": "GF1", "winner": "S4", "margin": 12}]
    answer = run_event({"format": "double_elimination", "entries": e, "results": results})
    assert match(answer, "GF1")["players"] == ["S1", "S4"]
    assert match(answer, "GF2")["players"] == ["S1", "S4"]
    assert match(answer, "GF2")["status"] == "ready"
    assert answer["complete"] is False
    # Out in L2 (two real matches): 1 + 6 - 2 = 5; L3: 1 + 6 - 3 = 4; L4: 3.
    assert ranks(answer) == [(1, "S1"), (1, "S4"), (3, "S2"), (4, "S5"), (5, "S3"), (5, "S6")]
    results.append({"match": "GF2", "winner": "S4", "margin": 3})
    answer = run_event({"format": "double_elimination", "entries": e, "results": results})
    assert answer["complete"] is True
    assert answer["champion"] == "S4"
    assert ranks(answer)[:2] == [(1, "S4"), (2, "S1")]
    assert [m["id"] for m in answer["bracket"]][-2:] == ["GF1", "GF2"]


def test_gf2_is_listed_only_when_the_losers_champion_wins_gf1():
    results = [{"match": "W1-1", "winner": "S1"}, {"match": "GF1", "winner": "S1"}]
    answer = run_event({"format": "double_elimination", "entries": entries(seeds(2)), "results": results})
    assert [m["id"] for m in answer["bracket"]] == ["W1-1", "GF1"]
    assert answer["champion"] == "S1"
    assert ranks(answer) == [(1, "S1"), (2, "S2")]


def test_grand_final_single_decides_in_one_match():
    results = [{"match": "W1-1", "winner": "S1"}, {"match": "GF1", "winner": "S2"}]
    answer = run_event({"format": "double_elimination", "entries": entries(seeds(2)), "grand_final": "single",
                        "results": results})
    assert [m["id"] for m in answer["bracket"]] == ["W1-1", "GF1"]
    assert answer["champion"] == "S2"
    assert answer["complete"] is True


def test_a_match_of_two_byes_lists_no_player_and_sends_nobody_on():
    """Five entries: W1-3 and W1-4 are byes, so L1-2 pairs two byes; its place in L2 is a bye too.
    W2's losers drop in reversed: L2-1 = [loser of W2-2, winner of L1-1], L2-2 = [loser of W2-1, bye]."""
    answer = run_event({"format": "double_elimination", "entries": entries(seeds(5))})
    l12 = match(answer, "L1-2")
    assert (l12["players"], l12["status"], l12["winner_to"], l12["loser_to"]) == ([], "bye", None, None)
    assert match(answer, "L2-2")["players"] == [None]
    assert match(answer, "L2-2")["status"] == "waiting"
    assert match(answer, "L2-1")["players"] == [None, None]


@pytest.mark.parametrize("fmt", ["single_elimination", "double_elimination"])
def test_a_dropped_entry_forfeits_what_it_has_not_played(fmt):
    answer = run_event({"format": fmt, "entries": entries(seeds(4)), "forfeit_margin": 50,
                        "dropped": {"S4": 0}, "results": [{"match": "W1-2", "winner": "S3"}]})
    w11 = match(answer, "W1-1")
    assert (w11["status"], w11["winner"], w11["margin"], w11["forfeit"]) == ("done", "S1", 50, True)
    assert next(s for s in answer["standings"] if s["name"] == "S4")["dropped"] is True


def test_when_both_players_have_dropped_the_better_seed_advances():
    answer = run_event({"format": "single_elimination", "entries": entries(seeds(4)), "dropped": {"S2": 1, "S3": 1}})
    w12 = match(answer, "W1-2")
    assert (w12["winner"], w12["forfeit"]) == ("S2", True)
