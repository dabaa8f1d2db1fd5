"""The directors' check-in list on a phone: "Find a name" narrows both lists as it is typed (accents and case
aside), and checking a player in brings the page back at the next name still missing."""

import pytest

from tournaments import services

from ..factories import as_actor, organiser, user
from .test_referee_phone import phone_browser, sync_api
from .test_round_to_time import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_find_a_name_and_check_in_without_losing_the_place(live_server):
    director = user("checktd")
    event = services.create_event(actor=as_actor(organiser()), name="Door Swiss", format="swiss", rounds=2,
                                  check_in=True, directors=[director])
    services.add_entries_from_text(actor=as_actor(director), event=event,
                                   text="Ann\nBob\nCleo\nDev\nPétur\nZed")
    cleo = event.entries.get(player__display_name="Cleo").pk
    with phone_browser() as page:
        _sign_in(page, live_server.url, "checktd", f"/events/{event.pk}/check-in/")
        find = page.locator("#find-name")
        find.fill("petur")
        visible = page.locator(".check-in-list li[id]:visible .name")
        sync_api.expect(visible).to_have_text(["Pétur"])
        find.fill("")
        sync_api.expect(visible).to_have_count(6)
        page.locator("li:has-text('Bob') button:has-text('Check in')").click()
        page.wait_for_url("**#entry-*")
        assert page.url.endswith(f"#entry-{cleo}")
        sync_api.expect(page.locator("#check-in-title")).to_contain_text("1 of 6 here")
