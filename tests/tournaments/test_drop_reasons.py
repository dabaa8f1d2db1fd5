"""Why an entry dropped ("no-show", "ill") is for the event's officials: organisers, its directors and
referees see it on the entries page and in the API; spectators, players and other users see that it
dropped, not why. A withdrawal before round 1 says so, not "dropped after round 0"."""

import pytest
from django.test import Client

from core.refusals import Refusal
from tournaments import services

from ..factories import api_client, organiser, user
from .stored import Officials, entry, new_event, open_matches, play_match

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


def test_a_drop_made_by_mistake_is_undone_until_the_next_round_is_paired():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    ann = entry(event, "Ann")
    services.drop_entry(actor=people.dir, entry=ann, reason="wrong row")
    director = Client()
    director.force_login(people.director)
    page = director.get(f"/events/{event.pk}/entries/").content.decode()
    assert "Undo the drop" in page
    done = director.post(f"/events/{event.pk}/entries/", {"action": "undo-drop", "entry": ann.pk, "once": "u1"},
                         follow=True)
    assert "Ann&#x27;s drop undone" in done.content.decode()
    ann.refresh_from_db()
    assert (ann.dropped_after_round, ann.drop_reason) == (None, "")
    for match in open_matches(event, 1):
        play_match(people, match, match.players.get(side=0).entry.player.display_name)
    services.drop_entry(actor=people.dir, entry=ann)
    services.pair_next_round(actor=people.dir, event=event)
    with pytest.raises(Refusal, match="already paired"):
        services.undo_drop(actor=people.dir, entry=ann)


def test_an_entry_made_by_mistake_is_removed_before_round_1_only():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Zed"], rounds=3)
    zed = entry(event, "Zed")
    director = Client()
    director.force_login(people.director)
    assert "Remove (entered by mistake)" in director.get(f"/events/{event.pk}/entries/").content.decode()
    director.post(f"/events/{event.pk}/entries/", {"action": "remove", "entry": zed.pk, "once": "r1"})
    assert not event.entries.filter(player__display_name="Zed").exists()
    assert api_client(user()).get(f"/api/v1/events/{event.pk}/entries/").status_code == 200
    services.pair_next_round(actor=people.dir, event=event)
    with pytest.raises(Refusal, match="has started: drop Ann instead"):
        services.remove_entry(actor=people.dir, entry=entry(event, "Ann"))
