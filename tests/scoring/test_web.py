"""The web pages: a club night on a phone, with the same rules as the API."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Game, Hand

from ..factories import ROLES, as_actor, game, gin, knock, organiser, permission_scene, user

pytestmark = pytest.mark.django_db


def signed_in(client, u):
    client.force_login(u)
    return client


def test_home_list_and_sheet_pages_render(client):
    g = game()
    assert client.get("/").status_code == 200
    page = client.get("/games/").content.decode()
    assert "Ann v Bob" in page
    assert client.get(f"/games/{g.pk}/").status_code == 200


def test_a_referee_records_a_hand_and_the_opponent_accepts_it_with_their_pin(client):
    ref = user()
    g = game(referees=[ref])
    signed_in(client, ref)
    response = client.post(f"/games/{g.pk}/enter/", {"result": "knock", "knocker": "Ann", "knocker_deadwood": 6,
                                                     "opponent_deadwood": 19})
    assert response.status_code == 302
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert "Hand 1 awaits Bob" in page
    client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Bob", "pin": "2222", "next": f"/games/{g.pk}/enter/"})
    g.refresh_from_db()
    assert g.summary["totals"] == {"Ann": 33, "Bob": 0}


def test_the_entry_form_shows_the_engines_own_refusal(client):
    ref = user()
    g = game(referees=[ref])
    signed_in(client, ref)
    page = client.post(f"/games/{g.pk}/enter/", {"result": "knock", "knocker": "Ann", "knocker_deadwood": 12,
                                                 "opponent_deadwood": 19}).content.decode()
    assert "Knock needs deadwood &lt;= 10; 12 recorded" in page
    assert Hand.objects.count() == 0


def test_the_preview_shows_what_the_engine_will_score_without_saving(client):
    ref = user()
    g = game(referees=[ref])
    signed_in(client, ref)
    answer = client.post(f"/games/{g.pk}/preview/", {"result": "gin", "knocker": "Bob",
                                                     "opponent_deadwood": 31}).json()
    assert (answer["hand"]["winner"], answer["hand"]["points"]) == ("Bob", 51)
    bad = client.post(f"/games/{g.pk}/preview/", {"result": "knock", "knocker": "Bob", "knocker_deadwood": 15,
                                                  "opponent_deadwood": 31})
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "knocker_deadwood"
    assert Hand.objects.count() == 0


def test_cards_entered_on_the_phone_are_scored_by_the_engine(client):
    ref = user()
    g = game(referees=[ref], requires_confirmation=False)
    signed_in(client, ref)
    client.post(f"/games/{g.pk}/enter/", {"result": "knock", "knocker": "Ann",
                                          "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD 9C",
                                          "opponent_cards": "4S 5S 8C 8H 8D 2C 3C TH 9H 6D"})
    g.refresh_from_db()
    assert g.summary["totals"]["Ann"] == 18 + 20


def test_a_referee_link_opens_the_entry_page_without_an_account(client):
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    response = client.post("/r/", {"token": link.token})
    assert response.status_code == 302
    assert response["Location"] == f"/games/{g.pk}/enter/"
    client.post(f"/games/{g.pk}/enter/", {"result": "dead"})
    hand = Hand.objects.get()
    assert hand.entered_via == link
    # the same phone cannot confirm its own entry without the opponent's PIN
    client.post(f"/games/{g.pk}/hands/1/confirm/", {})
    assert not Hand.objects.get().is_confirmed
    client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Bob", "pin": "2222"})
    assert Hand.objects.get().confirmed_by_player.display_name == "Bob"


def test_an_unknown_or_revoked_link_is_refused(client):
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    services.revoke_referee_link(actor=as_actor(org), link=link)
    assert client.post("/r/", {"token": link.token}).status_code == 404
    assert client.post("/r/", {"token": "not-a-token"}).status_code == 404
    assert "referee_link" not in client.session


WEB_WRITES = ["record", "confirm", "correct", "void"]
WEB_EXPECTED = {  # did the write happen?
    "record": {"anonymous": False, "other_referee": False, "referee": True, "enterer": True, "organiser": True,
               "winner": False, "loser": False},
    "confirm": {"anonymous": False, "other_referee": False, "referee": True, "enterer": False, "organiser": True,
                "winner": False, "loser": True},
    "correct": {"anonymous": False, "other_referee": False, "referee": True, "enterer": True, "organiser": True,
                "winner": False, "loser": False},
    "void": {"anonymous": False, "other_referee": False, "referee": True, "enterer": True, "organiser": True,
             "winner": False, "loser": False},
}


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("action", WEB_WRITES)
def test_permission_matrix_over_every_web_write(client, action, who):
    g, actor = permission_scene(who)
    if actor:
        client.force_login(actor)
    base = f"/games/{g.pk}/"
    {
        "record": lambda: client.post(f"{base}enter/", {"result": "knock", "knocker": "Bob", "knocker_deadwood": 2,
                                                        "opponent_deadwood": 9}),
        "confirm": lambda: client.post(f"{base}hands/1/confirm/", {}),
        "correct": lambda: client.post(f"{base}hands/1/correct/", {"result": "knock", "knocker": "Ann",
                                                                   "knocker_deadwood": 5, "opponent_deadwood": 19,
                                                                   "reason": "recount"}),
        "void": lambda: client.post(f"{base}hands/1/void/", {"reason": "misdeal"}),
    }[action]()
    happened = {
        "record": lambda: Hand.objects.filter(game=g, number=2).exists(),
        "confirm": lambda: Hand.objects.get(game=g, number=1).is_confirmed,
        "correct": lambda: Hand.objects.filter(game=g, action="correction").exists(),
        "void": lambda: Hand.objects.filter(game=g, action="void").exists(),
    }[action]()
    assert happened is WEB_EXPECTED[action][who]


def test_organisers_create_players_and_games_on_the_web(client):
    org = organiser()
    signed_in(client, org)
    client.post("/players/new/", {"display_name": "Gus", "pin": "1234"})
    client.post("/players/new/", {"display_name": "Hal"})
    from scoring.models import Player

    gus, hal = Player.objects.get(display_name="Gus"), Player.objects.get(display_name="Hal")
    response = client.post("/games/new/", {"format": "standard", "player_1": gus.pk, "player_2": hal.pk,
                                           "preset": "modern", "conv_gin_bonus": "30",
                                           "table_label": "T9", "is_public": "on", "requires_confirmation": "on"})
    assert response.status_code == 302
    created = Game.objects.get(table_label="T9")
    assert (created.conventions["preset"], created.conventions["gin_bonus"]) == ("modern", 30)
    bad = client.post("/games/new/", {"format": "standard", "player_1": gus.pk, "player_2": hal.pk,
                                      "preset": "modern", "conv_gin_bonus": "3000"}).content.decode()
    assert "Gin bonus: a whole number from 0 to 1000" in bad


def test_a_referee_cannot_create_games(client):
    signed_in(client, user())
    assert client.post("/players/new/", {"display_name": "Nope"}).status_code == 403


def test_history_page_shows_every_version(client):
    ref, org = user("ref2"), organiser("boss2")
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    services.correct_hand(actor=as_actor(org), game=g, number=1, data=gin("Ann", 19), reason="it was gin")
    page = client.get(f"/games/{g.pk}/history/").content.decode()
    assert "ref2" in page
    assert "boss2" in page
    assert "it was gin" in page


def test_the_sheet_marks_pending_hands_and_shows_the_settlement(client):
    ref = user()
    g = game(referees=[ref], requires_confirmation=False)
    services.record_hand(actor=as_actor(ref), game=g, data=gin("Ann", 98))
    page = client.get(f"/games/{g.pk}/").content.decode()
    assert "Ann wins" in page
    assert "<polyline" in page
    g2 = game(names=("Cat", "Dan"), referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g2, data=knock("Cat", 6, 19))
    assert "pending" in client.get(f"/games/{g2.pk}/").content.decode()


def query_count(client, url):
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_sheet_page_costs_the_same_queries_with_2_hands_or_200(client):
    org = organiser()
    conv = {"preset": "classic", "target": 10000}
    small = game(by=org, referees=[org], requires_confirmation=False, conventions=conv)
    big = game(names=("Cat", "Dan"), by=org, referees=[org], requires_confirmation=False, conventions=conv)
    for g, count in ((small, 2), (big, 200)):
        for i in range(count):
            names = [s.player.display_name for s in g.seats.order_by("position")]
            services.record_hand(actor=as_actor(org), game=g, data=knock(names[i % 2], 1, 3))
    for path in ("/games/{}/", "/games/{}/sheet/", "/games/{}/history/"):
        assert query_count(client, path.format(small.pk)) == query_count(client, path.format(big.pk)) <= 8


def test_the_game_list_page_costs_the_same_queries_for_2_games_or_30(client):
    org = organiser()
    for i in range(2):
        game(names=(f"A{i}", f"B{i}"), by=org)
    few = query_count(client, "/games/")
    for i in range(28):
        game(names=(f"C{i}", f"D{i}"), by=org)
    assert query_count(client, "/games/") == few
    assert len(re.findall(r'href="/games/\d+/"', client.get("/games/").content.decode())) == 25  # one page


def test_a_double_tap_on_record_hand_records_it_once(client):
    ref = user()
    g = game(referees=[ref])
    signed_in(client, ref)
    once = re.search(r'name="once" value="([^"]+)"', client.get(f"/games/{g.pk}/enter/").content.decode()).group(1)
    hand = {"result": "knock", "knocker": "Ann", "knocker_deadwood": 6, "opponent_deadwood": 19, "once": once}
    client.post(f"/games/{g.pk}/enter/", hand)
    client.post(f"/games/{g.pk}/enter/", hand)
    assert Hand.objects.filter(game=g).count() == 1
    fresh = re.search(r'name="once" value="([^"]+)"', client.get(f"/games/{g.pk}/enter/").content.decode()).group(1)
    assert fresh != once


def test_the_games_list_scores_every_club_game_and_names_the_winner_of_a_settled_one(client):
    playing = game()
    services.record_hand(actor=as_actor(organiser()), game=playing, data=knock("Ann", 6, 19))
    settled = services.create_game(actor=as_actor(organiser()), format="standard", players=[
        playing.seats.get(position=0).player, playing.seats.get(position=1).player],
        conventions={"preset": "classic", "target": 50}, requires_confirmation=False)
    services.record_hand(actor=as_actor(organiser()), game=settled, data=gin("Bob", 40))
    page = client.get("/games/").content.decode()
    assert "None" not in page
    assert "Ann 0 – Bob 0 (+1 pending)" in page  # totals count accepted hands; the pending one is said
    margin = Game.objects.get(pk=settled.pk).summary["margin"]
    assert f"Bob won by {margin}" in page


def test_the_sheet_names_the_same_next_dealer_as_the_entry_page_while_a_hand_awaits_acceptance(client):
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))  # Ann dealt hand 1; pending
    client.force_login(ref)
    entry = client.get(f"/games/{g.pk}/enter/").content.decode()
    sheet = client.get(f"/games/{g.pk}/").content.decode()
    assert "<strong>Bob</strong> deals" in entry  # the loser of hand 1 deals hand 2
    assert "next dealer: <strong>Bob</strong>" in sheet
