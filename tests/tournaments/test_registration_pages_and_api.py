"""Signing up through the API and the pages: anyone while registration is open (a private event only with
its key: without it, a 404 like the event itself), 201 with the player's own link; GET that link for where the
sign-up stands, POST withdraw/ under it; the directors' list and "enter" from the waitlist; bad input a 400
naming the field; too many sign-ups from one address a 429."""

import re

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Registration
from tournaments.services import registrations as registration_service

from ..factories import api_client, as_actor, user
from .stored import QUICK, Officials

pytestmark = pytest.mark.django_db


def _event(people, *, public=True, **options):
    return services.create_event(actor=people.boss, name="Open Swiss", format="swiss", rounds=3, conventions=QUICK,
                                 directors=[people.director], is_public=public, registration_open=True, **options)


def _body(name):
    return {"name": name, "email": f"{name.lower()}@example.org", "club": "Riverside"}


def test_the_api_signs_up_waitlists_and_withdraws_by_the_players_own_link():
    people = Officials()
    event = _event(people, registration_cap=2, waitlist=True)
    url = f"/api/v1/events/{event.pk}/registrations/"
    answers = [api_client().post(url, _body(name), format="json") for name in ("Ann", "Bob", "Cleo")]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [(a.json()["status"], a.json()["position"]) for a in answers] == [
        ("entered", None), ("entered", None), ("waitlisted", 1)]
    cleo = answers[2].json()
    assert cleo["manage_url"].startswith("http://testserver/api/v1/registrations/")
    mine = api_client().get(cleo["manage_url"]).json()
    assert mine == {"status": "waitlisted", "position": 1, "event": event.pk, "entry": None, "byes": []}
    withdrawn = api_client().post(answers[0].json()["manage_url"] + "withdraw/", {}, format="json")
    assert withdrawn.status_code == 200
    assert withdrawn.json()["status"] == "withdrawn"
    entered = api_client().get(cleo["manage_url"]).json()
    assert (entered["status"], entered["position"]) == ("entered", None)
    assert entered["entry"] is not None
    assert api_client().get("/api/v1/registrations/not-a-token/").status_code == 404

    listed = api_client(people.director).get(url)
    assert [(r["name"], r["status"]) for r in listed.json()] == [("Ann", "withdrawn"), ("Bob", "entered"),
                                                                 ("Cleo", "entered")]
    assert api_client().get(url).status_code in (401, 403)  # the list is the directors'
    assert api_client(user()).get(url).status_code == 403


def test_bad_input_is_a_400_naming_each_field_and_stores_nothing():
    people = Officials()
    event = _event(people)
    refused = api_client().post(f"/api/v1/events/{event.pk}/registrations/",
                                {"name": "", "email": "nope", "pin": "12", "website": "x"}, format="json")
    assert refused.status_code == 400
    assert sorted(e["field"] for e in refused.json()["errors"]) == ["email", "name", "pin", "website"]
    assert not Registration.objects.exists()


def test_a_private_events_sign_up_needs_its_key_and_its_directors_see_the_link():
    people = Officials()
    event = _event(people, public=False)
    url = f"/api/v1/events/{event.pk}/registrations/"
    assert api_client().post(url, _body("Ann"), format="json").status_code == 404
    assert Client().get(f"/events/{event.pk}/register/").status_code == 404
    link = api_client(people.director).get(f"/api/v1/events/{event.pk}/").json()["registration_url"]
    key = re.search(r"key=([\w-]+)", link).group(1)
    assert api_client().post(f"{url}?key={key}", _body("Ann"), format="json").status_code == 201
    assert api_client().post(f"{url}?key=wrong", _body("Bob"), format="json").status_code == 404
    assert api_client().get(f"/api/v1/events/{event.pk}/?key={key}").status_code == 404  # the event stays hidden
    assert Client().get(f"/events/{event.pk}/register/?key={key}").status_code == 200


def test_a_director_enters_a_waitlisted_player_through_the_api():
    people = Officials()
    event = _event(people, registration_cap=2, waitlist=True)
    for name in ("Ann", "Bob", "Cleo"):
        api_client().post(f"/api/v1/events/{event.pk}/registrations/", _body(name), format="json")
    cleo = Registration.objects.get(player__display_name="Cleo")
    url = f"/api/v1/events/{event.pk}/registrations/{cleo.pk}/enter/"
    assert api_client(user()).post(url, {}, format="json").status_code == 403
    entered = api_client(people.director).post(url, {}, format="json")
    assert (entered.status_code, entered.json()["status"]) == (200, "entered")


