"""Round robin by the circle method: the schedule, odd fields, drops and the byes they make."""

from tournaments.engine import run_event

from .helpers import entries, pairs, ranks, row


def result(r, a, b, winner, margin=0):
    return {"round": r, "players": [a, b], "winner": winner, "margin": margin}


def test_five_entries_play_five_rounds_each_sitting_out_once():
    """Places (empty, A, B, C, D, E): round 1 pairs empty-E, A-D, B-C; then E moves to place 2."""
    request = {"format": "round_robin", "entries": entries("A B C D E"), "results": []}
    schedule = []
    for r in range(1, 6):
        answer = run_event(request)
        upcoming = answer["next_round"]
        schedule.append((sorted(sorted(p) for p in pairs(answer)), upcoming["byes"]))
        request["results"] += [result(r, a, b, a) for a, b in pairs(answer)]
    assert schedule == [
        ([["A", "D"], ["B", "C"]], ["E"]),
        ([["A", "B"], ["C", "E"]], ["D"]),
        ([["A", "E"], ["B", "D"]], ["C"]),
        ([["A", "C"], ["D", "E"]], ["B"]),
        ([["B", "E"], ["C", "D"]], ["A"]),
    ]
    final = run_event(request)
    assert final["complete"] is True
    assert final["rounds"] == 5
    assert [row(final, n)["byes"] for n in "ABCDE"] == [1, 1, 1, 1, 1]


def test_scheduled_byes_score_only_once_their_round_has_begun():
    request = {"format": "round_robin", "entries": entries("A B C"), "match_points": {"bye": 1}, "results": []}
    start = run_event(request)
    assert start["next_round"] == {"round": 1, "pairings": [{"table": 1, "players": ["A", "B"]}], "bye": "C",
                                   "byes": ["C"]}
    assert row(start, "C")["byes"] == 0
    request["results"] = [result(1, "A", "B", "A", 30)]
    after = run_event(request)
    assert (row(after, "C")["byes"], row(after, "C")["match_points"], row(after, "C")["wins"]) == (1, 1, 1)
    assert after["rounds_played"] == 1


def test_a_recorded_round_robin_bye_is_accepted_when_the_schedule_says_so():
    request = {"format": "round_robin", "entries": entries("A B C"),
               "results": [result(1, "A", "B", "A"), {"round": 1, "bye": "C"}]}
    assert row(run_event(request), "C")["byes"] == 1


def test_a_dropped_entrys_scheduled_opponents_sit_out_so_a_round_can_have_two_byes():
    """Five entries, E drops after round 1: in round 2 E was to meet C, so C sits out beside D."""
    request = {"format": "round_robin", "entries": entries("A B C D E"), "dropped": {"E": 1},
               "results": [result(1, "A", "D", "A"), result(1, "B", "C", "B")]}
    answer = run_event(request)
    assert answer["next_round"]["round"] == 2
    assert pairs(answer) == [["A", "B"]]
    assert answer["next_round"]["byes"] == ["C", "D"]
    assert answer["next_round"]["bye"] == "C"
    assert row(answer, "E")["dropped"] is True
    assert row(answer, "E")["byes"] == 1  # its round 1 bye still counts


def test_round_robin_default_tiebreaks_put_head_to_head_before_margin():
    request = {"format": "round_robin", "entries": entries("A B C D"),
               "results": [result(1, "A", "D", "A", 100), result(1, "B", "C", "B", 100),
                           result(2, "A", "C", "C", 1), result(2, "D", "B", "B", 100),
                           result(3, "A", "B", "A", 1), result(3, "C", "D", "C", 1)]}
    answer = run_event(request)
    # A 4 (beat D, B), B 4 (beat C, D), C 4 (beat A, D): all met, head to head 2 each; margin A 100,
    # B 199, C 1 - 100 + 1 = -98.
    assert ranks(answer) == [(1, "B"), (2, "A"), (3, "C"), (4, "D")]
    assert list(row(answer, "A")["tiebreaks"]) == ["match_points", "head_to_head", "margin", "buchholz"]


def test_four_thousand_entries_are_scheduled_without_building_the_table():
    names = [f"P{i}" for i in range(4096)]
    answer = run_event({"format": "round_robin", "entries": entries(names)})
    assert answer["rounds"] == 4095
    assert len(answer["next_round"]["pairings"]) == 2048
    assert answer["next_round"]["pairings"][0] == {"table": 1, "players": ["P0", "P4095"]}
