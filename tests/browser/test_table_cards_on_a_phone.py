"""Table cards to print on a phone, 390 and 360 px wide: a bracket match that opened by itself (long
names) is counted on the event page; the director taps through to Cards to print, makes its link, and
the card with its QR code fits the screen, as does the list before it.

Same browser set-up as test_referee_phone (Debian's chromium through Playwright; data prepared before
the browser opens, checked after it closes).
"""

import pytest

from tournaments import services
from tournaments.models import Match

from ..tournaments.stored import Officials, entry, new_event, play_match
from .table import SIZES
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import phone_browser, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Pétur Þórðarson-Featherstonehaugh", "Bartholomew Cholmondeley-Smythe", "Cleo", "Dev", "Eve", "Finn"]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_director_prints_a_self_opened_bracket_matchs_card_on_a_phone(live_server, width, height):
    people = Officials()
    event = new_event(people, names=NAMES, fmt="double_elimination")
    services.seed_entries(actor=people.dir, event=event, method="manual", order=[entry(event, n).pk for n in NAMES])
    w12, _ = services.pair_next_round(actor=people.dir, event=event).matches
    play_match(people, w12, "Dev")  # W2-1 (Pétur, who had a bye, v Dev) opens by itself, without a link
    opened = Match.objects.get(event=event, bracket_id="W2-1", reset_at__isnull=True)
    assert opened.card_printed_at is None
    name = people.director.username
    with phone_browser(width, height) as page:
        page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.pk}/")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", f"pw-{name}")
        page.click("button:has-text('Sign in')")
        page.wait_for_url(f"**/events/{event.pk}/")
        page.click("a:has-text('1 table card to print')")
        page.wait_for_url(f"**/events/{event.pk}/cards/")
        sync_api.expect(page.locator("main")).to_contain_text("W2-1 · Table 1: Pétur Þórðarson-Featherstonehaugh v Dev")
        assert fits_the_phone(page)
        shoot(page, f"cards-to-print-{width}")
        page.locator("button:has-text('Make their links and show the cards')").dblclick()  # a double tap: once
        sync_api.expect(page.locator(".print-card")).to_have_count(1)
        sync_api.expect(page.locator(".print-card")).to_contain_text("scan to record the hands")
        sync_api.expect(page.locator(".print-card svg")).to_have_count(1)
        assert fits_the_phone(page)
        shoot(page, f"cards-printed-{width}")
    assert Match.objects.get(pk=opened.pk).card_printed_at is not None
    assert opened.match_games.get().game.referee_links.count() == 1
