"""A director's form is done once: its one-time key is claimed in the same transaction as the write it
carries. Sent twice, the second copy does nothing; a write that fails after the claim (a 500, a 503 while
the database restarts) leaves the key free, so the director's retry of the same form does the write once."""

import re

import pytest
from django.db import OperationalError
from django.test import Client

from core.models import OnceKey
from tournaments import services
from tournaments.models import Round

from .stored import Officials, new_event

pytestmark = pytest.mark.django_db


def _once(page) -> str:
    return re.search(r'name="once" value="([^"]+)"', page.content.decode()).group(1)


def test_a_pairing_that_fails_after_the_claim_leaves_the_key_free_and_the_retry_pairs_once(monkeypatch):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    director = Client(raise_request_exception=False)
    director.force_login(people.director)
    key = _once(director.get(f"/events/{event.pk}/"))
    pair = services.pair_next_round

    def fails_after_writing(**kwargs):
        pair(**kwargs)  # round 1 is written, then the database goes away before the commit
        raise OperationalError("the database was restarted")

    monkeypatch.setattr(services, "pair_next_round", fails_after_writing)
    failed = director.post(f"/events/{event.pk}/pair/", {"once": key})
    assert failed.status_code in (500, 503)
    assert not Round.objects.filter(event=event).exists()  # nothing was done, the claim included
    assert not OnceKey.objects.filter(kind="director_form", key=key).exists()

    monkeypatch.setattr(services, "pair_next_round", pair)
    retried = director.post(f"/events/{event.pk}/pair/", {"once": key}, follow=True)
    assert "Round 1 paired" in retried.content.decode()
    assert "already sent" not in retried.content.decode()
    assert Round.objects.filter(event=event).count() == 1

    again = director.post(f"/events/{event.pk}/pair/", {"once": key}, follow=True)
    assert "This form was already sent: nothing was done twice" in again.content.decode()
    assert Round.objects.filter(event=event).count() == 1


def test_a_form_sent_twice_changes_the_event_once():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=3)
    director = Client()
    director.force_login(people.director)
    key = _once(director.get(f"/events/{event.pk}/"))
    form = {"once": key, "name": "Thursday Swiss", "rounds": "4", "is_public": "on"}
    director.post(f"/events/{event.pk}/change/", form)
    event.refresh_from_db()
    assert (event.name, event.rounds) == ("Thursday Swiss", 4)
    services.update_event(actor=people.dir, event=event, changes={"name": "Renamed since"})
    sent_again = director.post(f"/events/{event.pk}/change/", form, follow=True)
    assert "This form was already sent: nothing was done twice" in sent_again.content.decode()
    event.refresh_from_db()
    assert event.name == "Renamed since"
