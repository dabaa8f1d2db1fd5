"""Email to players through a real SMTP receiver on the loopback (aiosmtpd), sent off the request: a sign-up's
confirmation and a waitlist promotion go by themselves, each with the player's own link; a round's pairings go on
the director's click, each player with their own table and opponent; an address refused for good is not mailed
again; a webhook turned off for failing tells its owner."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from core import background
from notifications.models import BouncedAddress, Email, Message, Subscription
from scoring.models import Player
from tournaments import services

from ..factories import api_client, organiser
from ..tournaments.stored import QUICK, Officials, new_event
from .receivers import HttpReceiver, SmtpReceiver

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def smtp(settings):
    with SmtpReceiver(refuse=["gone@example.org"]) as receiver:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", receiver.port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.SITE_URL = "https://gin.example.org"
        yield receiver


def settle():
    assert background.wait_idle(20)


def body(message) -> str:
    return message.get_payload(decode=True).decode()


def test_sign_ups_and_promotions_are_mailed_with_the_players_own_link(smtp):
    people = Officials()
    event = services.create_event(actor=people.boss, name="Open Swiss", format="swiss", rounds=3, conventions=QUICK,
                                  directors=[people.director], registration_open=True, registration_cap=2,
                                  waitlist=True)
    url = f"/api/v1/events/{event.pk}/registrations/"
    links = {}
    for name in ("Ann", "Bob", "Cleo"):
        answer = api_client().post(url, {"name": name, "email": f"{name.lower()}@example.org"}, format="json")
        assert answer.status_code == 201
        links[name] = answer.json()["manage_url"].rstrip("/").rsplit("/", 1)[1]
        settle()
    for name in ("Ann", "Bob", "Cleo"):
        (mail,) = smtp.to(f"{name.lower()}@example.org")
        assert mail["Subject"] == "Open Swiss: your sign-up"
        assert f"https://gin.example.org/events/registration/{links[name]}/" in body(mail)
    assert "You are on the waitlist" in body(smtp.to("cleo@example.org")[0])
    assert api_client().post(f"/api/v1/registrations/{links['Ann']}/withdraw/", {}, format="json").status_code == 200
    settle()
    _signed_up, promoted = smtp.to("cleo@example.org")
    assert promoted["Subject"] == "Open Swiss: you are in"
    assert f"https://gin.example.org/events/registration/{links['Cleo']}/" in body(promoted)
    assert sorted(Email.objects.values_list("kind", "status")) == [
        ("promoted", "sent"), ("signed_up", "sent"), ("signed_up", "sent"), ("signed_up", "sent")]


def test_each_player_is_mailed_their_own_table_and_opponent_and_a_bounce_is_not_mailed_again(smtp):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3)
    for player in Player.objects.filter(event_entries__event=event):
        player.email = "gone@example.org" if player.display_name == "Eve" else f"{player.display_name.lower()}@x.org"
        player.save(update_fields=["email"])
    opened = services.pair_next_round(actor=people.dir, event=event)
    settle()
    director = api_client(people.director)
    answer = director.post(f"/api/v1/events/{event.pk}/rounds/1/email/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["queued"] == 5
    settle()
    for match in opened.matches:
        names = [p.entry.player.display_name for p in match.players.order_by("side")]
        for me in names:
            if me == "Eve":
                continue
            (mail,) = smtp.to(f"{me.lower()}@x.org")
            if match.is_bye:
                assert "You have a bye in round 1." in body(mail)
            else:
                (other,) = [n for n in names if n != me]
                assert f"Round 1: table {match.table}, against {other}." in body(mail)
    assert smtp.to("gone@example.org") == []
    bounced = Email.objects.get(to="gone@example.org")
    assert bounced.status == "bounced"
    assert bounced.error.startswith("550")
    assert BouncedAddress.objects.filter(address="gone@example.org").exists()
    again = director.post(f"/api/v1/events/{event.pk}/rounds/1/email/", {}, format="json").json()
    assert (again["queued"], again["suppressed"]) == (4, 1)
    settle()
    assert Email.objects.filter(to="gone@example.org").values_list("status", flat=True).last() == "suppressed"
    assert len(smtp.messages) == 8
    log = director.get(f"/api/v1/events/{event.pk}/rounds/1/email/").json()
    assert sorted((row["to"], row["status"]) for row in log if row["to"] == "gone@example.org") == [
        ("gone@example.org", "bounced"), ("gone@example.org", "suppressed")]
    assert [row["status"] for row in log].count("sent") == 8
    assert api_client(people.recorder).get(f"/api/v1/events/{event.pk}/rounds/1/email/").status_code == 403
    assert api_client().get(f"/api/v1/events/{event.pk}/rounds/1/email/").status_code == 403


def test_a_webhook_failing_for_five_days_is_turned_off_and_its_owner_told(smtp, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_RETRY_SCHEDULE = [0, 0]
    boss = organiser()
    boss.email = "boss@example.org"
    boss.save(update_fields=["email"])
    client = api_client(boss)
    with HttpReceiver(answers=[(500, {}, 0)]) as receiver:
        made = client.post("/api/v1/webhooks/", {"url": receiver.url, "types": ["ping"]}, format="json").json()
        Subscription.objects.filter(pk=made["id"]).update(failing_since=timezone.now() - timedelta(days=5))
        client.post(f"/api/v1/webhooks/{made['id']}/test/", {}, format="json")
        settle()
    stored = Subscription.objects.get(pk=made["id"])
    assert stored.active is False
    assert stored.disabled_reason.startswith("failing since ")
    assert Message.objects.get(subscription=stored).status == "failed"
    (mail,) = smtp.to("boss@example.org")
    assert re.search(rf"Your webhook to {re.escape(receiver.url)} was turned off: failing since", body(mail))
