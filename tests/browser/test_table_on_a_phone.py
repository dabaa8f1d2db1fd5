"""The table on a phone (390x844, and 360 px wide for the width check): accepting with the hand read
back, Back then Record, fixing the last hand, and no page wider than the screen.

Same browser set-up as test_referee_phone (Debian's chromium through Playwright; data prepared
before the browser opens, checked after it closes).
"""

import os

import pytest

from scoring.models import Hand

from ..factories import game, user
from .test_referee_phone import phone_browser, sign_in, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("BROWSER_SCREENSHOT_DIR", "/tmp")


def record(page, knocker, knocker_deadwood, opponent_deadwood):
    page.click("label.choice:has-text('Knock')")
    page.click(f"fieldset:has(legend:has-text('Who knocked')) label.choice:has-text('{knocker}')")
    page.fill("input[name=knocker_deadwood]", str(knocker_deadwood))
    page.fill("input[name=opponent_deadwood]", str(opponent_deadwood))


def test_back_then_record_hand_records_nothing_twice(live_server):
    """Back brings the entry page as it is now (hand 1 awaiting Bob, an empty form for hand 2), never
    the old values in a new hand's form; tapping Record then records nothing."""
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        record(page, "Ann", 6, 19)
        page.click("button:has-text('Record hand 1')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 recorded")
        page.go_back()
        sync_api.expect(page.locator(".pending-card")).to_contain_text("Hand 1 awaits Bob")
        sync_api.expect(page.locator("#hand-form h2")).to_have_text("Hand 2")
        assert page.locator("#hand-form input[name=result]:checked").count() == 0
        page.click("button[type=submit]:has-text('Record hand')")
        sync_api.expect(page.locator("#hand-form")).to_contain_text("Choose the result")
    assert Hand.objects.filter(game=g).count() == 1


def test_a_form_left_open_for_a_hand_already_recorded_records_nothing_and_shows_that_hand(live_server):
    """Two phones at one table (or a tab left open): the form made for hand 1 is sent after hand 1 was
    recorded elsewhere; nothing is recorded and the page says which hand is there, in words."""
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        other = page.context.new_page()
        other.goto(f"{live_server.url}/games/{g.pk}/enter/")
        record(other, "Ann", 6, 19)
        other.click("button:has-text('Record hand 1')")
        sync_api.expect(other.locator(".messages")).to_contain_text("Hand 1 recorded")
        record(page, "Bob", 2, 30)
        page.click("button:has-text('Record hand 1')")
        messages = page.locator(".messages")
        sync_api.expect(messages).to_contain_text("hand 1 is already recorded")
        sync_api.expect(messages).to_contain_text("Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)")
    assert [h.data["knocker"] for h in Hand.objects.filter(game=g)] == ["Ann"]
