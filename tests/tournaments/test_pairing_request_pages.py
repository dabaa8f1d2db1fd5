"""The pages of requested byes and pairs to avoid: the directors' "Pairings to avoid" page (add, remove, the
options; nobody else's), a director asking a bye on the entry's page, and the player on their own sign-up page;
each refusal said in words with nothing changed, a form sent twice done once."""

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import AvoidPair, Event, RequestedBye

from ..factories import as_actor, user
from .stored import QUICK, Officials, entry, new_event

pytestmark = pytest.mark.django_db


def _director(people):
    client = Client()
    client.force_login(people.director)
    return client


def test_directors_keep_two_players_apart_on_the_pairings_to_avoid_page():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    td = _director(people)
    page = td.get(f"/events/{event.pk}/avoid/")
    assert page.status_code == 200
    assert "No pair to avoid yet." in page.content.decode()
    assert f'href="/events/{event.pk}/avoid/"' in td.get(f"/events/{event.pk}/entries/").content.decode()
    ann, bob = entry(event, "Ann").pk, entry(event, "Bob").pk
    form = {"once": "k1-add", "first": ann, "second": bob, "strength": "never"}
    said = td.post(f"/events/{event.pk}/avoid/", form, follow=True).content.decode()
    assert "Ann and Bob: never paired." in said
    td.post(f"/events/{event.pk}/avoid/", form)  # sent twice (a double tap): done once
    assert list(AvoidPair.objects.values_list("strength", flat=True)) == ["never"]
    again = td.post(f"/events/{event.pk}/avoid/", {**form, "once": "k2-add"}, follow=True).content.decode()
    assert "Nothing changed: Ann and Bob are already a pair to avoid." in again
    same = td.post(f"/events/{event.pk}/avoid/", {**form, "once": "k3", "second": ann}, follow=True).content.decode()
    assert "Nothing changed: Two different entries" in same
    assert "Ann and Bob: never" in td.get(f"/events/{event.pk}/avoid/").content.decode()
    options = td.post(f"/events/{event.pk}/avoid/", {"once": "k4", "action": "options", "max_requested_byes": "2",
                                                     "avoid_same_club_rounds": "1"}, follow=True).content.decode()
    assert "Saved." in options
    stored = Event.objects.get(pk=event.pk)
    assert (stored.max_requested_byes, stored.avoid_same_club_rounds) == (2, 1)
    bad = td.post(f"/events/{event.pk}/avoid/", {"once": "k5", "action": "options", "max_requested_byes": "lots",
                                                 "avoid_same_club_rounds": "1"}, follow=True).content.decode()
    assert "Nothing changed: A whole number of rounds from 0 to 20; &#x27;lots&#x27; given." in bad
    pair = AvoidPair.objects.get()
    td.post(f"/events/{event.pk}/avoid/", {"once": "k6", "action": "remove", "pair": pair.pk})
    assert not AvoidPair.objects.exists()


def test_the_pairings_to_avoid_page_is_its_directors_only():
    people = Officials()
    public = new_event(people, names=["Ann", "Bob"])
    private = new_event(people, names=["Cat", "Dan"], is_public=False)
    assert Client().get(f"/events/{public.pk}/avoid/").status_code == 302  # sign in first
    reader = Client()
    reader.force_login(user())
    assert reader.get(f"/events/{public.pk}/avoid/").status_code == 403
    assert reader.get(f"/events/{private.pk}/avoid/").status_code == 404
    ann, bob = entry(public, "Ann").pk, entry(public, "Bob").pk
    assert reader.post(f"/events/{public.pk}/avoid/", {"once": "x", "first": ann, "second": bob,
                                                       "strength": "never"}).status_code == 403
    assert reader.post(f"/events/{public.pk}/entries/{ann}/byes/", {"once": "y", "round": 1}).status_code == 403
    assert reader.post(f"/events/{private.pk}/entries/{entry(private, 'Cat').pk}/byes/",
                       {"once": "z", "round": 1}).status_code == 404
    assert not AvoidPair.objects.exists()
    assert not RequestedBye.objects.exists()


