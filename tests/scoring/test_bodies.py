"""The one reader of request bodies (``core.api.parsers``), on every POST the OpenAPI schema lists in
both APIs (so a new endpoint is covered as it is added): a body that is not a JSON object, or that holds
a lone surrogate or a NUL character anywhere (a value or a key), is a 400 naming the body (or the
field), and nothing stored changes; never a 500, never read as ``{}`` and acted on."""

import json
import re

import pytest
import yaml
from django.apps import apps
from django.urls import reverse

from notifications import services as notifications
from notifications.models import Message
from scoring import services as scoring
from scoring.models import Game
from tournaments import services
from tournaments.models import Match

from ..factories import api_client, as_actor, game, knock, organiser
from ..tournaments.stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db

NOT_OBJECTS = ["[]", '"x"', "1", "null", "true", '[{"reason": "r"}]']
LONE_SURROGATES = [
    ('{"reason": "\\ud800"}', "reason"),
    ('{"name": "a\\udfffb", "reason": "ok"}', "name"),
    ('{"hand": {"result": "knock", "knocker": "\\ud800"}, "reason": "r"}', "hand.knocker"),
    ('{"order": [1, "\\udc00"]}', "order.1"),
    ('{"\\ud800": 1}', "body"),
]
NUL_CHARACTERS = [
    ('{"reason": "no\\u0000show"}', "reason"),
    ('{"username": "ann\\u0000", "password": "x"}', "username"),
    ('{"hand": {"result": "knock", "knocker": "\\u0000"}, "reason": "r"}', "hand.knocker"),
    ('{"\\u0000": 1}', "body"),
]


def post_routes(client) -> list[str]:
    schema = yaml.safe_load(client.get(reverse("schema")).content)
    return sorted(path for path, operations in schema["paths"].items()
                  if "post" in operations and path != "/api/v1/ping/")  # ping reads no body and writes nothing


def scene():
    """An organiser, an event in round 1 of a Swiss (a match with a game that has a hand), a finished
    Swiss for a knockout, and a club game with a hand: every path parameter has something real."""
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=1)
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    club = game(by=people.organiser, referees=[people.recorder])
    scoring.record_hand(actor=as_actor(people.recorder), game=club, data=knock("Ann", 6, 19))
    match = Match.objects.filter(event=event).order_by("pk").first()
    signed_up = services.create_event(actor=people.boss, name="Sign-ups", format="swiss", registration_open=True)
    mine = services.register(actor=as_actor(), event=signed_up, name="Sign Up", email="sign@example.org")
    hook = notifications.create_subscription(actor=people.boss, url="https://example.org/hook", types=["ping"])
    sent = Message.objects.create(subscription=hook, msg_id="msg_scene", type="ping", body="{}", status="delivered")
    values = {"id": club.pk, "number": 1, "entry_id": match.players.first().entry_id, "match_id": match.pk,
              "registration_id": mine.registration.pk, "token": mine.token, "webhook": hook.pk,
              "delivery_id": sent.pk}
    return people, event, values


def concrete(path: str, event, values) -> str:
    if path.startswith("/api/v1/events/{id}"):
        path = path.replace("{id}", str(event.pk), 1)
    if path.startswith("/api/v1/webhooks/{id}"):
        path = path.replace("{id}", str(values["webhook"]), 1)
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), path)


# What counts or caches requests rather than records results: replay records, throttle counters and the
# events' stored answers.
BOOKKEEPING = {"OnceKey", "EventAnswer", "RateCounter"}


def stored():
    """Every row of both apps (and the users' officials), as values: what a refused body must leave alone."""
    found = {}
    for app in ("scoring", "tournaments", "seasons", "notifications", "auth"):
        for model in apps.get_app_config(app).get_models():
            if model.__name__ in BOOKKEEPING:
                continue
            found[model.__name__] = sorted(map(repr, model.objects.values_list()))
            for m2m in model._meta.many_to_many:
                found[f"{model.__name__}.{m2m.name}"] = sorted(m2m.remote_field.through.objects.values_list())
    return found


def test_every_post_of_both_apis_refuses_a_body_that_is_not_a_json_object(client):
    people, event, values = scene()
    boss = api_client(people.organiser)
    routes = post_routes(client)
    assert len(routes) == 49  # the four apps' writes, the calculators and the token
    before = stored()
    for path in routes:
        url = concrete(path, event, values)
        for body in NOT_OBJECTS:
            answer = boss.post(url, body, content_type="application/json")
            assert answer.status_code == 400, (url, body, answer.status_code, answer.content)
            (error,) = answer.json()["errors"]
            assert error["field"] is None, (url, body)
            assert error["message"].startswith("the request body must be a JSON object ({...}); "), (url, body)
            assert error["message"].endswith("was sent, and nothing was done with it")
    assert stored() == before


@pytest.mark.parametrize(("bodies", "message"), [
    (LONE_SURROGATES, "this text holds a lone surrogate (such as \\ud800), which is no Unicode character: send the "
                      "text itself"),
    (NUL_CHARACTERS, "this text holds a NUL character (\\u0000), which no text field can store: leave it out"),
], ids=["lone surrogate", "NUL"])
def test_every_post_of_both_apis_refuses_text_no_field_can_store_naming_its_field(client, bodies, message):
    people, event, values = scene()
    boss = api_client(people.organiser)
    before = stored()
    for path in post_routes(client):
        url = concrete(path, event, values)
        for body, field in bodies:
            answer = boss.post(url, body, content_type="application/json")
            assert answer.status_code == 400, (url, body, answer.status_code, answer.content)
            (error,) = answer.json()["errors"]
            assert (error["field"], error["message"]) == (field, message), url
            answer.content.decode("utf-8")  # what is sent is Unicode text
    assert stored() == before


@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_referee_link_and_a_director_get_the_same_refusal(body):
    people, event, values = scene()
    link = scoring.create_referee_link(actor=as_actor(organiser()), game=Game.objects.get(pk=values["id"]))
    referee = api_client(referee_token=link.token)
    director = api_client(people.director)
    before = stored()
    for client, url in ((referee, f"/api/v1/games/{values['id']}/hands/"),
                        (referee, f"/api/v1/games/{values['id']}/hands/1/confirm/"),
                        (director, f"/api/v1/events/{event.pk}/officials/"),
                        (director, f"/api/v1/events/{event.pk}/entries/{values['entry_id']}/drop/"),
                        (director, f"/api/v1/events/{event.pk}/rounds/")):
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 400, url
        assert "must be a JSON object" in answer.json()["errors"][0]["message"]
    assert stored() == before


def test_an_empty_officials_body_removes_nobody():
    people, event, _ = scene()
    answer = api_client(people.organiser).post(f"/api/v1/events/{event.pk}/officials/", {}, format="json")
    assert answer.status_code == 400
    assert sorted(e["field"] for e in answer.json()["errors"]) == ["directors", "referees"]
    assert list(event.directors.all()) == [people.director]
    assert set(event.referees.all()) == {people.recorder, people.confirmer}


def test_a_body_without_content_reads_as_an_empty_object():
    people, event, _ = scene()
    paired = api_client(people.director).post(f"/api/v1/events/{event.pk}/entries/import/")
    assert paired.status_code == 400
    assert paired.json()["errors"][0]["field"] == "text"


def test_json_text_is_sent_back_as_it_came_when_it_is_unicode():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    added = api_client(people.director).post(f"/api/v1/events/{event.pk}/entries/",
                                             json.dumps({"name": "Zoë 🂡"}), content_type="application/json")
    assert added.status_code == 201, added.json()
    assert added.json()["name"] == "Zoë 🂡"
