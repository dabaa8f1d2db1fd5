"""The table on a phone (390x844, and 360 px wide for the width check): accepting with the hand read
back, Back then Record, fixing the last hand, and no page wider than the screen (every format's sheet
and entry page among them).

Same browser set-up as test_referee_phone (Debian's chromium through Playwright; data prepared
before the browser opens, checked after it closes).
"""

import os

import pytest

from scoring import services
from scoring.models import Hand

from ..factories import as_actor, game, knock, organiser, user
from .table import key, record_knock
from .test_referee_phone import phone_browser, sign_in, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("BROWSER_SCREENSHOT_DIR", "/tmp")


def record(page, knocker, knocker_deadwood, opponent_deadwood):
    record_knock(page, knocker, knocker_deadwood, opponent_deadwood)


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
        assert page.locator("#hand-form input[name=play]:checked").count() == 0
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
        # refused in the server's words, on the phone's outbox, which keeps it for the referee to discard
        refused = page.locator("#outbox li.refused")
        sync_api.expect(refused).to_contain_text("hand 1 is already recorded")
        sync_api.expect(refused).to_contain_text("Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)")
    assert [h.data["knocker"] for h in Hand.objects.filter(game=g)] == ["Ann"]


def test_accepting_reads_the_hand_back_first_and_offers_only_the_player_it_goes_against(live_server):
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        record(page, "Bob", 8, 8)
        sync_api.expect(page.locator("#preview")).to_contain_text(
            "Bob knocks with 8, Ann has 8: undercut, Ann scores 10 (+1 box)")
        page.screenshot(path=f"{SHOTS}/ginscore-phone-entry.png", full_page=True)
        page.click("button:has-text('Record hand 1')")
        card = page.locator(".pending-card")
        sync_api.expect(card.locator("[data-readback]")).to_have_text(
            "Bob knocks with 8, Ann has 8: undercut, Ann scores 10 (+1 box)")
        # Ann won (Bob was undercut): only Bob is offered, named beside the PIN box; no "second
        # official" button for the referee who entered it
        sync_api.expect(card.locator("h2")).to_have_text("Hand 1 awaits Bob")
        sync_api.expect(card.locator("label:has-text(\"Bob's PIN\")")).to_be_visible()
        assert card.locator("input[name=player]").get_attribute("value") == "Bob"
        assert card.locator("text=second official").count() == 0
        box = card.locator("input[name=pin]").bounding_box()
        assert box["height"] >= 44
        page.screenshot(path=f"{SHOTS}/ginscore-phone-accept.png", full_page=True)
        page.fill("input[name=pin]", "2222")
        page.click("button:has-text('Accept hand 1')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 confirmed")
        sync_api.expect(page.locator(".totals-line")).to_contain_text("Ann 10")  # toward 100 (the box is not)
    assert Hand.objects.get(game=g).confirmed_by_player.display_name == "Bob"


def test_fix_last_hand_corrects_a_pending_hand_from_the_entry_page(live_server):
    referee = user("phoneref")
    g = game(referees=[referee])
    services.record_hand(actor=as_actor(referee), game=g, data=knock("Ann", 6, 19))
    with phone_browser() as page:
        sign_in(page, live_server.url, g.pk)
        page.click("text=Fix last hand")
        page.wait_for_url(f"**/games/{g.pk}/hands/1/correct/")
        sync_api.expect(page.locator(".readback")).to_contain_text("Ann knocks with 6, Bob has 19")
        key(page, 4).click()
        sync_api.expect(page.locator("#preview")).to_contain_text("Ann knocks with 4, Bob has 19: Ann scores 15")
        page.fill("input[name=reason]", "recount")
        page.click("button:has-text('Save correction')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 corrected")
    current = Hand.objects.get(game=g, is_current=True)
    assert (current.version, current.data["knocker_deadwood"]) == (2, 4)


