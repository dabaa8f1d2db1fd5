"""The projector page on a hall's TV (1920x1080) in a real browser: 64 tables of round 1 paged in columns with
no scrollbar, every table on some page, the standings after it; with the server gone, the last screens stay
with an "offline" mark.

Set BROWSER_SCREENSHOT_DIR=/some/dir to keep the screenshots for looking at them.
"""

import contextlib
import os
import re

import pytest

from tournaments import services

from ..tournaments.stored import Officials, new_event, open_matches
from .test_referee_phone import CHROMIUM, FLAGS, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("BROWSER_SCREENSHOT_DIR", "/tmp")


@contextlib.contextmanager
def hall_screen(width=1920, height=1080):
    """A 1080p TV's page. Playwright runs an event loop in this thread while it is open, and Django refuses
    database calls from such a thread: prepare the data before."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(15000)
        yield page
        context.close()
        browser.close()


def fits(page) -> bool:
    """No scrollbar either way, and the shown tables and rows inside the screen."""
    return page.evaluate("""() => {
        const root = document.documentElement;
        const inside = [...document.querySelectorAll('.screen.shown .display-table, .screen.shown tbody tr')]
            .filter(el => el.offsetParent !== null)
            .every(el => el.getBoundingClientRect().bottom <= innerHeight
                         && el.getBoundingClientRect().right <= innerWidth);
        return root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth && inside;
    }""")


def shown_tables(page) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll('.screen.shown .display-table')]
        .filter(el => el.offsetParent !== null).map(el => el.querySelector('.where').lastChild.textContent.trim())""")


def test_64_tables_page_on_a_1080p_screen_without_a_scrollbar_and_every_table_is_shown(live_server):
    people = Officials()
    event = new_event(people, names=[f"Player {i:03d} {'Longname' * (i % 3)}" for i in range(128)], rounds=5)
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event, 1)[:10]:  # ten tables have a result already
        services.record_forfeit(actor=people.dir, match=m, winner=m.players.order_by("side").first().entry,
                                reason="no show")
    with hall_screen() as page:
        page.goto(f"{live_server.url}/events/{event.pk}/display/")
        sync_api.expect(page.locator(".screen.shown .display-page")).to_contain_text("page 1/")
        pages = int(re.search(r"page 1/(\d+)", page.locator(".display-page").inner_text()).group(1))
        assert pages > 1
        assert page.evaluate("() => ginscoreDisplay.shown()") == {"kind": "pairings", "page": 1, "pages": pages}
        names = page.locator(".screen.shown .display-table .name").first
        assert float(names.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px")) >= 40
        assert float(page.locator(".screen.shown .display-table .where").first.evaluate(
            "el => getComputedStyle(el).fontSize").removesuffix("px")) >= 40
        page.screenshot(path=f"{SHOTS}/ginscore-projector-pairings.png")
        seen = []
        for number in range(1, pages + 1):
            assert page.evaluate("() => ginscoreDisplay.shown()")["page"] == number
            sync_api.expect(page.locator(".display-page")).to_contain_text(f"page {number}/{pages}")
            assert fits(page), number
            seen += shown_tables(page)
            page.evaluate("() => ginscoreDisplay.next()")
        assert sorted(seen, key=int) == [str(n) for n in range(1, 65)]  # every table once
        assert page.evaluate("() => ginscoreDisplay.shown()")["kind"] == "standings"
        assert fits(page)
        assert 10 <= page.locator(".screen.shown tbody tr:visible").count() <= 16
        page.screenshot(path=f"{SHOTS}/ginscore-projector-standings.png")
        page.evaluate("() => ginscoreDisplay.next()")
        assert page.evaluate("() => ginscoreDisplay.shown()") == {"kind": "pairings", "page": 1, "pages": pages}

        # The server gone: the refresh fails, the screen keeps the last tables and says it is offline.
        page.route(re.compile(r".*/display/\?fragment=1$"), lambda route: route.abort())
        sync_api.expect(page.locator(".live-offline")).to_be_visible(timeout=20000)
        assert sorted(shown_tables(page), key=int) == sorted(seen, key=int)[: len(shown_tables(page))]
        assert fits(page)
        page.screenshot(path=f"{SHOTS}/ginscore-projector-offline.png")

        # 250 tables (a round of 500, as the screen would be sent them): paged the same way, every one shown.
        page.evaluate("""() => {
            const list = document.querySelector('.display-pairings');
            const model = list.children[20];
            list.replaceChildren();
            for (let n = 1; n <= 250; n++) {
                const row = model.cloneNode(true);
                row.querySelector('.where').lastChild.textContent = String(n);
                list.appendChild(row);
            }
            document.getElementById('live').dispatchEvent(new CustomEvent('live:updated'));
        }""")
        many = page.evaluate("() => ginscoreDisplay.shown()")
        assert many["pages"] == -(-250 // len(shown_tables(page)))
        seen = []
        for _ in range(many["pages"]):
            assert fits(page)
            seen += shown_tables(page)
            page.evaluate("() => ginscoreDisplay.next()")
        assert sorted(seen, key=int) == [str(n) for n in range(1, 251)]


def test_a_refresh_swaps_in_new_results_on_the_same_page_and_the_bracket_is_scaled_to_fit(live_server):
    people = Officials()
    event = new_event(people, names=[f"Entrant {i:02d}" for i in range(64)], fmt="double_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    with hall_screen() as page:
        page.goto(f"{live_server.url}/events/{event.pk}/display/")
        sync_api.expect(page.locator(".screen.shown .display-page")).to_contain_text("page 1/2")
        page.evaluate("() => ginscoreDisplay.next()")
        assert page.evaluate("() => ginscoreDisplay.shown()") == {"kind": "pairings", "page": 2, "pages": 2}
        # The next refresh brings a result (as the server would once it is recorded): swapped in, laid out at
        # once on the same page, still fitting.
        part = page.locator("#live").inner_html()
        changed = part.replace("Matches to play", "Matches to play now", 1)

        def answer(route):
            route.fulfill(status=200, body=changed, headers={
                "Content-Type": "text/html; charset=utf-8", "ETag": 'W/"display-next"', "X-Live-Version": "next"})

        page.route(re.compile(r".*/display/\?fragment=1$"), answer)
        sync_api.expect(page.locator(".screen.shown .screen-title")).to_contain_text("Matches to play now",
                                                                                      timeout=20000)
        assert page.evaluate("() => ginscoreDisplay.shown()") == {"kind": "pairings", "page": 2, "pages": 2}
        assert fits(page)
        page.evaluate("() => ginscoreDisplay.next()")
        assert page.evaluate("() => ginscoreDisplay.shown()")["kind"] == "bracket"
        assert fits(page)
        box = page.locator(".screen.shown .display-bracket-box").bounding_box()
        drawn = page.locator(".screen.shown .display-bracket").bounding_box()
        assert drawn["width"] <= box["width"] + 1
        assert drawn["height"] <= box["height"] + 1
        page.screenshot(path=f"{SHOTS}/ginscore-projector-bracket.png")
