"""An event's directors set the PIN of a player entered in their event (a player added from a pasted list
has none, and every hand they lose would wait for a second official): through the API and the player
page, as the directors are now; nobody else but organisers."""

import pytest
from django.test import Client

from scoring import pins
from scoring import services as scoring
from scoring.models import Player
from tournaments import services

from ..factories import api_client, as_actor, gin, organiser, user
from .stored import Officials, new_event, open_matches, play_match, replace_officials

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 401), ("player", 403), ("referee", 403), ("referee_link", 403), ("other_director", 403),
    ("removed_director", 403), ("added_director", 204), ("director", 204), ("organiser", 204),
])
def test_a_pin_is_set_through_the_api_by_organisers_and_the_entrants_directors_as_they_are_now(who, expected):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    ann = Player.objects.get(display_name="Ann")
    other = new_event(Officials(), names=["Cat", "Dan"])
    changed = replace_officials(people, event)
    bob = Player.objects.get(display_name="Bob")
    game = scoring.create_game(actor=people.boss, format="standard", players=[ann, bob])
    link = scoring.create_referee_link(actor=people.boss, game=game)
    client = {
        "anonymous": api_client(), "player": api_client(user()), "referee": api_client(changed["added_referee"]),
        "referee_link": api_client(referee_token=link.token), "other_director": api_client(other.directors.first()),
        "removed_director": api_client(changed["removed_director"]),
        "added_director": api_client(changed["added_director"]), "director": api_client(people.director),
        "organiser": api_client(organiser()),
    }[who]
    answer = client.post(f"/api/v1/players/{ann.pk}/pin/", {"pin": "2468"}, format="json")
    assert answer.status_code == expected, answer.content
    assert pins.check_pin("2468", Player.objects.get(pk=ann.pk).confirm_pin).matches is (expected == 204)


def signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def test_a_director_sees_which_entrants_have_no_pin_and_sets_one_from_the_entries_page():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    ann, bob = Player.objects.get(display_name="Ann"), Player.objects.get(display_name="Bob")
    scoring.set_player_pin(actor=people.boss, player=bob, pin="1357")
    director = signed_in(people.director)
    page = director.get(f"/events/{event.pk}/entries/").content.decode()
    back = f"/events/{event.pk}/entries/"  # urlencode leaves a path's slashes
    assert f'href="/players/{ann.pk}/?back={back}#pin">set one</a>' in page
    assert f'href="/players/{bob.pk}/#pin"' not in page
    assert "no PIN" not in Client().get(f"/events/{event.pk}/entries/").content.decode()
    player_page = director.get(f"/players/{ann.pk}/?back=/events/{event.pk}/entries/").content.decode()
    assert f'<a href="/events/{event.pk}/entries/">← Back</a>' in player_page
    assert "Set a PIN" in player_page
    assert "Name and club" not in player_page  # a director sets PINs; organisers change players
    wrong = director.post(f"/players/{ann.pk}/", {"action": "pin", "pin": "12a4"})
    assert "a PIN is 4 to 8 digits (0-9)" in wrong.content.decode()
    assert Player.objects.get(pk=ann.pk).confirm_pin == ""
    done = director.post(f"/players/{ann.pk}/", {"action": "pin", "pin": "2468",
                                                 "back": f"/events/{event.pk}/entries/"}, follow=True)
    assert "Ann&#x27;s PIN is set" in done.content.decode()
    assert done.redirect_chain[-1][0] == f"/events/{event.pk}/entries/"  # back to the event, not stranded
    outside = director.get(f"/players/{ann.pk}/?back=https://evil.example/").content.decode()
    assert "evil.example" not in outside
    assert pins.check_pin("2468", Player.objects.get(pk=ann.pk).confirm_pin).matches
    assert f'href="/players/{ann.pk}/?back=' not in director.get(f"/events/{event.pk}/entries/").content.decode()
    renamed = director.post(f"/players/{ann.pk}/", {"action": "edit", "display_name": "Mallory"})
    assert renamed.status_code == 200
    assert Player.objects.get(pk=ann.pk).display_name == "Ann"


