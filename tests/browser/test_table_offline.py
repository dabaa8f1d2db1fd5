"""The table's phone when the hall's network goes (390x844): the entry page opens and reloads with no
network (its service worker), the hands recorded meanwhile wait on the phone (its outbox) with their
summaries and are sent by themselves when the network returns, each once and in order; an answer lost on
its way records nothing twice; a hand the server refuses stops the table's queue with the server's words.

Same browser set-up as test_referee_phone (Debian's chromium through Playwright; data prepared before the
browser opens, checked after it closes).
"""

import os

import pytest

from scoring.models import Game, Hand

from ..factories import game, user
from .table import record_knock
from .test_referee_phone import phone_browser, sign_in, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("BROWSER_SCREENSHOT_DIR", "/tmp")


def kept_by_the_worker(page) -> None:
    """Wait until the service worker runs the page and keeps a copy of it. (``page.evaluate`` awaits the
    cache's answer; ``wait_for_function`` took the pending promise itself for a yes, so a navigation that
    followed could cancel the page's own copy still being kept.)"""
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    for _ in range(200):
        if page.evaluate("async () => !!(await caches.match(location.pathname))"):
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page was never kept on the phone")


def record_offline(page, number, knocker, knocker_deadwood, opponent_deadwood, accepter, pin, shot=""):
    """A knock typed with no network, the loser tapping their name and typing their PIN."""
    record_knock(page, knocker, knocker_deadwood, opponent_deadwood)
    sync_api.expect(page.locator("#preview")).to_contain_text("No network")
    page.locator(f".accept-now label.choice:has-text('{accepter}')").click()
    page.fill("input[name=accept_pin]", pin)
    if shot:
        page.screenshot(path=shot, full_page=True)
    page.click(f"button:has-text('Record hand {number}')")
    sync_api.expect(page.locator("#outbox li").nth(number - 1)).to_contain_text(f"Hand {number}: ")


def test_three_hands_recorded_with_no_network_are_sent_once_each_in_order_when_it_returns(live_server):
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        kept_by_the_worker(page)
        page.context.set_offline(True)
        record_offline(page, 1, "Ann", 6, 19, "Bob", "2222")
        record_offline(page, 2, "Bob", 3, 20, "Ann", "1111", shot=f"{SHOTS}/ginscore-table-offline-entry.png")
        record_offline(page, 3, "Ann", 2, 12, "Bob", "2222")
        outbox = page.locator("#outbox")
        sync_api.expect(outbox.locator("h2")).to_have_text("3 hands waiting to send")
        # reloaded with no network: the page kept on the phone, the hands still waiting, nothing scored here
        page.reload()
        sync_api.expect(page.locator(".kept-copy")).to_contain_text("No network: this is the copy of this page kept")
        sync_api.expect(outbox.locator("h2")).to_have_text("3 hands waiting to send")
        sync_api.expect(outbox.locator("li").nth(0)).to_contain_text("Hand 1: Ann knocks")
        sync_api.expect(outbox.locator("li").nth(0)).to_contain_text("(with Bob's PIN)")
        sync_api.expect(outbox.locator("li").nth(1)).to_contain_text("Hand 2: Bob knocks")
        sync_api.expect(page.locator(".totals-note")).to_have_text(
            "Totals as the server last answered: they do not include the 3 hands waiting to send.")
        sync_api.expect(page.locator(".totals-line")).to_contain_text("Ann 0")
        sync_api.expect(page.locator("#hand-form h2")).to_have_text("Hand 4")
        page.screenshot(path=f"{SHOTS}/ginscore-table-offline.png", full_page=True)
        page.context.set_offline(False)
        # sent by themselves: the server's own page, its totals and its words
        sync_api.expect(page.locator(".totals-line")).to_contain_text("Ann 23", timeout=30000)
        sync_api.expect(page.locator(".totals-line")).to_contain_text("Bob 17")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 3 recorded and accepted by Bob")
        assert page.locator("#outbox").is_hidden()
        assert page.locator(".kept-copy").count() == 0
        page.screenshot(path=f"{SHOTS}/ginscore-table-back-online.png", full_page=True)
    hands = list(Hand.objects.filter(game=g).order_by("number", "version"))
    assert [(h.number, h.version, h.data["knocker"], h.data["knocker_deadwood"]) for h in hands] == [
        (1, 1, "Ann", 6), (2, 1, "Bob", 3), (3, 1, "Ann", 2)]
    assert [h.confirmed_by_player.display_name for h in hands] == ["Bob", "Ann", "Bob"]
    assert len({h.phone_id for h in hands}) == 3
    assert None not in {h.phone_id for h in hands}
    assert Game.objects.get(pk=g.pk).summary["totals"] == {"Ann": 63, "Bob": 37}  # with the boxes


