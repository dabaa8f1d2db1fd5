"""The score sheet and the game's ends on phones 390 and 360 px wide: every side's score on the screen
without a sideways swipe (two, three and four players, long names), a headline of each side's score
toward the target while the game is played (the grand total once settled), and no dead end: a finished
game says who won, by how much and what next; a game the director settled says so; a tournament table
links back to its event and match; /games/ keeps the club's games apart from tournament tables.

Same browser set-up as test_referee_phone (Debian's chromium through Playwright; data prepared before
the browser opens, checked after it closes).
"""

import pytest

from scoring import services
from scoring.models import Game
from tournaments import services as events
from tournaments.models import Entry, Match

from ..factories import as_actor, game, gin, knock, organiser, player, user
from .table import SIZES
from .test_referee_phone import phone_browser, sign_in, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = ("Maximiliana Featherstonehaugh", "Bartholomew Cholmondeley-Smythe", "Wilhelmina Ravenscroft-Hartley",
        "Constantine Montgomery-Whitfield")


def scores_off_screen(page, width):
    """Each side's column (its head, every running total and every total under the pad) that does not
    lie within the screen's width, and whether the sheet's box would need a sideways swipe."""
    return page.evaluate("""(width) => {
        const pad = document.querySelector("table.score-pad");
        const out = [];
        for (const cell of pad.querySelectorAll("th.who, td.score")) {
            const r = cell.getBoundingClientRect();
            if (r.left < 0 || r.right > width) out.push(cell.textContent.trim() + " " + Math.round(r.right));
        }
        const box = pad.closest(".table-scroll");
        if (box.scrollWidth > box.clientWidth) out.push("the sheet scrolls sideways " + box.scrollWidth);
        return out;
    }""", width)


def sheets(org):
    """A game of each size, long names, a few hands each: two players, three (rotation), four (two teams)."""
    two = game(names=LONG[:2], by=org, referees=[org], requires_confirmation=False,
               conventions={"preset": "classic", "target": 1000})
    three = game(names=LONG[:3], fmt="rotation", by=org, referees=[org], requires_confirmation=False,
                 conventions={"preset": "classic", "target": 1000})
    four = game(names=LONG, fmt="partnership", by=org, referees=[org], requires_confirmation=False,
                conventions={"preset": "classic", "partnership_target": 1000})
    for i in range(4):
        services.record_hand(actor=as_actor(org), game=two, data=knock(LONG[i % 2], 3, 95))
        services.record_hand(actor=as_actor(org), game=four, data={"tables": [knock(LONG[0], 3, 95),
                                                                              knock(LONG[1], 4, 30)]})
    services.record_hand(actor=as_actor(org), game=three, data=knock(LONG[1], 3, 95))
    services.record_hand(actor=as_actor(org), game=three, data=knock(LONG[0], 3, 95))
    return {2: two, 3: three, 4: four}


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_players_or_teams_score_is_on_the_screen_for_two_three_and_four_players(live_server, width, height):
    org = organiser()
    games = sheets(org)
    off = {}
    with phone_browser(width, height) as page:
        for players, g in games.items():
            page.goto(f"{live_server.url}/games/{g.pk}/")
            sync_api.expect(page.locator("table.score-pad th.who")).to_have_count(2 if players == 4 else players)
            off[players] = scores_off_screen(page, width)
            if width == 360:
                page.screenshot(path=f"/tmp/ginscore-sheet-{players}.png", full_page=True)
    assert off == {2: [], 3: [], 4: []}


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_headline_is_each_sides_score_toward_the_target_then_the_result_once_settled(live_server, width, height):
    """A game to 100 where the boxes take Ann's grand total past 100 while the game goes on: the headline
    says 85 toward 100, not the grand total 165; once she goes out, who won and by how much."""
    referee = user("phoneref")
    g = game(referees=[referee], requires_confirmation=False)
    for deadwood in (31, 31, 29):  # 25 + 25 + 23 hand points and three boxes (60)
        services.record_hand(actor=as_actor(referee), game=g, data=knock("Ann", 6, deadwood))
    services.record_hand(actor=as_actor(referee), game=g, data=knock("Ann", 2, 14))  # 12 more: 85, and 4 boxes
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        headline = page.locator("[data-headline]")
        sync_api.expect(headline).to_contain_text("Toward 100")
        sync_api.expect(headline).to_contain_text("Ann 85")
        assert "165" not in headline.inner_text()
        assert "Grand total" not in headline.inner_text()
        page.goto(f"{live_server.url}/games/{g.pk}/")
        sync_api.expect(page.locator("[data-headline]")).to_contain_text("Ann 85")
    services.record_hand(actor=as_actor(referee), game=g, data=gin("Ann", 20))
    margin = Game.objects.get(pk=g.pk).summary["margin"]
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        over = page.locator("[data-game-over]")
        sync_api.expect(over.locator("h2")).to_have_text(f"Ann wins by {margin}")
        sync_api.expect(page.locator("[data-headline]")).to_contain_text("Grand total")


