"""Every table format on a phone (390x844): a partnership deal recorded on one screen and accepted by
the other team, the Hollywood sheet as the paper pad, the printed sheet. Same browser set-up as
test_referee_phone (Debian's chromium through Playwright; data prepared before the browser opens,
checked after it closes)."""

import os

import pytest

from scoring.models import Game

from ..factories import game, user
from .table import key, play
from .test_referee_phone import phone_browser, sign_in, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("BROWSER_SCREENSHOT_DIR", "/tmp")


def table_hand(page, table, result, knocker=None, knocker_deadwood=None, opponent_deadwood=None):
    card = page.locator(f".table-card[data-table='{table}']")
    play(card, result.lower().replace(" ", "_"), knocker).click()
    if knocker_deadwood is not None:
        key(card, knocker_deadwood).click()
    if opponent_deadwood is not None:
        card.locator("input[name$=opponent_deadwood]").fill(str(opponent_deadwood))


def test_a_partnership_deal_is_recorded_on_one_screen_and_accepted_by_the_other_team(live_server):
    """Deal 1 seats Ann v Bob and Cleo v Dev; each table offers only its two players as knocker; the
    preview shows the deal's team points from the engine; Bob (the other team) accepts with his PIN."""
    referee = user("phoneref")
    g = game(names=("Ann", "Cleo", "Bob", "Dev"), fmt="partnership", referees=[referee])
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        sync_api.expect(page.locator("#hand-form h2")).to_have_text("Deal 1")
        tables = page.locator(".table-card")
        sync_api.expect(tables.nth(0).locator("h3")).to_contain_text("Ann v Bob")
        sync_api.expect(tables.nth(1).locator("h3")).to_contain_text("Cleo v Dev")
        assert tables.nth(0).locator(".play-row .play-who").all_inner_texts() == ["Ann", "Bob"]
        table_hand(page, 1, "Knock", "Ann", 5, 30)
        sync_api.expect(page.locator("#preview")).to_contain_text("Enter table 2's result to see the deal's points")
        table_hand(page, 2, "Gin", "Dev", opponent_deadwood=12)
        preview = page.locator("#preview")
        # Ann +25 at table 1, Dev +32 (12 + gin 20) at table 2: Bob & Dev score the difference, 7
        sync_api.expect(preview.locator(".team-points")).to_contain_text("Bob & Dev +7")
        sync_api.expect(preview).to_contain_text("Bob & Dev score 7 (+1 box)")
        page.screenshot(path=f"{SHOTS}/ginscore-phone-deal.png", full_page=True)
        page.click("button:has-text('Record deal 1')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Deal 1 recorded")
        card = page.locator(".pending-card")
        sync_api.expect(card.locator("h2")).to_have_text("Deal 1 awaits Ann or Cleo")
        assert card.locator("label.choice").all_inner_texts() == ["Ann", "Cleo"]
        sync_api.expect(page.locator("#hand-form h2")).to_have_text("Deal 2")
        sync_api.expect(tables.nth(0).locator("h3")).to_contain_text("Ann v Dev")
        page.screenshot(path=f"{SHOTS}/ginscore-phone-deal-accept.png", full_page=True)
        card.locator("label.choice:has-text('Cleo')").click()
        page.fill("input[name=pin]", "2222")
        page.click("button:has-text('Accept deal 1')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Deal 1 confirmed")
        sync_api.expect(page.locator(".totals-line")).to_contain_text("Bob & Dev 7")  # toward 125; 27 with the box
    g = Game.objects.get(pk=g.pk)
    assert g.summary["totals"] == {"Ann & Cleo": 0, "Bob & Dev": 27}
    assert g.hands.get().confirmed_by_player.display_name == "Cleo"


def won(player, points):
    return {"result": "knock", "knocker": player, "knocker_deadwood": 1, "opponent_deadwood": points + 1}


def test_the_hollywood_sheet_shows_three_games_side_by_side_on_a_phone_and_on_paper(live_server):
    """The pad's three column pairs sit side by side within the phone's width (no sideways scrolling),
    and printed, the sheet adds the date, the table, the conventions and two signature lines."""
    org = user("padorganiser", staff=True)
    g = game(fmt="hollywood", requires_confirmation=False, by=org)
    from scoring import services

    from ..factories import as_actor
    for hand in (won("Ann", 60), won("Ann", 50), won("Bob", 30), won("Ann", 55), won("Bob", 40)):
        services.record_hand(actor=as_actor(org), game=g, data=hand)
    with phone_browser() as page:
        page.goto(f"{live_server.url}/games/{g.pk}/")
        heads = page.locator("table.pad .game-head")
        sync_api.expect(heads).to_have_count(3)
        boxes = [heads.nth(i).bounding_box() for i in range(3)]
        assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
        assert len({round(b["y"]) for b in boxes}) == 1
        assert boxes[2]["x"] + boxes[2]["width"] <= 390
        scroll = page.locator(".hollywood-pad .table-scroll")
        assert scroll.evaluate("el => el.scrollWidth <= el.clientWidth")
        sync_api.expect(page.locator("[data-match]")).to_contain_text("Net of the closed games so far: Ann 545")
        assert not page.locator(".signatures").is_visible()
        page.screenshot(path=f"{SHOTS}/ginscore-phone-hollywood.png", full_page=True)
        page.emulate_media(media="print")
        sync_api.expect(page.locator(".signatures")).to_be_visible()
        assert page.locator("[data-signature]").count() == 2
        sync_api.expect(page.locator(".paper-conventions")).to_contain_text("Hollywood shift rule: yes")
        page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        page.screenshot(path=f"{SHOTS}/ginscore-print-hollywood.png", full_page=True)