def test_a_hand_whose_answer_is_lost_is_sent_again_and_recorded_once(live_server):
    """The request reaches the server, which records the hand; its answer never reaches the phone. The
    outbox keeps the hand and sends it again: the server finds it by the phone's id and records nothing."""
    referee = user("phoneref")
    g = game(referees=[referee])
    reached = []
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)

        def answer_lost(route):
            if not reached:
                reached.append(route.fetch().status)  # the server got it and answered...
                route.abort("connectionreset")  # ...and the answer was lost
            else:
                route.continue_()

        page.context.route("**/games/*/send/", answer_lost)
        record_knock(page, "Ann", 6, 19)
        sync_api.expect(page.locator("#preview")).to_contain_text("Ann scores 13")
        page.fill("input[name=accept_pin]", "2222")
        page.click("button:has-text('Record hand 1')")
        sync_api.expect(page.locator(".messages")).to_contain_text(
            "Hand 1 was recorded when this phone first sent it (sent again, recorded once)", timeout=20000)
        sync_api.expect(page.locator("#hand-form h2")).to_have_text("Hand 2")
    assert reached == [201]
    hand = Hand.objects.get(game=g)
    assert (hand.number, hand.confirmed_by_player.display_name) == (1, "Bob")


def two_waiting_and_hand_1_recorded_by_another_phone(page, base_url, game_id):
    """Two hands recorded with no network; a second phone at the table records hand 1; the network
    returns: hand 1 is refused (the refused item's locator)."""
    sign_in(page, base_url, game_id)
    kept_by_the_worker(page)
    page.context.set_offline(True)
    record_offline(page, 1, "Ann", 6, 19, "Bob", "2222")
    record_offline(page, 2, "Bob", 3, 20, "Ann", "1111")
    other = page.context.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                             has_touch=True).new_page()
    sign_in(other, base_url, game_id)
    record_knock(other, "Ann", 9, 10)
    sync_api.expect(other.locator("#preview")).to_contain_text("Ann scores 1")
    other.click("button:has-text('Record hand 1')")
    sync_api.expect(other.locator(".messages")).to_contain_text("Hand 1 recorded")
    page.context.set_offline(False)
    refused = page.locator("#outbox li.refused")
    sync_api.expect(refused).to_contain_text(
        "Hand 1 not recorded: hand 1 is already recorded (this form was made for it); the next hand is 2.",
        timeout=30000)
    return refused


def test_a_hand_refused_when_sent_stops_the_tables_queue_with_the_servers_words(live_server):
    """Two hands wait on a phone with no network; meanwhile a second phone at the table recorded hand 1.
    When the network returns, the first is refused in the server's words and the second waits behind it;
    the first discarded, the second is sent."""
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser() as page:
        refused = two_waiting_and_hand_1_recorded_by_another_phone(page, live_server.url, g.pk)
        outbox = page.locator("#outbox")
        sync_api.expect(outbox.locator("h2")).to_have_text("2 hands waiting to send")
        sync_api.expect(outbox).to_contain_text("The server refused hand 1: mend it, send it again or discard it.")
        sync_api.expect(outbox.locator("li").nth(1)).to_contain_text("Hand 2: Bob knocks")
        page.screenshot(path=f"{SHOTS}/ginscore-table-refused.png", full_page=True)
        page.on("dialog", lambda dialog: dialog.accept())
        refused.locator("button:has-text('Discard it')").click()
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 2 recorded and accepted by Ann",
                                                                   timeout=20000)
    hands = list(Hand.objects.filter(game=g).order_by("number"))
    assert [(h.number, h.data["knocker"], h.data["knocker_deadwood"]) for h in hands] == [(1, "Ann", 9), (2, "Bob", 3)]
    assert hands[0].phone_id != hands[1].phone_id


