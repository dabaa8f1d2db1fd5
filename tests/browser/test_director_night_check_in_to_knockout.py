"""A director's whole night in a real browser (issue 23's "done when"): a 16-player Swiss from check-in (one
player at the venue's QR code choosing a PIN, one no-show withdrawn as round 1 is paired) through both
rounds, every hand accepted by the loser's PIN at the table (no table waits for a second official), new
table links made while a referee is in the middle of a game (who carries on), the knockout of the top 4
made once, and its bracket played to a champion, the final opening by itself.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import contextlib
import re

import pytest

from core.refusals import Refusal
from scoring.models import Game, Hand
from tournaments import services
from tournaments.models import Entry, Event, MatchGame

from ..factories import as_actor, organiser, player, user
from .table import play
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import CHROMIUM, FLAGS, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu", "Max", "Ned", "Pia",
         "Sam"]
PINS = {name: f"{1000 + 37 * i:04d}" for i, name in enumerate(NAMES) if name != "Pia"}
CHOSEN = {"Pia": "8642"}  # Pia has no PIN: she chooses one at the venue's QR code
NO_SHOW = "Sam"


def _night():
    director = user("nighttd")
    for name in NAMES:
        player(name, pin=PINS.get(name, "") if name != "Pia" else "", club="Riverside")
    event = services.create_event(actor=as_actor(organiser()), name="Thursday Swiss", format="swiss", rounds=2,
                                  conventions={"preset": "classic", "target": 50}, directors=[director],
                                  check_in=True)
    services.add_entries_from_text(actor=as_actor(director), event=event, club="Riverside", text="\n".join(NAMES))
    ids = dict(Entry.objects.filter(event=event).values_list("player__display_name", "pk"))
    return event, ids


@contextlib.contextmanager
def _phones():
    """One browser, a new phone (its own cookies) for each person: ``phone()``."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)

        def phone():
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            page = context.new_page()
            page.set_default_timeout(15000)
            return page

        yield phone
        browser.close()


def _players(page) -> tuple[str, str]:
    return re.search(r"(\S+) v (\S+)", page.locator("h1").inner_text()).groups()


def _sign_in(page, base, path):
    page.goto(f"{base}/accounts/login/?next={path}")
    page.fill("input[name=username]", "nighttd")
    page.fill("input[name=password]", "pw-nighttd")
    page.click("button:has-text('Sign in')")
    page.wait_for_url(f"**{path}")


def _cards(page) -> list[tuple[str, str]]:
    """(players, table link) of every table card the sheet shows a link on."""
    cards = []
    for card in page.locator(".print-card").all():
        if card.locator("code").count():
            cards.append((card.locator(".card-players").inner_text(), card.locator("code").first.inner_text()))
    return cards


def _play_game(page, link: str, *, first_hand_deadwood: int | None = None) -> str:
    """Open a table's link and play its game: the first named player goes gin, the other accepts each hand
    with their PIN. Returns the winner's name. ``first_hand_deadwood``: stop after one hand that does not
    end the game (the table is then in the middle of its game)."""
    page.goto(link)
    page.wait_for_url("**/games/*/enter/")
    winner, loser = _players(page)
    deadwoods = [first_hand_deadwood] if first_hand_deadwood is not None else [35]
    for number, deadwood in enumerate(deadwoods, start=1):
        _hand(page, winner, loser, deadwood, number)
    return winner


def _hand(page, winner: str, loser: str, deadwood: int, number: int) -> None:
    play(page, "gin", winner).click()
    page.fill("input[name=opponent_deadwood]", str(deadwood))
    page.click("button:has-text('Record hand')")
    sync_api.expect(page.locator(".pending-card")).to_contain_text(f"Hand {number} awaits {loser}")
    page.fill("input[name=pin]", PINS.get(loser) or CHOSEN[loser])
    page.click(f"button:has-text('Accept hand {number}')")
    sync_api.expect(page.locator(".messages")).to_contain_text(f"Hand {number} confirmed")


