"""A player signs up from home on a 390 px phone: the event is full, so they are put on the waiting list
(number 1), and their own page says so; another player withdraws by their own link, and the waiting player's
page then says they are entered. Every page fits the phone.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import pytest

from tournaments import services
from tournaments.models import Registration

from ..factories import as_actor, organiser
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import phone_browser, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_signs_up_is_waitlisted_and_is_entered_when_another_withdraws(live_server):
    event = services.create_event(actor=as_actor(organiser()), name="Spring Swiss", format="swiss", rounds=3,
                                  registration_open=True, registration_cap=2, waitlist=True)
    tokens = [services.register(actor=as_actor(), event=event, name=name, email=f"{name.lower()}@example.org").token
              for name in ("Ann", "Bob")]
    base = live_server.url

    with phone_browser() as page:
        page.goto(f"{base}/events/{event.pk}/register/")
        sync_api.expect(page.locator("main")).to_contain_text("2 entered of 2")
        assert fits_the_phone(page)
        shoot(page, "sign-up-form")
        page.fill("#name", "Cleo Park")
        page.fill("#email", "cleo@example.org")
        page.fill("#club", "Riverside")
        page.fill("#pin", "3579")
        page.fill("#pin_again", "3579")
        page.click("button:has-text('Sign up')")
        status = page.locator("#my-status")
        sync_api.expect(status).to_contain_text("Cleo Park, you are on the waiting list: number 1")
        assert fits_the_phone(page)
        shoot(page, "sign-up-waitlisted")
        own_page = page.url

        # Ann, on her own phone (another browser context: no cookie shared), withdraws by her own link.
        phone = page.context.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                 has_touch=True)
        other = phone.new_page()
        other.goto(f"{base}/events/registration/{tokens[0]}/")
        other.check("input[name=confirm]")
        other.click("button:has-text('Withdraw')")
        sync_api.expect(other.locator("#my-status")).to_contain_text("Ann, you have withdrawn")
        phone.close()

        page.goto(own_page)
        sync_api.expect(status).to_contain_text("Cleo Park, you are entered")
        shoot(page, "sign-up-entered")
    cleo = Registration.objects.get(player__display_name="Cleo Park")
    assert (cleo.status, cleo.entry.event_id) == ("entered", event.pk)
