"""POST /api/v1/melds/: the best melds of 10 or 11 cards, with clear errors."""

import pytest
from rest_framework.test import APIClient

# The calculators store nothing, but their throttle counts in the shared cache (a database table).
pytestmark = pytest.mark.django_db


def post(body):
    return APIClient().post("/api/v1/melds/", data=body, format="json")


def test_ten_cards():
    response = post({"cards": "AS 2S 3S 7H 7D 7C JD QD KD 9C".split()})
    assert response.status_code == 200
    assert response.json() == {
        "melds": [["7H", "7D", "7C"], ["AS", "2S", "3S"], ["JD", "QD", "KD"]],
        "deadwood_cards": ["9C"],
        "deadwood": 9,
    }


def test_eleven_cards_report_the_discard_and_big_gin():
    answer = post({"cards": "4S 8S 3H 6H 4D 6D 7D 8D 6C 7C 8C".split()}).json()
    assert (answer["deadwood"], answer["discard"], answer["big_gin"]) == (17, "8S", False)
    answer = post({"cards": "AS 2S 3S 7S 7H 7D 7C JD QD KD TD".split()}).json()
    assert (answer["deadwood"], answer["discard"], answer["big_gin"]) == (0, None, True)


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "cards", "is required"),
        ({"cards": ["AS", "2S"]}, "cards", "10 or 11 cards needed; 2 given"),
        ({"cards": ["AS", "AS", *"2S 3S 4S 5S 6S 7S 8S 9S".split()]}, "cards", "AS appears twice"),
        ({"cards": ["AS", "XQ", *"2S 3S 4S 5S 6S 7S 8S 9S".split()]}, "cards", "card 2: 'XQ' is not a card"),
        ({"cards": "AS 2S"}, "cards", "must be a list"),
        ({"cards": [], "extra": 1}, "extra", "unknown field"),
    ],
)
def test_bad_input_names_the_field(body, field, message):
    response = post(body)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["hand"], error["field"]) == (None, field)
    assert message in error["message"]
