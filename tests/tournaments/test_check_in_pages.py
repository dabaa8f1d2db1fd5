"""The check-in pages: a director's list (one tap per player, who is missing, the venue's QR code), the
players' page the venue QR code opens, and the event page's pairing that withdraws those not here."""

import pytest
from django.test import Client

from scoring import pins
from scoring.models import PinFailure, Player
from tournaments import services
from tournaments.models import Entry, Event

from .stored import Officials, entry, new_event

pytestmark = pytest.mark.django_db


def _signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def _event(people, **options):
    return new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2, check_in=True, **options)


def test_a_director_taps_players_in_and_sees_who_is_missing():
    people = Officials()
    event = _event(people)
    td = _signed_in(people.director)
    page = td.get(f"/events/{event.pk}/check-in/").content.decode()
    assert "Check-in: 0 of 4 here" in page
    assert services.venue_code(event) in page  # the venue's QR code's address
    ann = entry(event, "Ann")
    answer = td.post(f"/events/{event.pk}/check-in/", {"entry": ann.pk, "action": "in"})
    assert answer.status_code == 302
    # Back at the next name still missing (Ann moved to "Here"), not at Ann
    assert answer["Location"].endswith(f"#entry-{entry(event, 'Bob').pk}")
    assert 'data-filters=".check-in-list li[id]"' in page  # "Find a name"
    td.post(f"/events/{event.pk}/check-in/", {"entry": ann.pk, "action": "in"})  # a double tap
    page = td.get(f"/events/{event.pk}/check-in/").content.decode()
    assert "Check-in: 1 of 4 here" in page
    assert "Not here yet (3)" in page
    undone = td.post(f"/events/{event.pk}/check-in/", {"entry": ann.pk, "action": "out"})
    assert entry(event, "Ann").checked_in_at is None
    assert undone["Location"].endswith(f"#entry-{ann.pk}")
    for name in ("Ann", "Bob", "Cleo"):
        td.post(f"/events/{event.pk}/check-in/", {"entry": entry(event, name).pk, "action": "in"})
    last = td.post(f"/events/{event.pk}/check-in/", {"entry": entry(event, "Dev").pk, "action": "in"})
    assert last["Location"].endswith("#missing-title")  # nobody left to check in


def test_the_event_page_names_who_is_missing_and_pairs_withdrawing_them_when_ticked():
    people = Officials()
    event = _event(people)
    for name in ("Ann", "Bob", "Cleo"):
        services.check_in_entry(actor=people.dir, entry=entry(event, name))
    td = _signed_in(people.director)
    page = td.get(f"/events/{event.pk}/").content.decode()
    assert "Check-in: 3 of 4 here; not here: Dev." in page
    assert 'name="withdraw_absent"' in page
    refused = td.post(f"/events/{event.pk}/pair/", {"once": "p1"}, follow=True).content.decode()
    assert "1 not checked in: Dev. Check them in, or withdraw them" in refused
    assert Event.objects.get(pk=event.pk).status == Event.Status.REGISTRATION
    td.post(f"/events/{event.pk}/pair/", {"once": "p2", "withdraw_absent": "1"})
    dev = entry(event, "Dev")
    assert (dev.dropped_after_round, dev.drop_reason) == (0, "did not check in")
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    entries_page = td.get(f"/events/{event.pk}/entries/").content.decode()
    assert "withdrawn before round 1: did not check in" in entries_page
    public = Client().get(f"/events/{event.pk}/entries/").content.decode()
    assert "withdrawn before round 1" in public
    assert "did not check in" not in public


