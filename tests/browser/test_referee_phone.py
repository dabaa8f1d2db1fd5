"""A referee enters a hand on the phone page in a real browser and the opponent accepts it.

Playwright drives Debian's chromium (/usr/bin/chromium, installed by scripts/ensure-chromium, which
`make test` runs first). Without it the test is skipped, except in CI, where that is a failure.
"""

import contextlib
import os
import shutil

import pytest

from scoring.models import Game

from ..factories import game, user

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium for the browser tests (scripts/ensure-chromium)")
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")

# Chromium runs here without network access: keep it from reaching out (and waiting) at start.
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


@contextlib.contextmanager
def phone_browser(width=390, height=844):
    """A phone-sized page. Playwright runs an event loop in this thread while it is open, and Django
    refuses database calls from such a thread: prepare the data before, check the database after."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(15000)
        yield page
        context.close()
        browser.close()


def test_a_referee_enters_a_hand_on_the_phone_and_the_opponent_accepts_it(live_server):
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser() as page:
        enter_and_accept(page, live_server.url, g.pk)
    g = Game.objects.get(pk=g.pk)
    assert g.summary["totals"] == {"Ann": 33, "Bob": 0}
    hand = g.hands.get()
    assert (hand.entered_by.username, hand.confirmed_by_player.display_name) == ("phoneref", "Bob")


def sign_in(page, base_url, game_id):
    """The referee "phoneref" signs in on the phone and lands on the game's entry page."""
    page.goto(f"{base_url}/accounts/login/?next=/games/{game_id}/enter/")
    page.fill("input[name=username]", "phoneref")
    page.fill("input[name=password]", "pw-phoneref")
    page.click("button:has-text('Sign in')")
    page.wait_for_url(f"**/games/{game_id}/enter/")


def accept(page, player, pin, *, says, number=1):
    """Type ``player``'s PIN on the pending card and check what the page then says."""
    radio = page.locator(f".pending-card label.choice:has-text('{player}')")
    if radio.count():
        radio.click()
    else:  # the only player who may accept: named beside the PIN box
        sync_api.expect(page.locator(f".pending-card label:has-text(\"{player}'s PIN\")")).to_be_visible()
    page.fill("input[name=pin]", pin)
    page.click(f"button:has-text('Accept hand {number}')")
    # Accepted: the message at the top; refused: said on the hand's card, beside its PIN box.
    said = page.locator(".messages li, .pending-card .refused").filter(has_text=says)
    sync_api.expect(said.first).to_be_visible()


def enter_and_accept(page, base_url, game_id):
    g_pk = game_id
    sign_in(page, base_url, g_pk)

    from .table import record_knock

    record_knock(page, "Ann", 6, 19)
    # the engine's preview appears before anything is saved
    sync_api.expect(page.locator("#preview")).to_contain_text("Ann scores 13")
    page.screenshot(path=os.environ.get("BROWSER_SCREENSHOT", "/tmp/ginscore-referee-phone.png"), full_page=True)
    page.click("button:has-text('Record hand')")

    sync_api.expect(page.locator(".pending-card")).to_contain_text("Hand 1 awaits Bob")
    accept(page, "Bob", "2222", says="Hand 1 confirmed")
    sync_api.expect(page.locator(".totals-line")).to_contain_text("Ann 13")  # toward 100; 33 with the box


def test_wrong_pins_on_the_phone_say_how_many_tries_are_left_then_when_to_try_again(live_server):
    from scoring import services

    from ..factories import as_actor, knock

    referee = user("phoneref")
    g = game(referees=[referee])
    services.record_hand(actor=as_actor(referee), game=g, data=knock("Ann", 6, 19))
    shots = os.environ.get("BROWSER_SCREENSHOT_DIR", "/tmp")
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        for tries_left in (4, 3, 2, 1):
            accept(page, "Bob", "9999", says=f"that is not Bob's PIN ({tries_left} more tr")
        page.screenshot(path=f"{shots}/ginscore-wrong-pin.png", full_page=True)
        accept(page, "Bob", "9999", says="Too many wrong PINs for Bob: try again at")
        # the locked PIN box is no longer offered (the right PIN would wait too): the card says until when
        card = page.locator(".pending-card")
        sync_api.expect(card).to_contain_text("Hand 1 awaits Bob")
        sync_api.expect(card.locator(".locked")).to_contain_text("Bob's PIN is locked after too many wrong tries: "
                                                                 "try again at")
        assert card.locator("input[name=pin]").count() == 0
        page.screenshot(path=f"{shots}/ginscore-pin-lockout.png", full_page=True)
    assert not g.hands.get().is_confirmed


def test_a_referee_link_opened_on_a_phone_lands_on_the_entry_page_without_the_token_in_any_url(live_server):
    from scoring import services

    from ..factories import as_actor, organiser

    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g, label="Table phone")
    requested = []
    with phone_browser() as page:
        page.on("request", lambda r: requested.append(r.url))
        page.goto(f"{live_server.url}/r/#{link.token}")
        page.wait_for_url(f"**/games/{g.pk}/enter/")
        sync_api.expect(page.locator("h1")).to_contain_text("Ann v Bob")
    # the token left the phone only in the POST body: never in a URL the server (or its logs) saw
    assert requested
    assert not [url for url in requested if link.token in url.split("#")[0]]
