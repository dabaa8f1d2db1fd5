"""A director runs a Swiss round and a bracket on the event calculator page on a phone.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import os
from pathlib import Path

import pytest

from .test_referee_phone import phone_browser, sync_api

pytestmark = [pytest.mark.browser]


def shoot(page, name, *parts):
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
        for part in parts:
            page.locator(part).first.screenshot(path=str(Path(folder) / f"{name}{part.replace('#', '-')}.png"))


def fits_the_phone(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_director_records_a_swiss_round_on_the_phone_with_a_double_tap(live_server):
    with phone_browser() as page:
        page.goto(f"{live_server.url}/events/calculator/?example")
        sync_api.expect(page.locator("#status")).to_contain_text("Round 2 of 3 is paired")
        assert fits_the_phone(page)
        shoot(page, "event-calculator-round", "#round-form")
        page.click("#row-0 label.choice:has-text('Ann won')")
        page.fill("#row-0-margin", "30")
        page.click("#row-1 label.choice:has-text('Gail won')")
        page.click("#row-2 label.choice:has-text('Draw')")
        button = page.locator("button:has-text('Record these results')")
        button.dblclick()
        sync_api.expect(page.locator("#status")).to_contain_text("Round 3 of 3 is paired")
        results = page.locator("textarea[name=results]").input_value().splitlines()
        assert results[4:] == ["Round 2: Ann beat Cleo by 30", "Round 2: Gail beat Eve", "Round 2: Finn drew Bob",
                               "Round 2: Dev bye"]
        assert fits_the_phone(page)
        shoot(page, "event-calculator-round-3")


def test_a_bracket_scrolls_inside_its_box_not_the_page(live_server):
    with phone_browser() as page:
        page.goto(f"{live_server.url}/events/calculator/")
        page.select_option("select[name=format]", "double_elimination")
        page.fill("textarea[name=entries]", "\n".join(f"Player {i}" for i in range(1, 13)))
        page.click("button:has-text('Start')")
        sync_api.expect(page.locator("#bracket")).to_contain_text("Losers' bracket")
        assert fits_the_phone(page)
        scroll = page.locator(".bracket-scroll").first
        assert scroll.evaluate("box => box.scrollWidth > box.clientWidth")
        shoot(page, "event-calculator-bracket", "#bracket", "#standings")