def test_a_player_checks_in_at_the_venue_qr_choosing_a_pin():
    people = Officials()
    event = _event(people)
    url = f"/events/{event.pk}/check-in/{services.venue_code(event)}/"
    phone = Client()
    first = phone.get(url).content.decode()
    assert "Choose your name" in first
    assert "Bob" in first
    bob = entry(event, "Bob")
    step = phone.get(url, {"entry": bob.pk}).content.decode()
    assert "You have no PIN yet" in step
    mismatch = phone.post(url, {"entry": bob.pk, "new_pin": "2468", "new_pin_again": "8642"})
    assert mismatch.status_code == 400
    assert "Type the same PIN twice" in mismatch.content.decode()
    done = phone.post(url, {"entry": bob.pk, "new_pin": "2468", "new_pin_again": "2468"})
    assert done.status_code == 200
    assert "Bob, you are checked in." in done.content.decode()
    assert entry(event, "Bob").checked_in_how == Entry.CheckIn.VENUE_QR
    assert pins.check_pin("2468", Player.objects.get(display_name="Bob").confirm_pin).matches


def test_a_wrong_pin_at_the_venue_qr_is_counted_and_named():
    people = Officials()
    event = _event(people)
    Player.objects.filter(display_name="Ann").update(confirm_pin=pins.hash_pin("4321"))
    url = f"/events/{event.pk}/check-in/{services.venue_code(event)}/"
    ann = entry(event, "Ann")
    assert "Your PIN" in Client().get(url, {"entry": ann.pk}).content.decode()
    wrong = Client().post(url, {"entry": ann.pk, "pin": "1111"})
    assert wrong.status_code == 400
    assert "That is not Ann&#x27;s PIN (4 more tries" in wrong.content.decode()
    assert PinFailure.objects.count() == 1
    assert entry(event, "Ann").checked_in_at is None
    assert Client().post(url, {"entry": ann.pk, "pin": "4321"}).status_code == 200


def test_a_wrong_venue_code_is_a_404_and_a_private_event_checks_in_by_its_code():
    people = Officials()
    event = _event(people, is_public=False)
    assert Client().get(f"/events/{event.pk}/check-in/0123456789abcdef0123/").status_code == 404
    assert Client().get(f"/events/{event.pk}/check-in/").status_code == 404  # the directors' list: private
    url = f"/events/{event.pk}/check-in/{services.venue_code(event)}/"
    done = Client().post(url, {"entry": entry(event, "Cleo").pk, "new_pin": "1357", "new_pin_again": "1357"})
    assert done.status_code == 200
    assert "the pairings" not in done.content.decode()


def test_the_venue_page_says_check_in_is_over_once_round_1_is_paired():
    people = Officials()
    event = _event(people)
    for name in ("Ann", "Bob"):
        services.check_in_entry(actor=people.dir, entry=entry(event, name))
    services.pair_next_round(actor=people.dir, event=event, withdraw_absent=True)
    url = f"/events/{event.pk}/check-in/{services.venue_code(event)}/"
    page = Client().get(url).content.decode()
    assert "Check-in is over: round 1 is paired." in page
    assert Client().post(url, {"entry": entry(event, "Ann").pk, "new_pin": "1357",
                               "new_pin_again": "1357"}).status_code == 400
    assert Player.objects.get(display_name="Ann").confirm_pin == ""  # nothing is set once check-in is over


def test_check_in_is_turned_on_from_the_change_form_before_round_1():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2)
    td = _signed_in(people.director)
    assert 'name="check_in"' in td.get(f"/events/{event.pk}/").content.decode()
    td.post(f"/events/{event.pk}/change/", {"once": "c1", "name": event.name, "rounds": "2", "is_public": "on",
                                           "check_in": "on"})
    assert Event.objects.get(pk=event.pk).check_in is True


def test_a_player_already_checked_in_is_told_so_and_asked_for_nothing():
    people = Officials()
    event = _event(people)
    ann = entry(event, "Ann")
    services.check_in_entry(actor=people.dir, entry=ann, here=True)
    url = f"/events/{event.pk}/check-in/{services.venue_code(event)}/?entry={ann.pk}"
    page = Client().get(url).content.decode()
    assert "Ann, you are already checked in: nothing more to do." in page
    assert 'name="pin"' not in page
    assert 'name="new_pin"' not in page