@pytest.mark.parametrize("who", ["player", "referee", "other_director"])
def test_nobody_else_opens_a_players_page_or_sets_their_pin(who):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    ann = Player.objects.get(display_name="Ann")
    other = new_event(Officials(), names=["Cat", "Dan"])
    u = {"player": user(), "referee": people.recorder, "other_director": other.directors.first()}[who]
    client = signed_in(u)
    assert client.get(f"/players/{ann.pk}/").status_code == 403
    assert client.post(f"/players/{ann.pk}/", {"action": "pin", "pin": "2468"}).status_code == 403
    assert client.get("/players/").status_code == 403
    assert Player.objects.get(pk=ann.pk).confirm_pin == ""
    assert event.pk


def test_an_organiser_finds_renames_and_sets_a_pin_from_the_players_pages():
    people = Officials()
    new_event(people, names=["Pétur", "Bob"])
    boss = signed_in(people.organiser)
    listing = boss.get("/players/", {"q": "PETUR"}).content.decode()
    petur = Player.objects.get(display_name="Pétur")
    assert f'<a href="/players/{petur.pk}/">Pétur</a>' in listing
    assert "Bob" not in listing
    assert "none: set one" in listing
    saved = boss.post(f"/players/{petur.pk}/", {"action": "edit", "display_name": "Pétur Jónsson", "club": "Reykjavík",
                                                "email": ""}, follow=True)
    assert "Saved" in saved.content.decode()
    assert Player.objects.filter(display_name="Pétur Jónsson", club="Reykjavík").count() == 1
    taken = boss.post(f"/players/{petur.pk}/", {"action": "edit", "display_name": "bob", "club": "", "email": ""})
    assert "Bob already exists" in taken.content.decode()
    assert boss.get("/players/", {"q": "nobody"}).content.decode().count("No player") == 1
    assert Client().get("/players/").status_code == 302  # to sign in


def test_the_event_page_warns_its_directors_before_pairing_of_the_players_with_no_pin():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo"])
    scoring.set_player_pin(actor=people.boss, player=Player.objects.get(display_name="Bob"), pin="1357")
    page = signed_in(people.director).get(f"/events/{event.pk}/").content.decode()
    assert ("2 players still in have no PIN (Ann, Cleo): every hand they lose will wait for a second "
            "official.") in page
    assert "no PIN" not in Client().get(f"/events/{event.pk}/").content.decode()


def test_a_correction_awaiting_a_pin_is_named_in_one_status_with_whose_pin_it_waits_for():
    """Round 1 reopened by a correction while round 2 is played: the status line and the directors' next
    step say the same thing, and which table waits for whose PIN."""
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    first = sorted(open_matches(event, 1), key=lambda m: m.table)
    for m in first:
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    services.pair_next_round(actor=people.dir, event=event)
    game = first[0].match_games.get().game
    winner, loser = game.player_names
    scoring.correct_hand(actor=as_actor(people.recorder), game=game, number=1, data=gin(loser, 10),
                         reason="the gin was the other way")
    page = signed_in(people.director).get(f"/events/{event.pk}/").content.decode()
    assert "Rounds 1 and 2 of 3 are being played: 3 tables still to finish." in page
    assert (f"3 tables still to finish: round 1: table {first[0].table} (hand 1 waits for {winner}&#x27;s PIN); "
            "round 2: table 1, table 2.") in page
    assert "0 tables" not in page


def test_a_cancelled_events_director_no_longer_sets_its_players_pins_on_the_api_or_the_page():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    kept = new_event(people, names=["Cleo", "Dev"])
    ann, cleo = Player.objects.get(display_name="Ann"), Player.objects.get(display_name="Cleo")
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    director = api_client(people.director)
    assert director.post(f"/api/v1/players/{ann.pk}/pin/", {"pin": "2468"}, format="json").status_code == 403
    page = signed_in(people.director)
    assert page.get(f"/players/{ann.pk}/").status_code == 403
    assert page.post(f"/players/{ann.pk}/", {"action": "pin", "pin": "2468"}).status_code == 403
    assert Player.objects.get(pk=ann.pk).confirm_pin == ""
    # The same director's open event keeps the right; an organiser keeps it everywhere.
    assert director.post(f"/api/v1/players/{cleo.pk}/pin/", {"pin": "2468"}, format="json").status_code == 204
    assert api_client(organiser()).post(f"/api/v1/players/{ann.pk}/pin/", {"pin": "1357"},
                                        format="json").status_code == 204
    assert kept.pk