def event_with_two_tables():
    """A Swiss of four (Riverside), round 1 paired: tables 1 and 2."""
    boss, director = organiser(), user("phonetd")
    for name, pin in {"Ann": "1111", "Bob": "2222", "Cleo": "3333", "Dev": "4444"}.items():
        player(name, pin=pin, club="Riverside")
    event = events.create_event(actor=as_actor(boss), name="Riverside Swiss", format="swiss", rounds=2,
                                conventions={"preset": "classic", "target": 50}, directors=[director],
                                referees=[user("phoneref")])
    events.add_entries_from_text(actor=as_actor(director), event=event, club="Riverside", text="Ann\nBob\nCleo\nDev")
    events.pair_next_round(actor=as_actor(director), event=event)
    return event, director


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_finished_table_says_who_won_by_how_much_and_leads_back_to_its_match_and_event(live_server, width, height):
    event, _ = event_with_two_tables()
    match = Match.objects.get(event=event, table=1)
    g = match.match_games.get().game
    services.record_hand(actor=as_actor(event.referees.get()), game=g, data=gin(g.player_names[0], 35))
    services.confirm_hand(actor=as_actor(organiser()), game=g, number=1)  # a second official
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        over = page.locator("[data-game-over]")
        sync_api.expect(over.locator("h2")).to_have_text(f"{g.player_names[0]} wins by 275")
        origin = page.locator("p.origin")
        sync_api.expect(origin).to_contain_text("Riverside Swiss")
        sync_api.expect(origin).to_contain_text("Round 1 · Table 1")
        over.locator("a:has-text('Back to the match')").click()
        page.wait_for_url(f"**/events/{event.pk}/matches/{match.pk}/")
        page.goto(f"{live_server.url}/games/{g.pk}/")
        page.locator("p.origin a:has-text('Riverside Swiss')").click()
        page.wait_for_url(f"**/events/{event.pk}/")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_table_settled_by_the_director_says_so_never_abandoned(live_server, width, height):
    event, director = event_with_two_tables()
    match = Match.objects.get(event=event, table=2)
    winner = Entry.objects.get(pk=match.players.order_by("side").first().entry_id)
    events.record_forfeit(actor=as_actor(director), match=match, winner=winner, reason="no show")
    g = match.match_games.get().game
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        over = page.locator("[data-game-over]")
        sync_api.expect(over.locator("h2")).to_have_text("Settled by the director")
        sync_api.expect(over).to_contain_text("no show")
        sync_api.expect(over.locator("a:has-text('Back to the match')")).to_be_visible()
        page.goto(f"{live_server.url}/games/{g.pk}/")
        sync_api.expect(page.locator(".sheet-head .status")).to_have_text("Settled by the director")
        assert "abandoned" not in page.locator("main").inner_text().lower()
        page.goto(f"{live_server.url}/games/?show=events")
        sync_api.expect(page.locator("table.games")).to_contain_text("Settled by the director")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_games_list_keeps_club_games_apart_from_tournament_tables_under_their_event(live_server, width, height):
    event_with_two_tables()
    org = organiser()
    club = game(names=("Gail", "Hugo"), by=org)
    with phone_browser(width, height) as page:
        page.goto(f"{live_server.url}/games/")
        tabs = page.locator("nav.tabs a")
        sync_api.expect(tabs).to_have_text(["Club games (1)", "Tournament tables (2)"])
        rows = page.locator("table.games tbody tr")
        sync_api.expect(rows).to_have_count(1)
        sync_api.expect(rows.first).to_contain_text("Gail v Hugo")
        sync_api.expect(rows.first).to_contain_text(f"Game {club.pk}")
        tabs.nth(1).click()
        sync_api.expect(page.locator("table.games thead th").first).to_have_text("Event")
        sync_api.expect(rows).to_have_count(2)
        cells = [rows.nth(i).locator("td").nth(0).inner_text() + " / " + rows.nth(i).locator("td").nth(1).inner_text()
                 for i in range(2)]
        assert sorted(c.replace("\n", " ") for c in cells) == ["Riverside Swiss / Round 1 · Table 1",
                                                             "Riverside Swiss / Round 1 · Table 2"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
