"""The calculator page: a form of hands with the entry page's fields, scored by the engine; JSON kept."""

import json
import re

import pytest

pytestmark = pytest.mark.django_db

SETUP = {"format": "standard", "preset": "classic", "player_1": "Ann", "player_2": "Bob", "player_3": ""}


def hands_of(page):
    return json.loads(re.search(r'name="hands" value="([^"]*)"', page).group(1).replace("&quot;", '"'))


def test_the_calculator_is_a_form_of_hands_with_the_entry_fields_and_card_picker(client):
    page = client.get("/calculator/").content.decode()
    for field in ('name="play"', 'value="knock:Ann"', 'value="gin:Bob"', 'name="knocker_deadwood"',
                  'name="opponent_deadwood"', "data-picker", 'name="knocker_cards"'):
        assert field in page
    assert 'id="sheet"' in page  # the JSON view for programmers is still there


def test_hands_added_one_by_one_are_scored_and_read_back_and_can_be_undone(client):
    page = client.post("/calculator/", {**SETUP, "hands": "[]", "action": "add", "result": "knock", "knocker": "Ann",
                                        "knocker_deadwood": "6", "opponent_deadwood": "19"}).content.decode()
    assert "Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)" in page
    hands = hands_of(page)
    assert hands == [{"result": "knock", "knocker": "Ann", "knocker_deadwood": 6, "opponent_deadwood": 19}]
    page = client.post("/calculator/", {**SETUP, "hands": json.dumps(hands), "action": "add", "result": "gin",
                                        "knocker": "Bob", "opponent_deadwood": "31"}).content.decode()
    assert "Bob goes gin, Ann has 31: Bob scores 51 (+1 box)" in page
    assert re.search(r'<td class="score">33</td><td class="score">71</td><th scope="row">Grand total</th>', page)
    assert '&quot;result&quot;: &quot;gin&quot;' in page  # the request as JSON
    undone = client.post("/calculator/", {**SETUP, "hands": json.dumps(hands_of(page)), "action": "undo"})
    assert len(hands_of(undone.content.decode())) == 1


def test_a_refused_hand_is_not_added_and_the_error_is_beside_its_field(client):
    page = client.post("/calculator/", {**SETUP, "hands": "[]", "action": "add", "result": "knock", "knocker": "Ann",
                                        "knocker_deadwood": "12", "opponent_deadwood": "19"}).content.decode()
    assert "Knock needs deadwood &lt;= 10; 12 recorded" in page
    assert hands_of(page) == []
    junk = client.post("/calculator/", {**SETUP, "hands": "[[[", "action": "undo"}).content.decode()
    assert "could not be read" in junk


def test_a_jersey_game_in_the_calculator_asks_each_players_deadwood(client):
    setup = {**SETUP, "format": "jersey", "player_3": "Cat"}
    page = client.post("/calculator/", {**setup, "hands": "[]", "action": "add", "result": "knock", "knocker": "Ann",
                                        "knocker_deadwood": "5", "deadwood_Bob": "12",
                                        "deadwood_Cat": "20"}).content.decode()
    assert "Ann knocks with 5, Bob has 12, Cat has 20: Ann scores 22 (+1 box)" in page
