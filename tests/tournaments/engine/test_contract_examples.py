"""EVENTS.md's own examples, answered exactly as its text explains them."""

from tournaments.engine import run_event

from ...contracts import example, shows
from .helpers import entries, order, pairs, row

# EVENTS.md's request and answer, read from the contract itself (docs/contracts/EVENTS.md).
CONTRACT_REQUEST = example("EVENTS", 1)
CONTRACT_ANSWER = example("EVENTS", 2)
CONTRACT_ERROR = example("EVENTS", 3)


def test_the_request_example_gives_cleo_the_bye_and_pairs_ann_with_bob():
    answer = run_event(CONTRACT_REQUEST)
    assert answer["format"] == "swiss"
    assert answer["rounds"] == 3
    assert answer["rounds_played"] == 1
    assert answer["complete"] is False
    assert answer["champion"] is None
    assert order(answer) == ["Ann", "Dev", "Bob", "Cleo"]
    assert answer["next_round"]["round"] == 2
    assert answer["next_round"]["pairings"] == [{"table": 1, "players": ["Ann", "Bob"]}]
    assert answer["next_round"]["bye"] == "Cleo"
    assert answer["next_round"]["byes"] == ["Cleo"]
    assert answer["pending"] == []


def test_the_answer_example_row_for_ann_has_every_listed_field():
    ann = row(run_event(CONTRACT_REQUEST), "Ann")
    assert ann == {
        "rank": 1, "name": "Ann", "seed": 1, "played": 1, "wins": 1, "draws": 0, "losses": 0, "byes": 0,
        "match_points": 2, "margin": 143, "dropped": False,
        "tiebreaks": {"match_points": 2, "buchholz": 0, "margin": 143, "head_to_head": None},
    }


def test_the_contracts_answer_example_is_the_engines_answer_to_its_request():
    """Every field the example shows, as the engine answers it (the example lists Ann's row of the standings)."""
    answer = run_event(CONTRACT_REQUEST)
    shown = {**answer, "standings": [row(answer, r["name"]) for r in CONTRACT_ANSWER["standings"]]}
    assert shows(shown, CONTRACT_ANSWER)


def test_the_contracts_error_example_has_the_shape_of_the_engines_errors():
    from tournaments.engine import EventError

    request = {**CONTRACT_REQUEST, "results": [*CONTRACT_REQUEST["results"], {"round": 2, "players": ["Ann", "Bob"],
                                                                              "winner": "Dan", "margin": 0}]}
    try:
        run_event(request)
    except EventError as refused:
        said = refused.as_dict()
    assert [set(e) for e in said["errors"]] == [set(e) for e in CONTRACT_ERROR["errors"]]


def test_dev_keeps_his_result_and_place_marked_dropped():
    dev = row(run_event(CONTRACT_REQUEST), "Dev")
    assert (dev["rank"], dev["match_points"], dev["margin"], dev["dropped"]) == (2, 2, 52, True)


def test_the_bye_goes_to_cleo_because_her_margin_is_lower_than_bobs():
    """Bob and Cleo both have 0 match points and a Buchholz of 2; margin -52 beats -143."""
    answer = run_event(CONTRACT_REQUEST)
    assert row(answer, "Bob")["tiebreaks"] == {"match_points": 0, "buchholz": 2, "margin": -52, "head_to_head": None}
    assert row(answer, "Cleo")["tiebreaks"]["margin"] == -143


def test_round_robin_of_four_follows_the_circle_method_of_the_contract():
    """A B C D: A-D B-C, then A-C D-B, then A-B C-D."""
    request = {"format": "round_robin", "entries": entries("A B C D"), "results": []}
    seen = []
    for r in (1, 2, 3):
        answer = run_event(request)
        assert answer["next_round"]["round"] == r
        seen.append(sorted(sorted(p) for p in pairs(answer)))
        for a, b in pairs(answer):
            request["results"].append({"round": r, "players": [a, b], "winner": None})
    assert seen == [[["A", "D"], ["B", "C"]], [["A", "C"], ["B", "D"]], [["A", "B"], ["C", "D"]]]
    assert run_event(request)["complete"] is True


def test_eight_slots_are_seeded_1_8_4_5_2_7_3_6_from_the_top():
    answer = run_event({"format": "single_elimination", "entries": entries([f"S{i}" for i in range(1, 9)])})
    first_round = [m["players"] for m in answer["bracket"] if m["round"] == 1]
    assert first_round == [["S1", "S8"], ["S4", "S5"], ["S2", "S7"], ["S3", "S6"]]


def test_the_error_example_names_the_result_the_field_and_who_did_not_play():
    from tournaments.engine import EventError

    request = {"format": "single_elimination", "entries": entries("Ann Bob Cleo Dev"),
               "results": [{"match": "W1-1", "winner": "Ann"}, {"match": "W1-2", "winner": "Ann"},
                           {"match": "W1-2", "winner": "Bob"}]}
    try:
        run_event(request)
    except EventError as exc:
        errors = exc.as_dict()["errors"]
    assert {"result": 2, "field": "winner", "message": "Ann did not play in match W1-2 (Bob v Cleo)"} in errors
    assert any(e["result"] == 3 and e["field"] == "match" for e in errors)
