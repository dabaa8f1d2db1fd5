"""Webhook deliveries to a real HTTP receiver on the loopback, off the request (the background thread, jobs
inline): the signature verifies with the spec's algorithm, a 500 then a 200 is two attempts with one
webhook-id, a 410 turns the subscription off, private addresses are refused without WEBHOOK_ALLOW_PRIVATE
(as a literal, as a name, after a redirect), a 429's Retry-After is waited, and a Discord channel gets one
message per round published and one per round complete."""

import json

import pytest
from standardwebhooks.webhooks import Webhook

from core import background
from notifications.models import Attempt, Message, Subscription
from tournaments import services

from ..factories import api_client, organiser, user
from ..tournaments.stored import Officials, new_event, open_matches, play_match
from .receivers import HttpReceiver

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def loopback(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_RETRY_SCHEDULE = [0, 0, 0]
    return settings


def subscribe(client, url, **values):
    answer = client.post("/api/v1/webhooks/", {"url": url, "types": ["ping"], **values}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def settle():
    assert background.wait_idle(20)


def test_a_500_then_a_200_is_two_attempts_of_one_signed_message(loopback):
    loopback.BACKGROUND_THREAD = True  # as in production: the web process's own thread sends it
    boss = api_client(organiser())
    with HttpReceiver(answers=[(500, {}, 0), (200, {}, 0)]) as receiver:
        made = subscribe(boss, receiver.url)
        assert boss.post(f"/api/v1/webhooks/{made['id']}/test/", {}, format="json").status_code == 202
        settle()
    first, second = receiver.received
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert first.body == second.body
    for got in (first, second):
        Webhook(made["secret"]).verify(got.body, got.headers, json_parse=False)
    assert json.loads(first.body)["type"] == "ping"
    log = boss.get(f"/api/v1/webhooks/{made['id']}/deliveries/").json()
    assert [(a["number"], a["status"], a["code"]) for a in log[0]["attempts"]] == [(1, "failure", 500),
                                                                                    (2, "success", 200)]
    assert log[0]["status"] == "delivered"
    assert log[0]["webhook_id"] == first.headers["webhook-id"]


def test_a_410_turns_the_subscription_off_at_once(loopback):
    boss = api_client(organiser())
    with HttpReceiver(answers=[(410, {}, 0)]) as receiver:
        made = subscribe(boss, receiver.url)
        boss.post(f"/api/v1/webhooks/{made['id']}/test/", {}, format="json")
        settle()
        assert len(receiver.received) == 1
        again = boss.post(f"/api/v1/webhooks/{made['id']}/test/", {}, format="json")
        settle()
    assert again.status_code == 400
    assert again.json()["errors"][0]["field"] == "active"
    stored = Subscription.objects.get(pk=made["id"])
    assert (stored.active, stored.disabled_reason) == (False, "the receiver answered 410 Gone")
    assert len(receiver.received) == 1


def test_private_addresses_are_refused_without_the_setting(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    settings.WEBHOOK_RETRY_SCHEDULE = [0]
    boss = api_client(organiser())
    for url in ("http://127.0.0.1:9/hook", "http://10.0.0.5/", "http://[::1]/", "http://169.254.169.254/latest/",
                "ftp://example.org/", "http://[::ffff:127.0.0.1]/"):
        refused = boss.post("/api/v1/webhooks/", {"url": url, "types": ["ping"]}, format="json")
        assert refused.status_code == 400, url
        assert refused.json()["errors"][0]["field"] == "url"
    with HttpReceiver() as receiver:
        port = receiver.url.split(":")[2].split("/")[0]
        named = subscribe(boss, f"http://localhost:{port}/hook")  # a name: checked when connecting
        boss.post(f"/api/v1/webhooks/{named['id']}/test/", {}, format="json")
        settle()
    assert receiver.received == []
    (attempt,) = Attempt.objects.filter(message__subscription_id=named["id"])
    assert attempt.status == "failure"
    assert "loopback address" in attempt.error
    assert "WEBHOOK_ALLOW_PRIVATE is off" in attempt.error


def test_a_redirect_is_not_followed(loopback):
    boss = api_client(organiser())
    with HttpReceiver() as inside, HttpReceiver(answers=[(302, {"Location": "http://127.0.0.1:1/x"}, 0)]) as outer:
        outer.answers[0] = (302, {"Location": inside.url}, 0)
        loopback.WEBHOOK_RETRY_SCHEDULE = [0]
        made = subscribe(boss, outer.url)
        boss.post(f"/api/v1/webhooks/{made['id']}/test/", {}, format="json")
        settle()
    assert len(outer.received) == 1
    assert inside.received == []
    (attempt,) = Attempt.objects.filter(message__subscription_id=made["id"])
    assert (attempt.status, attempt.code) == ("failure", 302)
    assert attempt.error == f"redirect not followed (to {inside.url})"


def test_a_429_waits_its_retry_after(loopback):
    boss = api_client(organiser())
    with HttpReceiver(answers=[(429, {"Retry-After": "120"}, 0)]) as receiver:
        made = subscribe(boss, receiver.url)
        boss.post(f"/api/v1/webhooks/{made['id']}/test/", {}, format="json")
        assert background.wait_idle(20, within=60)
    (attempt,) = Attempt.objects.filter(message__subscription_id=made["id"])
    assert attempt.code == 429
    waited = (attempt.next_attempt_at - attempt.at).total_seconds()
    assert waited == 120
    assert Message.objects.get(subscription_id=made["id"]).status == "pending"
    assert len(receiver.received) == 1


def test_a_discord_channel_gets_one_message_per_round_published_and_one_when_it_is_complete(loopback):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    settle()  # the background thread and the test share one in-memory SQLite: one writes at a time
    director = api_client(people.director)
    with HttpReceiver() as channel:
        made = director.post("/api/v1/webhooks/", {"url": channel.url, "format": "discord", "event": event.pk,
                                                   "types": ["round.published", "round.completed"]}, format="json")
        assert made.status_code == 201, made.json()
        services.pair_next_round(actor=people.dir, event=event)
        settle()
        for match in open_matches(event, 1):
            first = match.players.order_by("side").first().entry.player.display_name
            play_match(people, match, first)
            settle()
        settle()
    texts = [json.loads(r.body)["content"] for r in channel.received]
    assert len(texts) == 2, texts
    published, completed = texts
    assert published.startswith(f"**{event.name}: round 1 is published**\nTable 1: ")
    assert published.count("Table ") == 2
    assert completed.startswith(f"**{event.name}: round 1 is complete**")
    assert "Standings: 1. " in completed
    assert "webhook-signature" in channel.received[0].headers


def test_a_director_may_not_subscribe_to_every_event_nor_to_another(loopback):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    other = new_event(Officials(), names=["Cat", "Dan"])
    settle()
    director = api_client(people.director)
    url = "https://example.org/hook"
    assert director.post("/api/v1/webhooks/", {"url": url, "types": ["ping"]}, format="json").status_code == 403
    assert director.post("/api/v1/webhooks/", {"url": url, "types": ["ping"], "event": other.pk},
                         format="json").status_code == 403
    assert director.post("/api/v1/webhooks/", {"url": url, "types": ["ping"], "event": event.pk},
                         format="json").status_code == 201
    refused = director.post("/api/v1/webhooks/", {"url": url, "types": ["match.decided"], "format": "slack",
                                                  "event": event.pk}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "types.0"
    assert api_client(user()).post("/api/v1/webhooks/", {"url": url, "types": ["ping"]},
                                   format="json").status_code == 403
    none = api_client(organiser()).post("/api/v1/webhooks/", {"url": url, "types": []}, format="json")
    assert none.json()["errors"] == [{"hand": None, "field": "types", "message": "at least one type: "
                                      + ", ".join(["round.published", "round.completed", "match.decided",
                                                   "standings.updated", "event.finished", "registration.created",
                                                   "registration.promoted", "registration.withdrawn",
                                                   "hand.confirmed", "ping"])}]


def test_hand_confirmed_goes_only_to_who_asked_for_it_by_name(loopback):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    settle()
    director = api_client(people.director)
    with HttpReceiver() as hands, HttpReceiver() as results:
        for receiver, types in ((hands, ["hand.confirmed"]), (results, ["match.decided", "round.published"])):
            made = director.post("/api/v1/webhooks/", {"url": receiver.url, "types": types, "event": event.pk},
                                 format="json")
            assert made.status_code == 201
        opened = services.pair_next_round(actor=people.dir, event=event)
        settle()
        (match,) = opened.matches
        play_match(people, match, "Ann")
        settle()
    (hand,) = [json.loads(r.body) for r in hands.received]
    assert hand["type"] == "hand.confirmed"
    assert (hand["data"]["hand"], hand["data"]["version"], hand["data"]["match"], hand["data"]["table"]) == (
        1, 1, match.pk, 1)
    assert [json.loads(r.body)["type"] for r in results.received] == ["round.published", "match.decided"]
    decided = json.loads(results.received[1].body)["data"]
    assert (decided["match"]["winner"], decided["match"]["players"]) == ("Ann", ["Ann", "Bob"])
    assert decided["version"] == json.loads(results.received[0].body)["data"]["version"].split(".")[0] + "." + \
        decided["version"].split(".")[1]


def test_sign_ups_are_told_without_their_addresses(loopback):
    people = Officials()
    event = services.create_event(actor=people.boss, name="Open", format="swiss", rounds=2,
                                  conventions={"preset": "classic", "target": 50}, directors=[people.director],
                                  registration_open=True, registration_cap=2, waitlist=True)
    settle()
    with HttpReceiver() as receiver:
        director = api_client(people.director)
        assert director.post("/api/v1/webhooks/", {"url": receiver.url, "event": event.pk, "types": [
            "registration.created", "registration.promoted", "registration.withdrawn"]},
            format="json").status_code == 201
        links = []
        for name in ("Ann", "Bob", "Cleo"):
            answer = api_client().post(f"/api/v1/events/{event.pk}/registrations/",
                                       {"name": name, "email": f"{name.lower()}@example.org"}, format="json")
            links.append(answer.json()["manage_url"])
            settle()
        api_client().post(links[0] + "withdraw/", {}, format="json")
        settle()
    told = [json.loads(r.body) for r in receiver.received]
    assert [(m["type"], m["data"]["registration"]["name"], m["data"]["registration"]["status"]) for m in told] == [
        ("registration.created", "Ann", "entered"), ("registration.created", "Bob", "entered"),
        ("registration.created", "Cleo", "waitlisted"), ("registration.withdrawn", "Ann", "withdrawn"),
        ("registration.promoted", "Cleo", "entered")]
    assert all("@" not in r.body for r in receiver.received)


def test_the_sweep_sends_what_was_left_due_and_forgets_attempts_after_30_days(loopback):
    from datetime import timedelta

    from django.utils import timezone

    from notifications.services import sweep

    boss = api_client(organiser())
    with HttpReceiver() as receiver:
        made = subscribe(boss, receiver.url)
        hook = Subscription.objects.get(pk=made["id"])
        left = Message.objects.create(subscription=hook, msg_id="msg_left", type="ping", body='{"type":"ping"}',
                                      next_attempt_at=timezone.now() - timedelta(minutes=1))
        old = Message.objects.create(subscription=hook, msg_id="msg_old", type="ping", body="{}", status="delivered",
                                     created_at=timezone.now() - timedelta(days=31))
        Attempt.objects.create(message=old, number=1, status="success", code=200,
                               at=timezone.now() - timedelta(days=31))
        assert sweep() == {"due": 1, "forgotten": 1}
        settle()
    assert [r.headers["webhook-id"] for r in receiver.received] == ["msg_left"]
    assert Message.objects.get(pk=left.pk).status == "delivered"
    assert not Message.objects.filter(pk=old.pk).exists()


def test_the_send_webhooks_command_sends_what_was_left_due(loopback):
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    with HttpReceiver() as receiver:
        made = subscribe(api_client(organiser()), receiver.url)
        Message.objects.create(subscription_id=made["id"], msg_id="msg_cron", type="ping", body="{}",
                               next_attempt_at=timezone.now() - timedelta(seconds=1))
        out = StringIO()
        call_command("send_webhooks", stdout=out)
    assert out.getvalue() == "1 messages attempted, 0 old attempts forgotten\n"
    assert [r.headers["webhook-id"] for r in receiver.received] == ["msg_cron"]