def test_too_many_sign_ups_from_one_address_are_a_429(monkeypatch):
    people = Officials()
    event = _event(people)
    monkeypatch.setattr(registration_service, "SIGNUPS_PER_ADDRESS", (2, 3600))
    url = f"/api/v1/events/{event.pk}/registrations/"
    codes = [api_client().post(url, _body(name), format="json").status_code for name in ("Ann", "Bob", "Cleo")]
    assert codes == [201, 201, 429]
    assert Registration.objects.count() == 2


def test_the_sign_up_page_and_the_players_own_page():
    people = Officials()
    event = _event(people, registration_cap=2, waitlist=True)
    for name in ("Ann", "Cleo"):
        services.register(actor=as_actor(), event=event, name=name, email=f"{name.lower()}@example.org")
    page = Client().get(f"/events/{event.pk}/register/").content.decode()
    assert "2 entered of 2" in page
    refused = Client().post(f"/events/{event.pk}/register/", {"name": "Bob", "email": "bob@example.org",
                                                              "pin": "2468", "pin_again": "2467"})
    assert refused.status_code == 400
    assert "Type the same PIN twice" in refused.content.decode()
    assert 'value="Bob"' in refused.content.decode()  # what was typed stays
    done = Client().post(f"/events/{event.pk}/register/", {"name": "Bob", "email": "bob@example.org",
                                                           "pin": "2468", "pin_again": "2468"}, follow=True)
    text = done.content.decode()
    assert "you are on the waiting list: number 1" in text
    own = re.search(r'id="my-link">([^<]+)<', text).group(1)
    not_ticked = Client().post(own, {}, follow=True).content.decode()
    assert "tick the box to withdraw" in not_ticked
    withdrawn = Client().post(own, {"confirm": "1"}, follow=True).content.decode()
    assert "you have withdrawn" in withdrawn
    services.update_event(actor=people.dir, event=event, changes={"registration_open": False})
    assert "closed" in Client().get(f"/events/{event.pk}/register/").content.decode()


def test_directors_open_sign_ups_on_the_event_page_and_enter_a_waitlisted_player_from_the_entries_page():
    people = Officials()
    event = services.create_event(actor=people.boss, name="Club Swiss", format="swiss", rounds=3, conventions=QUICK,
                                  directors=[people.director], is_public=False)
    director = Client()
    director.force_login(people.director)
    page = director.get(f"/events/{event.pk}/").content.decode()
    once = re.search(r'name="once" value="([^"]+)"', page).group(1)
    link = re.search(r'id="sign-up-url">([^<]+)<', page).group(1)
    assert f"key={event.registration_key}" in link  # private: the link carries its key
    director.post(f"/events/{event.pk}/registration/", {"once": once + "-registration", "registration_open": "on",
                                                        "registration_cap": "2", "waitlist": "on"})
    event.refresh_from_db()
    assert (event.registration_open, event.registration_cap, event.waitlist) == (True, 2, True)
    for name in ("Ann", "Bob", "Cleo"):
        Client().post(link, {"name": name, "email": f"{name.lower()}@example.org"})
    entries = director.get(f"/events/{event.pk}/entries/").content.decode()
    assert "waiting: number 1" in entries
    cleo = Registration.objects.get(player__display_name="Cleo")
    director.post(f"/events/{event.pk}/registrations/{cleo.pk}/enter/", {"once": "enter-cleo"})
    assert Registration.objects.get(pk=cleo.pk).status == "entered"
    assert Client().post(f"/events/{event.pk}/registrations/{cleo.pk}/enter/").status_code in (302, 404)


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 403), ("player", 403), ("referee", 403), ("removed_director", 403), ("added_director", 200),
    ("director", 200), ("organiser", 200)])
def test_the_sign_up_list_is_for_the_events_directors_and_organisers_only(who, expected, public):
    from ..factories import organiser
    from .stored import replace_officials

    people = Officials()
    event = _event(people, public=public)
    people_roles = replace_officials(people, event)
    client = {"anonymous": api_client(), "player": api_client(user()), "referee": api_client(people.recorder),
              "director": api_client(people.director), "organiser": api_client(organiser()),
              **{role: api_client(u) for role, u in people_roles.items()}}[who]
    if not public and who in ("anonymous", "player", "removed_director"):
        expected = 404  # a private event does not exist for whoever may not read it
    if who == "anonymous" and public:
        expected = 403
    answer = client.get(f"/api/v1/events/{event.pk}/registrations/")
    assert answer.status_code == expected