def test_a_refused_hand_mended_keeps_its_place_and_the_hands_after_it_follow(live_server):
    """The refused hand back in the form, read back by the server now the network is there, recorded again
    with the loser's PIN: it becomes hand 2 and the hand that waited behind it hand 3."""
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser() as page:
        refused = two_waiting_and_hand_1_recorded_by_another_phone(page, live_server.url, g.pk)
        refused.locator("button:has-text('Mend it')").click()
        sync_api.expect(page.locator("#hand-form h2")).to_have_text("Hand 2")
        sync_api.expect(page.locator("#preview")).to_contain_text("Ann knocks with 6, Bob has 19: Ann scores 13")
        page.fill("input[name=accept_pin]", "2222")
        page.click("button:has-text('Record hand 2')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 3 recorded and accepted by Ann",
                                                                   timeout=20000)
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 2 recorded and accepted by Bob")
    hands = list(Hand.objects.filter(game=g).order_by("number"))
    assert [(h.number, h.data["knocker"], h.data["knocker_deadwood"]) for h in hands] == [
        (1, "Ann", 9), (2, "Ann", 6), (3, "Bob", 3)]


def test_a_phone_keeping_two_tables_sends_the_other_tables_hands_from_the_page_open(live_server):
    referee = user("phoneref")
    first, second = game(referees=[referee]), game(names=("Cleo", "Dan"), referees=[referee])
    with phone_browser() as page:
        sign_in(page, live_server.url, second.pk)
        kept_by_the_worker(page)
        page.goto(f"{live_server.url}/games/{first.pk}/enter/")
        kept_by_the_worker(page)
        page.context.set_offline(True)
        record_offline(page, 1, "Ann", 6, 19, "Bob", "2222")
        page.goto(f"{live_server.url}/games/{second.pk}/enter/")
        outbox = page.locator("#outbox")
        sync_api.expect(outbox).to_have_text("1 hand of other tables waits on this phone too: sent from here as "
                                             "well; their table's page lists them.")
        page.context.set_offline(False)
        sync_api.expect(outbox).to_be_hidden(timeout=30000)
    hand = Hand.objects.get(game=first)
    assert (hand.number, hand.confirmed_by_player.display_name) == (1, "Bob")
    assert not Hand.objects.filter(game=second).exists()


def test_a_partnership_deal_recorded_with_no_network_waits_with_both_tables_and_is_sent(live_server):
    """A deal's two tables wait as one deal ("Deal 1: table 1: ...; table 2: ..."), sent as one."""
    from .test_every_format_on_a_phone import table_hand

    referee = user("phoneref")
    g = game(names=("Ann", "Cleo", "Bob", "Dev"), fmt="partnership", referees=[referee])
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        kept_by_the_worker(page)
        page.context.set_offline(True)
        table_hand(page, 1, "Knock", "Ann", 5, 30)
        table_hand(page, 2, "Gin", "Dev", opponent_deadwood=12)
        sync_api.expect(page.locator("#preview")).to_contain_text("No network")
        page.click("button:has-text('Record deal 1')")
        outbox = page.locator("#outbox")
        sync_api.expect(outbox.locator("h2")).to_have_text("1 deal waiting to send")
        sync_api.expect(outbox.locator("li")).to_contain_text("Deal 1: table 1: Ann knocks")
        sync_api.expect(outbox.locator("li")).to_contain_text("; table 2: Dev")
        sync_api.expect(page.locator("#hand-form h2")).to_have_text("Deal 2")
        page.screenshot(path=f"{SHOTS}/ginscore-table-offline-deal.png", full_page=True)
        page.context.set_offline(False)
        sync_api.expect(page.locator(".messages")).to_contain_text("Deal 1 recorded", timeout=30000)
    assert g.hands.get().data["tables"][1]["knocker"] == "Dev"
