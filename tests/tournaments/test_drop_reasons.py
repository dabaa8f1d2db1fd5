"""Why an entry dropped ("no-show", "ill") is for the event's officials: organisers, its directors and
referees see it on the entries page and in the API; spectators, players and other users see that it
dropped, not why. A withdrawal before round 1 says so, not "dropped after round 0"."""

import pytest
from django.test import Client

from tournaments import services

from ..factories import api_client, organiser, user
from .stored import Officials, entry, new_event, open_matches

pytestmark = pytest.mark.django_db


def scene():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.drop_entry(actor=people.dir, entry=entry(event, "Dev"), reason="no-show")
    return people, event


def page_for(u, event):
    client = Client()
    if u is not None:
        client.force_login(u)
    return client.get(f"/events/{event.pk}/entries/").content.decode()


@pytest.mark.parametrize(("who", "sees"), [("anonymous", False), ("player", False), ("organiser", True),
                                           ("director", True), ("referee", True)])
def test_drop_reasons_are_shown_to_the_events_officials_only_on_the_page_and_in_the_api(who, sees):
    people, event = scene()
    u = {"anonymous": None, "player": user(), "organiser": organiser(), "director": people.director,
         "referee": people.recorder}[who]
    page = page_for(u, event)
    assert "withdrawn before round 1" in page
    assert "dropped after round 0" not in page
    assert ("no-show" in page) is sees
    rows = api_client(u).get(f"/api/v1/events/{event.pk}/entries/").json()
    dev = next(r for r in rows if r["name"] == "Dev")
    assert (dev["dropped"], dev["dropped_after_round"], dev["drop_reason"]) == (True, 0, "no-show" if sees else "")


def test_dropping_again_says_the_entry_withdrew_before_round_1():
    people, event = scene()
    answer = api_client(people.director).post(f"/api/v1/events/{event.pk}/entries/{entry(event, 'Dev').pk}/drop/",
                                              {"reason": "again"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["message"] == "Dev already withdrew before round 1"


def test_a_forfeits_reason_is_for_the_events_officials_only_like_a_drops():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    (match,) = open_matches(event, 1)
    winner = match.players.order_by("side").first().entry
    services.record_forfeit(actor=people.dir, match=match, winner=winner, reason="left the hall ill")
    for path in (f"/api/v1/events/{event.pk}/matches/{match.pk}/", f"/api/v1/events/{event.pk}/matches/"):
        assert "left the hall ill" not in api_client().get(path).content.decode()
        assert "left the hall ill" in api_client(people.recorder).get(path).content.decode()
    assert "left the hall ill" not in Client().get(f"/events/{event.pk}/matches/{match.pk}/").content.decode()
    director = Client()
    director.force_login(people.director)
    assert "left the hall ill" in director.get(f"/events/{event.pk}/matches/{match.pk}/").content.decode()


def test_a_table_the_director_settled_is_called_so_on_the_match_page_and_a_level_game_is_not_unneeded():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    (match,) = open_matches(event, 1)
    services.record_forfeit(actor=people.dir, match=match, winner=match.players.order_by("side").first().entry,
                            reason="no show")
    page = Client().get(f"/events/{event.pk}/matches/{match.pk}/").content.decode()
    assert "settled by the director" in page
    assert "abandoned" not in page
    assert "not needed" not in page
