"""A director on a 390 px phone: adds a webhook for their event (its secret shown once), sends a test ping and
sees the receiver's answer in the delivery log; then, on a published round's page, emails each player their
table with a double tap that sends once. No sideways swipe on either page.

Same browser set-up as test_referee_phone. Set SCREENSHOTS=/some/dir to keep the phone screenshots.
"""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from core import background
from notifications.models import Email, Subscription
from scoring.models import Player
from tournaments import services

from ..factories import as_actor, organiser, user
from ..notifications.receivers import HttpReceiver
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import phone_browser, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def run_handed_off_work() -> bool:
    """``background.wait_idle`` in a thread of its own while the browser waits: this one runs the browser's event
    loop, where Django refuses the database."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(background.wait_idle, 20).result()


def test_a_director_adds_a_webhook_pings_it_and_emails_a_round_on_a_phone(live_server, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_RETRY_SCHEDULE = [0]
    director = user("hooktd")
    event = services.create_event(actor=as_actor(organiser()), name="Phone Swiss", format="swiss", rounds=2,
                                  conventions={"preset": "classic", "target": 50}, directors=[director])
    services.add_entries_from_text(actor=as_actor(director), event=event, text="Ann\nBob\nCleo\nDev")
    for p in Player.objects.all():
        p.email = f"{p.display_name.lower()}@example.org"
        p.save(update_fields=["email"])
    services.pair_next_round(actor=as_actor(director), event=event)
    assert background.wait_idle(20)  # the set-up's own work
    # The work the pages hand off is run here, while the browser waits (``wait_idle``), not by the web process's
    # thread as in production (tests/notifications/test_deliveries.py runs that thread): the tests' in-memory
    # SQLite refuses a page's read while that thread writes ("table is locked": the page said "Back in a
    # moment" one run in many under load).
    with HttpReceiver() as receiver, phone_browser() as page:
        page.goto(f"{live_server.url}/accounts/login/?next=/webhooks/")
        page.fill("input[name=username]", "hooktd")
        page.fill("input[name=password]", "pw-hooktd")
        page.click("button:has-text('Sign in')")
        page.wait_for_url("**/webhooks/")
        page.fill("input[name=url]", receiver.url)
        page.select_option("select[name=event]", str(event.pk))
        page.check("input[value='round.completed']")
        page.fill("input[name=description]", "the club's bot")
        page.click("button:has-text('Add the webhook')")
        sync_api.expect(page.locator(".notice")).to_contain_text("Webhook added")
        secret = page.locator("code.secret").inner_text()
        assert fits_the_phone(page)
        shoot(page, "webhooks-added")
        page.click("text=Send it a test ping")
        page.click("button:has-text('Send a test ping')")
        sync_api.expect(page.locator(".messages")).to_contain_text("A ping is on its way")
        assert run_handed_off_work()
        assert len(receiver.received) == 1  # sent off the request, once it was answered
        page.reload()
        sync_api.expect(page.locator(".deliveries")).to_contain_text("ping")
        sync_api.expect(page.locator(".deliveries")).to_contain_text("#1 at")
        assert fits_the_phone(page)
        shoot(page, "webhook-delivery-log")
        page.goto(f"{live_server.url}/events/{event.pk}/rounds/1/")
        page.locator("button:has-text('Email each player their table')").dblclick()  # a double tap sends once
        sync_api.expect(page.locator(".messages")).to_contain_text("4 emails on their way")
        assert fits_the_phone(page)
        shoot(page, "round-emailed")
    assert background.wait_idle(20)
    (ping,) = receiver.received
    assert json.loads(ping.body)["type"] == "ping"
    assert Subscription.objects.get().secret == secret
    assert Email.objects.filter(kind="pairings").count() == 4
