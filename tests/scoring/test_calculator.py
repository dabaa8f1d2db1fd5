"""The calculator contract through both doors: ``manage.py score`` and ``POST /api/v1/score/``.

Every bad input listed under "Errors" in SCORESHEET.md gets exit 2 / HTTP 400 with the error JSON,
never a traceback.
"""

import json

import pytest
from rest_framework.test import APIClient

from scoring.api.views import CalculatorThrottle
from tests.calculators import post_json, run_calculator_command

# The calculators store nothing, but their throttle counts in the shared cache (a database table).
pytestmark = pytest.mark.django_db

GOOD = {
    "conventions": "classic",
    "players": ["Ann", "Bob"],
    "first_dealer": "Ann",
    "hands": [{"result": "knock", "knocker": "Ann", "knocker_deadwood": 6, "opponent_deadwood": 19}],
}


def run_command(stdin_text, monkeypatch):
    return run_calculator_command("score", stdin_text, monkeypatch)


def post(body, client=None):
    return post_json("/api/v1/score/", body, client)


def with_hands(*hands, conventions="classic"):
    return {**GOOD, "conventions": conventions, "hands": list(hands)}


K = {"result": "knock", "knocker": "Ann", "knocker_deadwood": 4, "opponent_deadwood": 20}
BAD_SHEETS = {
    "unknown preset": ({**GOOD, "conventions": "bridge"}, None, "conventions"),
    "unknown convention field": ({**GOOD, "conventions": {"preset": "classic", "gin_bonnus": 1}}, None,
                                 "conventions.gin_bonnus"),
    "unknown top-level field": ({**GOOD, "hand": []}, None, "hand"),
    "unknown format": ({**GOOD, "format": "canasta"}, None, "format"),
    "three players in a standard game": ({**GOOD, "players": ["A", "B", "C"]}, None, "players"),
    "the same name twice": ({**GOOD, "players": ["A", "A"]}, None, "players"),
    "first dealer not a player": ({**GOOD, "first_dealer": "Cat"}, None, "first_dealer"),
    "knocker not a player": (with_hands({**K, "knocker": "Cat"}), 1, "knocker"),
    "negative count": (with_hands({**K, "opponent_deadwood": -3}), 1, "opponent_deadwood"),
    "impossible count": (with_hands({**K, "opponent_deadwood": 99}), 1, "opponent_deadwood"),
    "count that is not a number": (with_hands({**K, "knocker_deadwood": "4"}), 1, "knocker_deadwood"),
    "knock over the limit": (with_hands(K, {**K, "knocker_deadwood": 11}), 2, "knocker_deadwood"),
    "knock with no deadwood": (with_hands({**K, "knocker_deadwood": 0}), 1, "knocker_deadwood"),
    "gin with deadwood": (with_hands({"result": "gin", "knocker": "Ann", "knocker_deadwood": 3,
                                      "opponent_deadwood": 20}), 1, "knocker_deadwood"),
    "missing opponent deadwood": (with_hands({"result": "gin", "knocker": "Ann"}), 1, "opponent_deadwood"),
    "unknown result": (with_hands({"result": "schneider"}), 1, "result"),
    "a dead hand with a knocker": (with_hands({"result": "dead", "knocker": "Ann"}), 1, "knocker"),
    "a hand after the game is complete": (
        with_hands({"result": "gin", "knocker": "Ann", "opponent_deadwood": 98}, K), 2, None),
    "an Oklahoma hand with no upcard": (with_hands(K, conventions="oklahoma"), 1, "upcard"),
    "a bad upcard": (with_hands({**K, "upcard": "11S"}, conventions="oklahoma"), 1, "upcard"),
    "a hand that is not an object": (with_hands("knock"), 1, None),
    "a bad card": (with_hands({"result": "gin", "knocker": "Ann", "knocker_cards": ["AS", "2S", "3S", "ZZ"],
                               "opponent_deadwood": 5}), 1, "knocker_cards"),
    "a duplicate card": (with_hands({"result": "gin", "knocker": "Ann",
                                     "knocker_cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S 9S".split(),
                                     "opponent_deadwood": 5}), 1, "knocker_cards"),
    "a count that disagrees with the cards": (
        with_hands({"result": "knock", "knocker": "Ann", "knocker_deadwood": 4,
                    "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD 9C".split(), "opponent_deadwood": 30}),
        1, "knocker_deadwood"),
    "hands that are not a list": ({**GOOD, "hands": {"1": K}}, None, "hands"),
}


