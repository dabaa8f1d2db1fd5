"""The webhooks pages and the round page's email button, for whoever may and may not: signing in first, another's
webhook a 404, a refused URL named by its field with nothing made, a director's round emailed only by its
directors (a private event a 404 to outsiders)."""

import pytest
from django.test import Client

from notifications.models import Email, Subscription
from tournaments import services

from ..factories import organiser, user
from ..tournaments.stored import Officials, new_event

pytestmark = pytest.mark.django_db


def signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def test_the_webhooks_pages_are_each_users_own():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    assert Client().get("/webhooks/").status_code == 302
    director = signed_in(people.director)
    page = director.get("/webhooks/")
    assert page.status_code == 200
    assert f'<option value="{event.pk}">' in page.content.decode()
    made = director.post("/webhooks/", {"url": "https://example.org/hook", "format": "standard", "event": event.pk,
                                        "types": ["round.published"], "description": "bot"})
    assert made.status_code == 200
    hook = Subscription.objects.get()
    assert hook.secret in made.content.decode()
    assert hook.secret not in director.get("/webhooks/").content.decode()
    assert hook.secret not in director.get(f"/webhooks/{hook.pk}/").content.decode()
    for other in (user(), organiser()):
        assert signed_in(other).get(f"/webhooks/{hook.pk}/").status_code == 404
        assert signed_in(other).post(f"/webhooks/{hook.pk}/", {"action": "delete"}).status_code == 404
    assert Subscription.objects.filter(pk=hook.pk).exists()


def test_a_refused_url_is_named_and_nothing_is_made(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    page = signed_in(organiser()).post("/webhooks/", {"url": "http://192.168.1.10/", "format": "standard",
                                                      "event": "", "types": ["ping"]})
    assert page.status_code == 400
    assert "192.168.1.10 is a private address: refused (WEBHOOK_ALLOW_PRIVATE is off)" in page.content.decode()
    assert not Subscription.objects.exists()


@pytest.mark.parametrize("public", [True, False])
def test_a_rounds_emails_are_sent_by_its_directors_only(public):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=public)
    services.pair_next_round(actor=people.dir, event=event)
    url = f"/events/{event.pk}/rounds/1/email/"
    assert Client().post(url, {"what": "pairings"}).status_code == (302 if public else 404)
    assert signed_in(user()).post(url, {"what": "pairings"}).status_code == (403 if public else 404)
    assert not Email.objects.exists()
    round_page = signed_in(people.director).get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert "Email each player their table" in round_page
    assert "Email each player their table" not in signed_in(people.recorder).get(
        f"/events/{event.pk}/rounds/1/").content.decode()
    done = signed_in(people.director).post(url, {"what": "pairings", "once": "k1"})
    assert done.status_code == 302
    assert Email.objects.count() == 0  # no player has an address yet: nothing to send, and it says so


def test_the_owner_changes_a_webhook_on_its_page_and_a_chat_channel_refuses_a_match_by_match_type():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    director = signed_in(people.director)
    director.post("/webhooks/", {"url": "https://example.org/hook", "format": "discord", "event": event.pk,
                                 "types": ["round.published"]})
    hook = Subscription.objects.get()
    refused = director.post(f"/webhooks/{hook.pk}/", {"action": "change", "url": "https://example.org/hook",
                                                      "types": ["match.decided"]})
    assert refused.status_code == 400
    assert "a discord channel is told only of round.published, round.completed, event.finished, ping" in \
        refused.content.decode()
    done = director.post(f"/webhooks/{hook.pk}/", {"action": "change", "url": "https://example.org/other",
                                                   "types": ["round.completed", "event.finished"],
                                                   "description": "the club's channel"})
    assert done.status_code == 302
    hook.refresh_from_db()
    assert (hook.url, hook.types, hook.description) == ("https://example.org/other",
                                                        ["round.completed", "event.finished"], "the club's channel")