def test_a_director_asks_a_bye_on_the_entrys_page():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    td = _director(people)
    cleo = entry(event, "Cleo")
    page = td.get(f"/events/{event.pk}/entries/{cleo.pk}/").content.decode()
    assert 'id="ask-bye"' in page
    said = td.post(f"/events/{event.pk}/entries/{cleo.pk}/byes/", {"once": "b1", "round": "2"},
                   follow=True).content.decode()
    assert "Cleo sits out round 2." in said
    assert "Asked to sit out round 2." in said
    refused = td.post(f"/events/{event.pk}/entries/{cleo.pk}/byes/", {"once": "b2", "round": "3"},
                      follow=True).content.decode()
    assert "Nothing changed: Test swiss allows 1 requested bye per player; Cleo has asked for round 2." in refused
    assert list(RequestedBye.objects.values_list("round", flat=True)) == [2]
    assert 'id="ask-bye"' not in Client().get(f"/events/{event.pk}/entries/{cleo.pk}/").content.decode()


def test_the_player_asks_for_a_bye_on_their_own_page():
    people = Officials()
    event = services.create_event(actor=people.boss, name="Open", format="swiss", rounds=3, conventions=QUICK,
                                  directors=[people.director], registration_open=True)
    signed = services.register(actor=as_actor(), event=event, name="Ann", email="ann@example.org")
    own = f"/events/registration/{signed.token}/"
    page = Client().get(own).content.decode()
    assert 'id="ask-bye"' in page
    wrong = Client().post(own + "byes/", {"round": "0"}, follow=True).content.decode()
    assert "Nothing changed: Rounds are numbered from 1; 0 given." in wrong
    done = Client().post(own + "byes/", {"round": "2"}, follow=True).content.decode()
    assert "You sit out round 2: it scores 1 match point, as the event&#x27;s rules say." in done
    assert "You sit out round 2:" in done
    assert 'id="ask-bye"' not in done  # the one bye the event allows is asked
    assert list(RequestedBye.objects.filter(by_player=True).values_list("round", flat=True)) == [2]
    assert Client().post("/events/registration/nope/byes/", {"round": "2"}).status_code == 404



def test_the_event_page_says_why_round_1_cannot_be_paired_and_a_bracket_keeps_a_never_pair_apart():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.add_avoid_pair(actor=people.dir, event=event, entries=[entry(event, "Ann").pk, entry(event, "Bob").pk],
                            strength="never")
    page = _director(people).get(f"/events/{event.pk}/").content.decode()
    assert ("Round 1 cannot be paired without pairing Ann with Bob, whom a &quot;never&quot; pair keeps apart: "
            "every pairing of the entries still in breaks one. Change the pairings to avoid") in page
    assert "Pair round 1 (2 entries)" not in page

    bracket = new_event(people, names=list("ABCDEFGH"), fmt="single_elimination")
    services.add_avoid_pair(actor=people.dir, event=bracket, entries=[entry(bracket, "A").pk, entry(bracket, "H").pk],
                            strength="never")
    services.pair_next_round(actor=people.dir, event=bracket)
    first = {m.bracket_id: sorted(p.entry.player.display_name for p in m.players.all())
             for m in bracket.matches.filter(bracket_id__startswith="W1-")}
    assert first == {"W1-1": ["A", "G"], "W1-2": ["D", "E"], "W1-3": ["B", "H"], "W1-4": ["C", "F"]}
    late = _director(people).post(f"/events/{bracket.pk}/avoid/", {"once": "late", "first": entry(bracket, "B").pk,
                                                                   "second": entry(bracket, "C").pk,
                                                                   "strength": "avoid"}, follow=True)
    assert "Nothing changed: The bracket has started" in late.content.decode()


def test_a_requested_bye_is_taken_back_on_the_players_page_and_the_entrys_page():
    people = Officials()
    event = services.create_event(actor=people.boss, name="Open", format="swiss", rounds=3, conventions=QUICK,
                                  directors=[people.director], registration_open=True, max_requested_byes=2)
    signed = services.register(actor=as_actor(), event=event, name="Ann", email="ann@example.org")
    own = f"/events/registration/{signed.token}/"
    Client().post(own + "byes/", {"round": "2"})
    page = Client().get(own).content.decode()
    assert "I can play round 2 after all" in page
    said = Client().post(own + "byes/2/cancel/", follow=True).content.decode()
    assert "You play round 2 after all." in said
    assert not RequestedBye.objects.exists()
    ann = entry(event, "Ann")
    td = _director(people)
    td.post(f"/events/{event.pk}/entries/{ann.pk}/byes/", {"once": "b1", "round": "3"})
    assert "Plays round 3 after all" in td.get(f"/events/{event.pk}/entries/{ann.pk}/").content.decode()
    done = td.post(f"/events/{event.pk}/entries/{ann.pk}/byes/3/cancel/", {"once": "c1"}, follow=True)
    assert "Ann plays round 3 after all." in done.content.decode()
    assert not RequestedBye.objects.exists()
