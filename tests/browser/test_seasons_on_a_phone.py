"""A season's ladder and a player's season on a 390 px phone: every column on the screen, no sideways swipe,
long names wrapping, and the ladder's rows linking to each player's season (placings, nights, head-to-head).

Same browser set-up as test_referee_phone. Set SCREENSHOTS=/some/dir to keep the phone screenshots.
"""

import os

import pytest

from scoring.models import Player
from seasons import services

from ..factories import as_actor, organiser
from ..seasons.stored import club_game, day, round_robin
from .test_referee_phone import phone_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = ["Maximiliana Featherstonehaugh", "Bartholomew Cholmondeley-Smythe", "Wilhelmina Ravenscroft-Hartley",
        "Constantine Montgomery-Whitfield"]

SWIPE = """() => ({scroll: document.documentElement.scrollWidth, width: window.innerWidth,
    off: [...document.querySelectorAll("table.ladder td, table.ladder th")]
        .filter(c => c.getBoundingClientRect().right > window.innerWidth + 0.5).map(c => c.textContent.trim())})"""


def shot(page, name):
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def test_the_ladder_and_a_players_season_fit_a_phone_without_a_sideways_swipe(live_server):
    for days_ago in (3, 2, 1):
        club_game(LONG[0], LONG[2], days_ago=days_ago)
    club_game(LONG[1], LONG[3], days_ago=2)
    round_robin(LONG)
    season = services.create_season(actor=as_actor(organiser()), name="Spring league", starts_on=day(-30),
                                    ends_on=day(30), best_nights=2)
    first = Player.objects.get(display_name=LONG[0])
    with phone_browser() as page:
        page.goto(f"{live_server.url}/seasons/")
        page.click("text=Spring league")
        page.wait_for_url(f"**/seasons/{season.pk}/")
        ladder = page.evaluate("() => [...document.querySelectorAll('table.ladder tbody tr')].map("
                               "r => [...r.cells].map(c => c.textContent.trim()))")
        fits = page.evaluate(SWIPE)
        shot(page, "phone-season-ladder.png")
        page.click(f"table.ladder >> text={LONG[0]}")
        page.wait_for_url(f"**/seasons/{season.pk}/players/{first.pk}/")
        headline = page.text_content("p.headline")
        fits_player = page.evaluate(SWIPE)
        shot(page, "phone-season-player.png")
    # 10 + 2 nights; 7 + 1; 5 + 2; 4 + 1: the table's default points (10, 7, 5, 4, 3, 2) and 1 a night.
    assert ladder == [["1", f"{LONG[0]}1 event, 2 nights counted", "12"],
                      ["2", f"{LONG[1]}1 event, 1 night counted", "8"],
                      ["3", f"{LONG[2]}1 event, 2 nights counted", "7"],
                      ["4", f"{LONG[3]}1 event, 1 night counted", "5"]]
    assert fits == {"scroll": 390, "width": 390, "off": []}
    assert " ".join(headline.split()) == "Place 1 of 4 with 12 points (10 from events, 2 from club nights)."
    assert fits_player == {"scroll": 390, "width": 390, "off": []}
