"""The words and first columns people read on a phone, 390 and 360 px wide: the standings start with
rank, name and match points, then the tiebreaks in the event's order; the standings search ignores
accents ("petur" finds "Pétur"); the pairings page shows the round asked for (?round=N); a bracket
started says "2 bracket matches paired"; the card picker says what is still to tap, never "required".

Same browser set-up as test_referee_phone (Debian's chromium through Playwright; data prepared before
the browser opens, checked after it closes).
"""

import pytest

from tournaments import services as events
from tournaments.models import Event

from ..factories import as_actor, game, organiser, player, user
from ..tournaments.stored import play_match
from .table import SIZES, play
from .test_referee_phone import phone_browser, sign_in, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Pétur Þórðarson-Featherstonehaugh", "Ann", "Bartholomew Cholmondeley-Smythe", "Dev"]


class People:
    def __init__(self):
        self.organiser = organiser()
        self.director = user("phonetd")
        self.recorder = user()
        self.confirmer = user()

    @property
    def boss(self):
        return as_actor(self.organiser)

    @property
    def dir(self):
        return as_actor(self.director)


def swiss_after_round_one(people):
    """Four entries (long names, one with accents), tiebreaks in a chosen order, round 1 played, round 2 paired."""
    for name in NAMES:
        player(name, club="Riverside")
    event = events.create_event(actor=people.boss, name="Accents Swiss", format="swiss", rounds=3,
                                tiebreaks=["wins", "buchholz", "margin"],
                                conventions={"preset": "classic", "target": 50},
                                directors=[people.director], referees=[people.recorder, people.confirmer])
    events.add_entries_from_text(actor=people.dir, event=event, club="Riverside", text="\n".join(NAMES))
    events.pair_next_round(actor=people.dir, event=event)
    for match in event.matches.filter(is_bye=False):
        winner = min(mp.entry.player.display_name for mp in match.players.select_related("entry__player"))
        play_match(people, match, winner)
    events.pair_next_round(actor=people.dir, event=event)
    return event


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_standings_start_with_rank_name_and_match_points_then_the_tiebreaks_in_order(live_server, width, height):
    event = swiss_after_round_one(People())
    with phone_browser(width, height) as page:
        page.goto(f"{live_server.url}/events/{event.pk}/standings/")
        heads = page.locator("table.standings thead th")
        assert heads.all_inner_texts()[:6] == ["#", "Entry", "MP", "Wins", "Buchholz", "Margin"]
        off = page.evaluate("""(width) => [...document.querySelectorAll("table.standings tr")].flatMap(row =>
            [...row.children].slice(0, 3).filter(c => c.getBoundingClientRect().right > width)
                .map(c => c.textContent.trim()))""", width)
        assert off == []  # rank, name and match points on the screen, long names and all
        page.fill("input[name=q]", "petur")
        page.click("button:has-text('Show')")
        rows = page.locator("table.standings tbody tr")
        sync_api.expect(rows).to_have_count(1)
        sync_api.expect(rows.first).to_contain_text("Pétur Þórðarson-Featherstonehaugh")
        page.fill("input[name=q]", "THORDARSON")  # Þ and ð as a keyboard without them writes them
        page.click("button:has-text('Show')")
        sync_api.expect(rows).to_have_count(1)
        sync_api.expect(rows.first).to_contain_text("Pétur Þórðarson-Featherstonehaugh")
        page.fill("input[name=q]", "petra")
        page.click("button:has-text('Show')")
        sync_api.expect(page.locator("main")).to_contain_text("No entry matches “petra”")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_pairings_page_shows_the_round_asked_for(live_server, width, height):
    event = swiss_after_round_one(People())
    round_one = {m.table: m for m in event.matches.filter(round__number=1, is_bye=False)}
    with phone_browser(width, height) as page:
        page.goto(f"{live_server.url}/events/{event.pk}/pairings/")
        sync_api.expect(page.locator("#live h2")).to_have_text("Round 2 of 3")
        page.goto(f"{live_server.url}/events/{event.pk}/pairings/?round=1")
        sync_api.expect(page.locator("#live h2")).to_have_text("Round 1 of 3")
        sync_api.expect(page.locator("[data-past-round]")).to_contain_text("round 2 is the round now")
        sync_api.expect(page.locator(".pairing")).to_have_count(len(round_one))
        sync_api.expect(page.locator(".pairing").first).to_contain_text("won by")
        page.locator("nav.rounds a:has-text('Round 2')").click()
        sync_api.expect(page.locator("#live h2")).to_have_text("Round 2 of 3")
        page.goto(f"{live_server.url}/events/{event.pk}/pairings/?round=9")  # not paired: the round now
        sync_api.expect(page.locator("#live h2")).to_have_text("Round 2 of 3")
        assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_starting_a_bracket_says_how_many_matches_in_words(live_server, width, height):
    people = People()
    for name in NAMES:
        player(name, club="Riverside")
    event = events.create_event(actor=people.boss, name="Cup", format=Event.Format.SINGLE_ELIMINATION,
                                directors=[people.director])
    events.add_entries_from_text(actor=people.dir, event=event, club="Riverside", text="\n".join(NAMES))
    with phone_browser(width, height) as page:
        page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.pk}/")
        page.fill("input[name=username]", "phonetd")
        page.fill("input[name=password]", "pw-phonetd")
        page.click("button:has-text('Sign in')")
        page.click("button:has-text('Start the bracket')")
        messages = page.locator(".messages")
        sync_api.expect(messages).to_contain_text("2 bracket matches paired")
        assert "(es)" not in messages.inner_text()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_card_picker_says_what_is_left_to_tap_never_required(live_server, width, height):
    referee = user("phoneref")
    g = game(referees=[referee])
    knocker = ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "KD"]
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        play(page, "knock", "Ann").click()
        page.click("summary:has-text('Or enter the cards')")
        preview = page.locator("#preview")
        for card in knocker[:9]:
            page.click(f"[data-picker] button[data-card='{card}']")
        sync_api.expect(preview).to_have_text("Tap the knocker's cards: 9 of 10.")
        page.click("[data-picker] button[data-card='KD']")
        # the knocker's ten are in: the next taps are the opponent's, and nothing is "required" yet
        sync_api.expect(preview).to_have_text("Now tap the opponent's cards: 0 of 10 (or type their deadwood).")
        for card in ("2D", "3D", "4D"):
            page.click(f"[data-picker] button[data-card='{card}']")
        sync_api.expect(preview).to_have_text("Now tap the opponent's cards: 3 of 10 (or type their deadwood).")
        assert "required" not in page.locator("#hand-form").inner_text()
        for card in ("5D", "6D", "7D", "TC", "JC", "QC", "KC"):
            page.click(f"[data-picker] button[data-card='{card}']")
        sync_api.expect(preview).to_contain_text("Ann knocks with 10")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_round_sheet_with_long_names_stays_inside_a_phone(live_server, width, height):
    people = People()
    event = swiss_after_round_one(people)
    with phone_browser(width, height) as page:
        page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.pk}/sheet/%3Fround%3D2")
        page.fill("input[name=username]", "phonetd")
        page.fill("input[name=password]", "pw-phonetd")
        page.click("button:has-text('Sign in')")
        page.wait_for_url(f"**/events/{event.pk}/sheet/?round=2")
        sync_api.expect(page.locator("table.pairings-print")).to_contain_text("Þórðarson-Featherstonehaugh")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        box = page.locator("input[name=started_too]").bounding_box()
        assert box["width"] > 10  # a tick box to tick, as its help says: not a button-like toggle
