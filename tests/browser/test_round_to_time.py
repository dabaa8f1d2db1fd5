"""A round played to time in a real browser (issue 24's "done when"): the director starts a short round
clock on the round page, the table's entry page follows a pause and a resume without a reload, counts it
down to "Time" and says to finish the hand; the
hand being played is recorded and accepted by PIN, and the game is settled by the time rule: the side
ahead wins by the difference, "at time", on the table's page and in the standings.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from scoring.models import Game
from tournaments import services
from tournaments.models import Round

from ..factories import as_actor, organiser, player, user
from .table import record_knock
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import phone_browser, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PINS = {"Ann": "1357", "Bob": "2468"}


def _elsewhere(work):
    """Run a database write from another thread: Playwright's event loop holds this one."""
    def run():
        try:
            work()
        finally:
            connection.close()
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()


def _sign_in(page, base, name, path):
    page.goto(f"{base}/accounts/login/?next={path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", f"pw-{name}")
    page.click("button:has-text('Sign in')")
    page.wait_for_url(f"**{path}")


def _accept(page, loser, number):
    sync_api.expect(page.locator(".pending-card")).to_contain_text(f"Hand {number} awaits {loser}")
    page.fill("input[name=pin]", PINS[loser])
    page.click(f"button:has-text('Accept hand {number}')")
    sync_api.expect(page.locator(".messages")).to_contain_text(f"Hand {number} confirmed")


def test_a_round_played_to_time_settles_the_table_by_the_time_rule(live_server):
    director, referee = user("clocktd"), user("clockref")
    for name, pin in PINS.items():
        player(name, pin=pin, club="Riverside")
    event = services.create_event(actor=as_actor(organiser()), name="Timed Swiss", format="swiss", rounds=2,
                                  conventions={"preset": "classic", "target": 100}, round_minutes=1,
                                  directors=[director], referees=[referee])
    services.add_entries_from_text(actor=as_actor(director), event=event, club="Riverside", text="Ann\nBob")
    services.pair_next_round(actor=as_actor(director), event=event)
    game = Game.objects.get(pk=event.matches.get(is_bye=False).match_games.get().game_id)
    first, second = game.player_names
    rnd = Round.objects.get(event=event, number=1)
    base = live_server.url

    with phone_browser() as td:
        _sign_in(td, base, "clocktd", f"/events/{event.pk}/rounds/1/")
        sync_api.expect(td.locator("input[name=minutes]")).to_have_value("1")  # the event's round time
        td.click("button:has-text('Start the clock')")
        sync_api.expect(td.locator(".messages")).to_contain_text("Round 1's clock started")
        sync_api.expect(td.locator("[data-clock-text]")).to_contain_text("left")
        shoot(td, "round-clock-director")

    with phone_browser() as table:
        _sign_in(table, base, "clockref", f"/games/{game.pk}/enter/")
        sync_api.expect(table.locator("[data-clock-text]")).to_contain_text("left")
        record_knock(table, first, 2, 12)  # before time: 10 to the first player
        table.click("button:has-text('Record hand')")
        _accept(table, second, 1)
        # The director pauses the round: the table's phone says so without a reload (its time part is
        # refreshed every 10 s), and stops counting down.
        _elsewhere(lambda: services.run_round_clock(actor=as_actor(director), round=rnd, action="pause"))
        sync_api.expect(table.locator("[data-clock]")).to_have_attribute("data-status", "paused", timeout=20000)
        sync_api.expect(table.locator("[data-clock-text]")).to_contain_text("paused")
        _elsewhere(lambda: services.run_round_clock(actor=as_actor(director), round=rnd, action="resume"))
        sync_api.expect(table.locator("[data-clock]")).to_have_attribute("data-status", "running", timeout=20000)
        # The short limit runs out: the clock is made to end two seconds from now. The phone learns the new
        # end on its next refresh, counts down to "Time", and then asks at once what the table does now.
        _elsewhere(lambda: Round.objects.filter(pk=rnd.pk).update(
            clock_ends_at=timezone.now() + timedelta(seconds=2)))
        sync_api.expect(table.locator("[data-clock-text]")).to_have_text("Time", timeout=20000)
        sync_api.expect(table.locator("#time-note")).to_contain_text("Time: finish this hand and record it",
                                                                     timeout=10000)
        assert fits_the_phone(table)
        shoot(table, "table-at-time")
        record_knock(table, second, 3, 20)  # the hand being played at time: 17 to the second player
        table.click("button:has-text('Record hand')")
        _accept(table, first, 2)
        sync_api.expect(table.locator("[data-game-over]")).to_contain_text(f"{second} wins by 7 at time")
        sync_api.expect(table.locator("[data-game-over]")).to_contain_text("Decided at time, after hand 2")
        shoot(table, "table-settled-at-time")
        table.goto(f"{base}/events/{event.pk}/standings/")
        sync_api.expect(table.locator("table.standings tbody tr").first).to_contain_text(second)

    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.time_hand, game.settled_result) == (Game.Status.COMPLETE, 2, (second, 7))
    assert game.summary["at_time"]["totals"] == {first: 10, second: 17}
