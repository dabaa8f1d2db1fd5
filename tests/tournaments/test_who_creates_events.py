"""Who may create events: organisers, and the users an organiser allows to (the ``add_event`` permission,
given on the admin's user page), who then direct what they create; nobody else, on the page or the API."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tournaments.models import Event

from ..factories import api_client, organiser, user

pytestmark = pytest.mark.django_db

EVENT = {"name": "Thursday Swiss", "format": "swiss"}


def allowed(u):
    u.user_permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournaments"))
    return type(u).objects.get(pk=u.pk)  # permissions are cached per user object


@pytest.mark.parametrize(("who", "expected"), [("anonymous", 401), ("user", 403), ("allowed", 201),
                                               ("organiser", 201)])
def test_events_are_created_through_the_api_by_organisers_and_those_they_allow(who, expected):
    u = {"anonymous": None, "user": user(), "allowed": allowed(user("td")), "organiser": organiser()}[who]
    answer = api_client(u).post("/api/v1/events/", EVENT, format="json")
    assert answer.status_code == expected, answer.content
    assert Event.objects.count() == (1 if expected == 201 else 0)


def test_a_user_allowed_to_create_events_directs_what_they_create_and_an_organiser_need_not():
    td = allowed(user("td"))
    made = api_client(td).post("/api/v1/events/", EVENT, format="json").json()
    assert made["directors"] == ["td"]
    by_boss = api_client(organiser()).post("/api/v1/events/", EVENT, format="json").json()
    assert by_boss["directors"] == []


def test_the_new_event_page_is_offered_only_to_whoever_may_create_events():
    td, someone = Client(), Client()
    td.force_login(allowed(user("td")))
    someone.force_login(user())
    assert 'href="/events/new/"' in td.get("/events/").content.decode()
    assert td.get("/events/new/").status_code == 200
    assert 'href="/events/new/"' not in someone.get("/events/").content.decode()
    assert someone.get("/events/new/").status_code == 403
