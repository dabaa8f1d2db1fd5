"""The phone entry page for every format: a partnership deal's two tables on one screen, seated as the
engine says, and only the players who can knock a hand offered as knocker (rotation's dealer sits out)."""

import re

import pytest

from scoring import services
from scoring.models import Game, Hand

from ..factories import as_actor, game, knock, organiser, user

pytestmark = pytest.mark.django_db

TEAMS = ("Ann", "Cleo", "Bob", "Dev")  # Ann & Cleo v Bob & Dev; PINs 1111, 2222, 3333, 4444


def knockers(page, prefix=""):
    """The players offered as knocker: each has a row of one-tap choices (knock, gin, big gin)."""
    knocks = re.findall(rf'name="{prefix}play" value="knock:([^"]+)"', page)
    assert knocks == re.findall(rf'name="{prefix}play" value="gin:([^"]+)"', page)
    return knocks


def deal_post(number, once, t1, t2):
    data = {"number": number, "once": once}
    for prefix, hand in (("t1-", t1), ("t2-", t2)):
        data.update({prefix + k: v for k, v in hand.items()})
    return data


def partnership_game():
    ref = user()
    return ref, game(names=TEAMS, fmt="partnership", referees=[ref])


def test_the_deal_page_shows_both_tables_seated_by_the_deal_number_with_one_record_button(client):
    """Deal 1 is Ann v Bob and Cleo v Dev; deal 2 (opponents alternate) Ann v Dev and Cleo v Bob, even
    while deal 1 still awaits acceptance. Each table offers only its two players as knocker."""
    ref, g = partnership_game()
    client.force_login(ref)
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert "Partnership deals are recorded through the API" not in page
    assert '<h2>Deal 1</h2>' in page
    assert page.count(">Record deal 1</button>") == 1
    assert "Record hand" not in page
    assert re.findall(r'aria-label="(Table \d: [^"]+)"', page) == ["Table 1: Ann v Bob", "Table 2: Cleo v Dev"]
    assert (knockers(page, "t1-"), knockers(page, "t2-")) == (["Ann", "Bob"], ["Cleo", "Dev"])
    assert re.findall(r'class="table-dealer">(\w+) deals', page) == ["Ann", "Cleo"]
    services.record_hand(actor=as_actor(ref), game=g, data={"tables": [knock("Ann", 5, 30), knock("Cleo", 2, 10)]})
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert '<h2>Deal 2</h2>' in page
    assert "Deal 1 awaits Bob or Dev" in page
    assert re.findall(r'aria-label="(Table \d: [^"]+)"', page) == ["Table 1: Ann v Dev", "Table 2: Cleo v Bob"]
    assert (knockers(page, "t1-"), knockers(page, "t2-")) == (["Ann", "Dev"], ["Cleo", "Bob"])
    assert re.findall(r'class="table-dealer">(\w+) deals', page) == ["Dev", "Bob"]


def test_recording_a_deal_stores_both_tables_once_and_the_other_team_accepts_it(client):
    ref, g = partnership_game()
    client.force_login(ref)
    data = deal_post(1, "key-1", {"result": "knock", "knocker": "Ann", "knocker_deadwood": 5, "opponent_deadwood": 30},
                     {"result": "gin", "knocker": "Dev", "opponent_deadwood": 12})
    assert client.post(f"/games/{g.pk}/enter/", data).status_code == 302
    again = client.post(f"/games/{g.pk}/enter/", data, follow=True).content.decode()  # a double tap
    assert "Nothing recorded" in again
    hand = Hand.objects.get(game=g)
    assert hand.data == {"tables": [
        {"result": "knock", "knocker": "Ann", "knocker_deadwood": 5, "opponent_deadwood": 30},
        {"result": "gin", "knocker": "Dev", "opponent_deadwood": 12}]}
    # Bob & Dev scored the deal (Dev 32 less Ann 25): only Ann or Cleo may accept it
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert "Deal 1 awaits Ann or Cleo" in page
    assert "table 1: Ann knocks with 5, Bob has 30: Ann scores 25 (+1 box); table 2: Dev goes gin, Cleo has 12: " \
           "Dev scores 32 (+1 box). Bob &amp; Dev score 7 (+1 box)" in page
    refused = client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Dev", "pin": "4444"}, follow=True)
    assert "Deal 1 not confirmed" in refused.content.decode()
    accepted = client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Cleo", "pin": "2222"}, follow=True)
    assert "Deal 1 confirmed" in accepted.content.decode()
    g.refresh_from_db()
    assert g.summary["totals"] == {"Ann & Cleo": 0, "Bob & Dev": 27}


