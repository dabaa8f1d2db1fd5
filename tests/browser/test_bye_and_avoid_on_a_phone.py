"""On a 390 px phone: a player asks to sit out round 2 on their own page, and a director keeps two players
apart on the event's "Pairings to avoid" page. Every page fits the phone.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import pytest

from tournaments import services
from tournaments.models import AvoidPair, RequestedBye

from ..factories import as_actor, organiser, user
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import phone_browser, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_asks_for_a_bye_and_a_director_keeps_two_apart_on_a_phone(live_server):
    director = user("td-phone")
    event = services.create_event(actor=as_actor(organiser()), name="Spring Swiss", format="swiss", rounds=3,
                                  registration_open=True, directors=[director])
    tokens = [services.register(actor=as_actor(), event=event, name=name, email=f"{name.lower()}@example.org").token
              for name in ("Ann", "Bob", "Cleo", "Dev")]
    base = live_server.url

    with phone_browser() as page:
        page.goto(f"{base}/events/registration/{tokens[0]}/")
        page.fill("#bye-round", "2")
        page.click("button:has-text('Ask for a bye')")
        sync_api.expect(page.locator("#my-byes")).to_contain_text("You sit out round 2")
        assert fits_the_phone(page)
        shoot(page, "bye-asked")
        page.go_back()
        page.reload()
        sync_api.expect(page.locator("#my-byes")).to_contain_text("You sit out round 2")
        assert page.locator("#ask-bye").count() == 0  # the one bye allowed is asked

        page.goto(f"{base}/accounts/login/?next=/events/{event.pk}/avoid/")
        page.fill("input[name=username]", "td-phone")
        page.fill("input[name=password]", "pw-td-phone")
        page.click("button:has-text('Sign in')")
        page.wait_for_url(f"**/events/{event.pk}/avoid/")
        page.select_option("#avoid-first", label="Bob")
        page.select_option("#avoid-second", label="Dev")
        page.click("button:has-text('Keep them apart')")
        sync_api.expect(page.locator("#avoid-pairs")).to_contain_text("Bob and Dev: never")
        assert fits_the_phone(page)
        shoot(page, "pairings-to-avoid")
    assert list(RequestedBye.objects.values_list("entry__player__display_name", "round")) == [("Ann", 2)]
    assert [(p.first.player.display_name, p.second.player.display_name, p.strength)
            for p in AvoidPair.objects.all()] == [("Bob", "Dev", "never")]
