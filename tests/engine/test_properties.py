"""Properties that hold for every valid two-player score sheet (hypothesis)."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import score_sheet

from .strategies import boxes_count, sheets

SETTINGS = settings(max_examples=200, deadline=None)


@SETTINGS
@given(sheets())
def test_grand_totals_are_never_negative_and_only_net_boxes_can_reduce_one(request):
    answer = score_sheet(request)
    for standing in answer["players"].values():
        assert standing["total"] - standing["box_bonus"] >= 0
        if answer["conventions"]["box_mode"] == "per_hand":
            assert standing["total"] >= 0


@SETTINGS
@given(sheets(), st.data())
def test_a_dead_hand_changes_nothing_but_the_deal(request, data):
    answer = score_sheet(request)
    where = data.draw(st.integers(0, max(0, len(request["hands"]) - (1 if answer["complete"] else 0))))
    with_dead = copy.deepcopy(request)
    with_dead["hands"].insert(where, {"result": "dead", "upcard": "5H"})
    other = score_sheet(with_dead)
    assert (other["complete"], other["winner"]) == (answer["complete"], answer["winner"])
    scored = [h for h in other["hands"] if h["outcome"] != "dead" or h["number"] != where + 1]
    assert [h["points"] for h in scored] == [h["points"] for h in answer["hands"]]
    for name, standing in answer["players"].items():
        changed = other["players"][name]
        if request["conventions"].get("shutout_requires_all_hands",
                                      request["conventions"]["preset"] == "cardgames"):
            # the one thing a dead hand may do: cost a shutout that needs every hand won
            assert changed["shutout_bonus"] in (0, standing["shutout_bonus"])
            changed = {**changed, "shutout_bonus": standing["shutout_bonus"],
                       "total": changed["total"] - changed["shutout_bonus"] + standing["shutout_bonus"]}
        assert changed == standing


@SETTINGS
@given(sheets())
def test_renaming_the_players_changes_nothing(request):
    a, b = request["players"]
    rename = {a: "Renamed-1", b: "Renamed-2"}
    renamed = copy.deepcopy(request)
    renamed["players"] = [rename[a], rename[b]]
    renamed["first_dealer"] = rename[request["first_dealer"]]
    for hand in renamed["hands"]:
        if "knocker" in hand:
            hand["knocker"] = rename[hand["knocker"]]
    original, other = score_sheet(request), score_sheet(renamed)
    assert other["players"] == {rename[k]: v for k, v in original["players"].items()}
    assert other["margin"] == original["margin"]
    assert other["winner"] == (rename[original["winner"]] if original["winner"] else None)
    for h1, h2 in zip(original["hands"], other["hands"], strict=True):
        assert h2["dealer"] == rename[h1["dealer"]]
        assert h2["totals"] == {rename[k]: v for k, v in h1["totals"].items()}
        assert (h2["points"], h2["outcome"]) == (h1["points"], h1["outcome"])


@SETTINGS
@given(sheets())
def test_the_game_completes_on_exactly_the_first_hand_that_reaches_the_target(request):
    answer = score_sheet(request)
    target = answer["conventions"]["target"]
    reached = [h["number"] for h in answer["hands"] if max(h["totals"].values()) >= target]
    if answer["complete"]:
        assert reached == [len(answer["hands"])]
        assert answer["hands"][-1]["totals"][answer["winner"]] >= target
    else:
        assert reached == []


@SETTINGS
@given(sheets())
def test_margin_is_winner_total_minus_loser_total(request):
    answer = score_sheet(request)
    if not answer["complete"]:
        assert answer["margin"] is None
        return
    (loser,) = [p for p in answer["players"] if p != answer["winner"]]
    assert answer["margin"] == answer["players"][answer["winner"]]["total"] - answer["players"][loser]["total"]


@SETTINGS
@given(sheets())
def test_running_totals_are_the_sum_of_the_points_won_and_boxes_when_they_count(request):
    answer = score_sheet(request)
    box_points = boxes_count(answer)
    running = dict.fromkeys(request["players"], 0)
    for hand in answer["hands"]:
        if hand["winner"]:
            running[hand["winner"]] += hand["points"] + box_points * hand["boxes"]
        assert hand["totals"] == running
    assert {p: s["points"] + box_points * s["boxes"] for p, s in answer["players"].items()} == running


@SETTINGS
@given(sheets())
def test_a_tie_is_scored_as_the_tie_rule_says(request):
    answer = score_sheet(request)
    rule = answer["conventions"]["tie_rule"]
    for hand in answer["hands"]:
        if hand["result"] == "knock" and hand["knocker_deadwood"] == hand["opponent_deadwood"]:
            expected = {"undercut": "undercut", "no_score": "tie", "knocker": "knock"}[rule]
            assert hand["outcome"] == expected
            if rule == "knocker":
                assert (hand["winner"], hand["points"], hand["boxes"]) == (hand["knocker"], 0, 1)
        elif hand["outcome"] in ("knock", "undercut"):
            assert (hand["outcome"] == "knock") == (hand["knocker_deadwood"] < hand["opponent_deadwood"])


@SETTINGS
@given(sheets())
def test_counting_boxes_toward_the_target_only_ends_the_game_sooner(request):
    """The same hands without the rule score the same hand by hand; only the end and the shutout differ."""
    answer = score_sheet(request)
    if not answer["conventions"]["boxes_count_toward_target"]:
        return
    plain = score_sheet({**request, "conventions": {**request["conventions"], "boxes_count_toward_target": False}})
    assert [h["points"] for h in answer["hands"]] == [h["points"] for h in plain["hands"]]
    assert plain["complete"] <= answer["complete"]
    for name, standing in answer["players"].items():
        other = plain["players"][name]
        assert (standing["points"], standing["boxes"], standing["box_bonus"]) == (
            other["points"], other["boxes"], other["box_bonus"])


@SETTINGS
@given(sheets())
def test_a_flat_shutout_adds_exactly_the_bonus_when_the_loser_scored_nothing(request):
    answer = score_sheet(request)
    conventions = answer["conventions"]
    if conventions["shutout"] != "flat" or not answer["complete"]:
        return
    (loser,) = [p for p in answer["players"] if p != answer["winner"]]
    scoreless = answer["hands"][-1]["totals"][loser] == 0
    if conventions["shutout_requires_all_hands"]:
        scoreless = scoreless and answer["players"][answer["winner"]]["hands_won"] == len(answer["hands"])
    assert answer["players"][answer["winner"]]["shutout_bonus"] == (conventions["shutout_bonus"] if scoreless else 0)