def test_the_deal_preview_gives_each_teams_points_from_the_engine_and_errors_by_table(client):
    ref, g = partnership_game()
    client.force_login(ref)
    answer = client.post(f"/games/{g.pk}/preview/", deal_post(
        1, "", {"result": "knock", "knocker": "Ann", "knocker_deadwood": 5, "opponent_deadwood": 30},
        {"result": "gin", "knocker": "Cleo", "opponent_deadwood": 12})).json()
    assert answer["team_points"] == [{"team": "Ann & Cleo", "points": 57, "scores": True},
                                     {"team": "Bob & Dev", "points": 0, "scores": False}]
    assert answer["said"].endswith("Ann & Cleo score 57 (+1 box)")
    bad = client.post(f"/games/{g.pk}/preview/", deal_post(
        1, "", {"result": "knock", "knocker": "Ann", "knocker_deadwood": 12, "opponent_deadwood": 30},
        {"result": "dead"}))
    assert bad.status_code == 400
    assert bad.json()["errors"] == [{"field": "t1-knocker_deadwood", "label": "Knocker's deadwood",
                                     "message": "Knock needs deadwood <= 10; 12 recorded"}]
    assert Hand.objects.count() == 0


def test_a_knocker_from_the_other_table_is_refused_in_words_and_nothing_is_recorded(client):
    ref, g = partnership_game()
    client.force_login(ref)
    page = client.post(f"/games/{g.pk}/enter/", deal_post(
        1, "key", {"result": "knock", "knocker": "Cleo", "knocker_deadwood": 5, "opponent_deadwood": 30},
        {"result": "dead"})).content.decode()
    assert "Choose who knocked from Ann or Bob: the players of this hand" in page
    assert Hand.objects.count() == 0


def test_a_partnership_deal_is_corrected_on_the_same_two_table_form(client):
    org = organiser()
    ref, g = partnership_game()
    services.record_hand(actor=as_actor(ref), game=g, data={"tables": [knock("Ann", 5, 30), knock("Cleo", 2, 10)]})
    client.force_login(org)
    page = client.get(f"/games/{g.pk}/hands/1/correct/").content.decode()
    assert re.findall(r'aria-label="(Table \d: [^"]+)"', page) == ["Table 1: Ann v Bob", "Table 2: Cleo v Dev"]
    assert 'name="t2-knocker_deadwood" value="2"' in page
    data = deal_post(1, "", {"result": "knock", "knocker": "Ann", "knocker_deadwood": 5, "opponent_deadwood": 30},
                     {"result": "knock", "knocker": "Cleo", "knocker_deadwood": 3, "opponent_deadwood": 10})
    assert client.post(f"/games/{g.pk}/hands/1/correct/", {**data, "reason": "recount"}).status_code == 302
    current = Hand.objects.get(game=g, is_current=True)
    assert (current.version, current.data["tables"][1]["knocker_deadwood"]) == (2, 3)


def test_rotation_offers_only_the_two_players_of_the_hand_never_the_dealer_sitting_out(client):
    """Ann deals hand 1 (Bob v Cleo); Bob wins, so Cleo (the loser) deals hand 2 and sits out: only Ann
    and Bob are offered, even while hand 1 awaits acceptance. Cleo sent as knocker is refused in words."""
    ref = user()
    g = game(names=("Ann", "Bob", "Cleo"), fmt="rotation", referees=[ref])
    client.force_login(ref)
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert knockers(page) == ["Bob", "Cleo"]
    assert "<strong>Ann</strong> deals and sits out" in page
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Bob", 3, 20))
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert knockers(page) == ["Ann", "Bob"]
    assert "<strong>Cleo</strong> deals and sits out" in page
    refused = client.post(f"/games/{g.pk}/enter/", {"number": 2, "once": "k", "result": "knock", "knocker": "Cleo",
                                                    "knocker_deadwood": 3, "opponent_deadwood": 20}).content.decode()
    assert "Choose who knocked from Ann or Bob: the players of this hand" in refused
    assert Hand.objects.filter(game=g).count() == 1


def test_jersey_offers_all_three_players_as_knocker(client):
    ref = user()
    g = game(names=("Ann", "Bob", "Cleo"), fmt="jersey", referees=[ref])
    client.force_login(ref)
    assert knockers(client.get(f"/games/{g.pk}/enter/").content.decode()) == ["Ann", "Bob", "Cleo"]


def test_when_the_recorded_hands_end_the_game_no_further_deal_is_offered(client):
    ref = user()
    g = game(names=TEAMS, fmt="partnership", referees=[ref], conventions={"preset": "classic",
                                                                           "partnership_target": 50})
    services.record_hand(actor=as_actor(ref), game=g, data={"tables": [knock("Ann", 1, 40), knock("Cleo", 1, 30)]})
    client.force_login(ref)
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert "The hands recorded end the game: accept them above." in page
    assert 'id="hand-form"' not in page
    assert Game.objects.get(pk=g.pk).status == Game.Status.IN_PROGRESS