def test_a_sixteen_player_swiss_from_check_in_to_its_knockout(live_server):
    event, ids = _night()
    base = live_server.url
    at_venue = [n for n in NAMES if n not in ("Pia", NO_SHOW)]

    with _phones() as phone:
        director = phone()
        _sign_in(director, base, f"/events/{event.pk}/check-in/")
        sync_api.expect(director.locator("h2#check-in-title")).to_have_text("Check-in: 0 of 16 here")
        for name in at_venue:  # one tap each at the door
            director.locator(f"#entry-{ids[name]} button:has-text('Check in')").click()
            sync_api.expect(director.locator(f"#entry-{ids[name]}")).to_contain_text("by a director")
        assert fits_the_phone(director)
        shoot(director, "check-in-directors-list")
        venue_url = director.locator(".venue-url a").inner_text()

        pia = phone()  # Pia scans the venue's QR code
        pia.goto(venue_url)
        pia.select_option("select[name=entry]", str(ids["Pia"]))
        pia.click("button:has-text('Next')")
        sync_api.expect(pia.locator("form")).to_contain_text("You have no PIN yet")
        pia.fill("input[name=new_pin]", CHOSEN["Pia"])
        pia.fill("input[name=new_pin_again]", CHOSEN["Pia"])
        assert fits_the_phone(pia)
        shoot(pia, "check-in-at-the-venue")
        pia.click("button:has-text('Check in')")
        sync_api.expect(pia.locator("#checked-in")).to_have_text("Pia, you are checked in.")

        director.goto(f"{base}/events/{event.pk}/")
        sync_api.expect(director.locator("#check-in-status")).to_contain_text(f"15 of 16 here; not here: {NO_SHOW}")
        assert director.locator("#no-pin").count() == 0  # everyone still in has a PIN now
        shoot(director, "event-page-check-in")
        director.click("button:has-text('Pair round 1 (15 checked in)')")
        sync_api.expect(director.locator(".messages")).to_contain_text(f"1 not checked in: {NO_SHOW}.")
        director.check("input[name=withdraw_absent]")
        director.click("button:has-text('Pair round 1 (15 checked in)')")
        director.wait_for_url("**/sheet/?round=1")
        round_1 = _cards(director)
        assert len(round_1) == 7  # 15 players: 7 tables and a bye

        tables = phone()
        for _, link in round_1:
            _play_game(tables, link)

        director.goto(f"{base}/events/{event.pk}/")
        director.click("button:has-text('Pair round 2')")
        director.wait_for_url("**/sheet/?round=2")
        round_2 = _cards(director)
        assert len(round_2) == 7
        # Table 1 is in the middle of its game (one hand, 25 + 5 = 30 of 50)...
        busy = phone()
        winner = _play_game(busy, round_2[0][1], first_hand_deadwood=5)
        # ...while the director makes new links for the tables not started.
        director.goto(f"{base}/events/{event.pk}/sheet/?round=2")
        director.click("button:has-text('Make new table links and show them')")
        sync_api.expect(director.locator(".messages")).to_contain_text("New table links made")
        fresh = _cards(director)
        assert len(fresh) == 6
        assert round_2[0][1] not in [link for _, link in fresh]
        busy.reload()  # table 1's referee carries on with the link on the card printed before
        loser = next(name for name in _players(busy) if name != winner)
        _hand(busy, winner, loser, 35, 2)
        for _, link in fresh:
            _play_game(tables, link)

        director.goto(f"{base}/events/{event.pk}/")
        director.fill("input[name=top_n]", "4")
        director.click("button:has-text('Create the knockout')")
        director.wait_for_url(lambda url: re.search(r"/events/(\d+)/$", url) is not None
                              and not url.endswith(f"/events/{event.pk}/"))
        knockout_url = director.url
        director.go_back()
        director.reload()
        assert director.locator("button:has-text('Create the knockout')").count() == 0  # made once
        sync_api.expect(director.locator("body")).to_contain_text("top 4")
        director.goto(knockout_url)
        director.click("button:has-text('Start the bracket')")
        director.wait_for_url("**/sheet/")
        semis = _cards(director)
        assert len(semis) == 2
        for _, link in semis:
            _play_game(tables, link)

        # The final opened by itself: the event page counts its card to print, made on Cards to print.
        director.goto(knockout_url)
        director.click("#cards-to-print a")
        director.click("button:has-text('Make their links and show the cards')")
        (final,) = _cards(director)
        champion = _play_game(tables, final[1])
        anyone = phone()
        anyone.goto(knockout_url)
        sync_api.expect(anyone.locator(".champion")).to_contain_text(champion)
        assert fits_the_phone(anyone)
        shoot(anyone, "knockout-champion")

    swiss = Event.objects.get(pk=event.pk)
    knockout = Event.objects.get(seeded_from=swiss)
    assert (swiss.status, knockout.status) == (Event.Status.COMPLETE, Event.Status.COMPLETE)
    sam = Entry.objects.get(event=swiss, player__display_name=NO_SHOW)
    assert (sam.dropped_after_round, sam.drop_reason) == (0, "did not check in")
    pia = Entry.objects.get(event=swiss, player__display_name="Pia")
    assert pia.checked_in_how == Entry.CheckIn.VENUE_QR
    games = Game.objects.filter(pk__in=MatchGame.objects.filter(match__event__in=[swiss, knockout])
                                .values("game_id"))
    assert games.count() == 17
    assert all(g.status == Game.Status.COMPLETE for g in games)
    hands = Hand.objects.filter(game__in=games)
    assert hands.count() == 18
    # No table waited for a second official: every hand was accepted by its loser's PIN.
    assert not hands.filter(confirmed_by_player__isnull=True).exists()
    with pytest.raises(Refusal):
        services.create_knockout_from_standings(actor=as_actor(swiss.directors.get()), source_event=swiss, top_n=4)
    assert Event.objects.filter(seeded_from=swiss).count() == 1