def every_page(g, link_pk, formats=()):
    base = f"/games/{g.pk}"
    pages = ["/", "/games/", "/games/new/", "/players/new/", f"{base}/", f"{base}/enter/",
             f"{base}/hands/1/correct/", f"{base}/history/", f"{base}/links/", "/calculator/", "/r/"]
    for other in formats:  # the other formats' sheet, entry page (a deal's two tables) and correction
        pages += [f"/games/{other.pk}/", f"/games/{other.pk}/enter/", f"/games/{other.pk}/hands/1/correct/"]
    return pages


def other_formats(org):
    """A Hollywood match (the paper pad), a partnership with a deal awaiting acceptance (the deal's
    accept card and the next deal's two tables) and a rotation game, all with long names."""
    long_names = ("Maximiliana Featherstonehaugh", "Bartholomew Cholmondeley-Smythe",
                  "Wilhelmina Ravenscroft-Hartley", "Constantine Montgomery-Whitfield")
    a, b, c, d = long_names
    hollywood = game(names=(a, b), fmt="hollywood", by=org, referees=[org], requires_confirmation=False)
    for i in range(5):
        services.record_hand(actor=as_actor(org), game=hollywood, data=knock((a, b)[i % 2], 2, 40))
    partnership = game(names=long_names, fmt="partnership", by=org, referees=[org])
    services.record_hand(actor=as_actor(org), game=partnership,
                         data={"tables": [knock(a, 3, 25), knock(d, 4, 30)]})
    rotation = game(names=(a, b, c), fmt="rotation", by=org, referees=[org])
    services.record_hand(actor=as_actor(org), game=rotation, data=knock(b, 3, 25))
    return [hollywood, partnership, rotation]


@pytest.mark.parametrize("width", [390, 360])
def test_no_page_of_the_scoring_app_is_wider_than_a_phone(live_server, width):
    """Every page, signed in as the organiser (the longest menu), with a game of long names and many
    hands; the sign-in page signed out. A wide table may scroll inside its own box, never the page."""
    org = organiser("organiser-with-a-long-name")
    names = ("Maximiliana Featherstonehaugh", "Bartholomew Cholmondeley-Smythe")
    g = game(names=names, by=org, referees=[org], conventions={"preset": "classic", "target": 1000})
    for i in range(12):
        services.record_hand(actor=as_actor(org), game=g, data=knock(names[i % 2], 3, 25))
        if i < 11:
            services.confirm_hand(actor=as_actor(organiser()), game=g, number=i + 1)
    link = services.create_referee_link(actor=as_actor(org), game=g, label="Table phone")
    formats = other_formats(org)
    wide = []
    with phone_browser(width=width) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        wide += overflow(page, "/accounts/login/", width)
        page.fill("input[name=username]", "organiser-with-a-long-name")
        page.fill("input[name=password]", "pw-organiser-with-a-long-name")
        page.click("button:has-text('Sign in')")
        page.wait_for_url("**/")
        for path in every_page(g, link.pk, formats):
            page.goto(f"{live_server.url}{path}")
            wide += overflow(page, path, width)
        if width == 390:
            page.goto(f"{live_server.url}/games/{g.pk}/")
            page.screenshot(path=f"{SHOTS}/ginscore-phone-sheet.png", full_page=True)
    assert wide == []


def overflow(page, path, width):
    """The page's width beyond the viewport, and the elements that stick out (not inside a scroll box)."""
    page.wait_for_load_state()
    found = page.evaluate("""(width) => {
        const out = [];
        if (document.documentElement.scrollWidth > width) out.push("page " + document.documentElement.scrollWidth);
        for (const el of document.querySelectorAll("body *")) {
            if (el.closest(".table-scroll") || el.closest("[hidden]")) continue;
            const r = el.getBoundingClientRect();
            if (r.width && r.right > width + 1) out.push(el.tagName + "." + el.className + " " + Math.round(r.right));
        }
        return out.slice(0, 5);
    }""", width)
    return [f"{path}: {item}" for item in found]