@pytest.mark.parametrize("case", sorted(BAD_SHEETS))
def test_bad_sheets_exit_2_with_the_error_json(case, monkeypatch):
    body, hand, field = BAD_SHEETS[case]
    code, answer = run_command(json.dumps(body), monkeypatch)
    assert code == 2
    first = answer["errors"][0]
    assert (first["hand"], first["field"]) == (hand, field)
    assert first["message"]


@pytest.mark.parametrize("case", sorted(BAD_SHEETS))
def test_bad_sheets_get_http_400_with_the_same_error_json(case, monkeypatch):
    body, _hand, _field = BAD_SHEETS[case]
    response = post(body)
    assert response.status_code == 400
    assert response.json() == run_command(json.dumps(body), monkeypatch)[1]


def test_the_command_scores_a_good_sheet(monkeypatch):
    code, answer = run_command(json.dumps(GOOD), monkeypatch)
    assert code == 0
    assert answer["players"]["Ann"]["total"] == 33
    assert answer["next_dealer"] == "Bob"


def test_the_api_scores_a_good_sheet_and_matches_the_command(monkeypatch):
    response = post(GOOD)
    assert response.status_code == 200
    assert response.json() == run_command(json.dumps(GOOD), monkeypatch)[1]


def test_the_answer_carries_every_field_of_the_contract():
    answer = post(GOOD).json()
    assert set(answer) >= {"format", "conventions", "hands", "complete", "winner", "next_dealer", "players",
                           "margin"}
    assert set(answer["hands"][0]) >= {"number", "dealer", "players", "result", "outcome", "winner", "points",
                                       "boxes", "knocker_deadwood", "opponent_deadwood", "totals"}
    assert set(answer["players"]["Ann"]) == {"points", "hands_won", "boxes", "box_bonus", "game_bonus",
                                             "shutout_bonus", "total"}


def test_invalid_json_is_an_error_not_a_traceback(monkeypatch):
    code, answer = run_command("{not json", monkeypatch)
    assert code == 2
    assert "not valid JSON" in answer["errors"][0]["message"]
    response = post("{not json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"]


def test_a_request_that_is_not_an_object_is_refused(monkeypatch):
    assert run_command("[1, 2]", monkeypatch)[0] == 2
    assert post([1, 2]).status_code == 400


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"format": "hollywood", "players": ["A", "B", "C"]}, "players"),
        ({"format": "rotation", "players": ["A", "B"]}, "players"),
        ({"format": "jersey", "players": ["A", "B", "C", "D"]}, "players"),
        ({"format": "partnership", "players": ["A", "B", "C", "D"]}, "players"),
        ({"format": "partnership", "teams": [["A", "B"], ["C"]]}, "teams"),
        ({"format": "standard", "players": ["A", "B"], "teams": [["A"], ["B"]]}, "teams"),
    ],
)
def test_each_format_refuses_the_wrong_number_of_players_or_tables(body, field):
    response = post(body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field


def test_anonymous_use_is_allowed_and_throttled(monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "rate", "3/minute", raising=False)
    client = APIClient()
    assert [post(GOOD, client).status_code for _ in range(4)] == [200, 200, 200, 429]
    answer = post(GOOD, client).json()
    assert "throttled" in answer["errors"][0]["message"].lower()
