"""On a 390 px phone, in a real browser: from the pairings (each name with its match points before the
round) a spectator opens an entry's page, which shows its place, tiebreaks, the match it plays now and
every match in words, long names and a club included, and fits the phone (no sideways swipe); the
standings with the prize list under them fit too.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import pytest
from playwright import sync_api

from scoring.models import Player
from tournaments import services

from ..tournaments.stored import Officials, entry, new_event, open_matches, play_match
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import phone_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Pétur Þórðarson-Featherstonehaugh"


def _round_three():
    people = Officials()
    event = new_event(people, names=[LONG, "Bob", "Cleo", "Dev", "Eve", "Finn"], rounds=4)
    Player.objects.filter(display_name=LONG).update(club="Riverside Gin and Cribbage Society")
    services.update_event(actor=people.dir, event=event, changes={"prizes": [
        {"place": 1, "prize": "50 € voucher and the Riverside shield for a year"}, {"place": 2, "prize": "a bottle"}]})
    for number in (1, 2):
        services.pair_next_round(actor=people.dir, event=event)
        for m in open_matches(event, number):
            play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    services.pair_next_round(actor=people.dir, event=event)
    return event


def test_an_entrys_page_from_the_pairings_fits_a_phone(live_server):
    event = _round_three()
    long_entry = entry(event, LONG)
    with phone_browser() as page:
        page.goto(f"{live_server.url}/events/{event.pk}/pairings/")
        sync_api.expect(page.locator(".pairing").first).to_contain_text("(")
        assert fits_the_phone(page)
        shoot(page, "pairings-points-phone")
        page.locator(f".pairing a[href='/events/{event.pk}/entries/{long_entry.pk}/']").click()
        page.wait_for_url(f"**/events/{event.pk}/entries/{long_entry.pk}/")
        sync_api.expect(page.locator("h2")).to_contain_text(LONG)
        sync_api.expect(page.locator(".entry-place")).to_contain_text("Place now")
        sync_api.expect(page.locator("[data-now]")).to_contain_text("(round 3)")
        sync_api.expect(page.locator(".entry-match")).to_have_count(3)
        sync_api.expect(page.locator(".entry-match").first).to_contain_text("Round 1")
        assert fits_the_phone(page)
        shoot(page, "entry-page-phone")
        page.goto(f"{live_server.url}/events/{event.pk}/standings/")
        sync_api.expect(page.locator(".prizes")).to_contain_text("1st: 50 € voucher")
        assert fits_the_phone(page)
        shoot(page, "standings-prizes-phone")
