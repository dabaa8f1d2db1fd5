"""Why an entry dropped ("no-show", "ill") is for the event's officials: organisers, its directors and
referees see it on the entries page and in the API; spectators, players and other users see that it
dropped, not why. A withdrawal before round 1 says so, not "dropped after round 0"."""

import pytest
from django.test import Client

from tournaments import services

from ..factories import api_client, organiser, user
from .stored import Officials, entry, new_event

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
