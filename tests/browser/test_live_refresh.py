"""The live pages' refresh script in a real browser, its clock driven by the test: it sends back the
ETag it holds, leaves the page alone on a 304, waits 5 s plus a random part between refreshes, and
backs off (doubling, or as Retry-After says) while the server answers 503 or 429, and asks nothing while
the page is hidden."""

import re

import pytest

from tournaments import services

from ..factories import as_actor, organiser
from .test_referee_phone import phone_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_refresh_sends_its_etag_and_backs_off_while_the_server_is_busy(live_server):
    boss = organiser()
    event = services.create_event(actor=as_actor(boss), name="Refresh Swiss", format="swiss", rounds=2)
    services.add_entries_from_text(actor=as_actor(boss), event=event, text="Ann\nBob\nCleo\nDev")
    services.pair_next_round(actor=as_actor(boss), event=event)
    asked, answers = [], []

    def route(route):
        asked.append(route.request.headers.get("if-none-match"))
        if answers and answers[0] == "busy":
            answers.pop(0)
            route.fulfill(status=503, headers={"Retry-After": "2"}, body="busy")
        else:
            route.continue_()

    def advance(ms):
        """Let the page's clock run ``ms``, then give its requests a moment of real time to be routed."""
        page.clock.run_for(ms)
        page.wait_for_timeout(400)

    with phone_browser() as page:
        page.clock.install()
        page.route(re.compile(r".*/standings/\?fragment=1$"), route)
        page.goto(f"{live_server.url}/events/{event.pk}/standings/")
        held = page.locator("#live").get_attribute("data-live-etag")
        assert held.startswith('W/"standings-')
        before = page.locator("#live").inner_html()
        advance(6600)  # 5 s and at most 1.5 s more
        assert len(asked) == 1
        assert asked[0] == held  # the version it holds: nothing changed, a 304
        assert page.locator("#live").inner_html() == before
        answers.extend(["busy", "busy"])
        advance(6600)
        assert len(asked) == 2  # answered 503: the next waits 10 s (5 s doubled), not 5
        advance(9000)
        assert len(asked) == 2
        advance(2600)
        assert len(asked) == 3  # answered 503 again: 20 s now
        advance(18000)
        assert len(asked) == 3
        advance(4000)
        assert len(asked) == 4  # answered at last: back to every 5 s
        advance(6600)
        assert len(asked) == 5


def test_a_hidden_page_asks_nothing_and_asks_at_once_when_looked_at_again(live_server):
    boss = organiser()
    event = services.create_event(actor=as_actor(boss), name="Pocket Swiss", format="swiss", rounds=2)
    services.add_entries_from_text(actor=as_actor(boss), event=event, text="Ann\nBob\nCleo\nDev")
    services.pair_next_round(actor=as_actor(boss), event=event)
    asked = []

    def route(route):
        asked.append(route.request.url)
        route.continue_()

    def advance(ms):
        page.clock.run_for(ms)
        page.wait_for_timeout(400)

    def asked_so_far(expected: int) -> int:
        """How many refreshes were asked, once ``expected`` have been or 5 s have passed: under load a request
        the page sent reaches the route a moment later (one run in many counted one too few)."""
        for _ in range(50):
            if len(asked) >= expected:
                break
            page.wait_for_timeout(100)
        return len(asked)

    def look(hidden: bool):
        page.evaluate("""hidden => {
            Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""", hidden)

    with phone_browser() as page:
        page.clock.install()
        page.route(re.compile(r".*/pairings/\?fragment=1$"), route)
        page.goto(f"{live_server.url}/events/{event.pk}/pairings/")
        advance(6600)
        assert asked_so_far(1) == 1
        look(hidden=True)  # the phone goes into a pocket
        advance(60000)
        assert len(asked) == 1  # a minute: not one request
        look(hidden=False)
        advance(1600)  # looked at again: at once (within the jitter)
        assert asked_so_far(2) == 2
        advance(6600)
        assert asked_so_far(3) == 3  # then every 5 s again
