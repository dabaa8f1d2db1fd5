"""A tournament night on phones, in a real browser: the director pairs round 1, a referee opens the
table's link from the printed round sheet and records the game, the loser accepts it with their PIN,
and the standings page shows the result. Every event page fits a 390 px phone.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import os
from pathlib import Path

import pytest

from scoring.models import Game
from tournaments import services
from tournaments.models import Entry, Event

from ..factories import as_actor, organiser, player, user
from .table import play
from .test_referee_phone import phone_browser, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PINS = {"Ann": "1111", "Bob": "2222", "Cleo": "3333", "Dev": "4444"}


def shoot(page, name):
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def fits_the_phone(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _event():
    boss, director = organiser(), user("phonetd")
    for name, pin in PINS.items():
        player(name, pin=pin, club="Riverside")
    event = services.create_event(actor=as_actor(boss), name="Phone Swiss", format="swiss", rounds=2,
                                  conventions={"preset": "classic", "target": 50}, directors=[director])
    services.add_entries_from_text(actor=as_actor(director), event=event, club="Riverside", text="\n".join(PINS))
    services.seed_entries(actor=as_actor(director), event=event, method="manual",
                          order=[Entry.objects.get(event=event, player__display_name=n).pk for n in PINS])
    return event


def test_the_director_pairs_a_referee_records_through_the_table_link_and_the_standings_follow(live_server):
    event = _event()
    base = f"{live_server.url}/events/{event.pk}"
    with phone_browser() as director:
        director.goto(f"{live_server.url}/accounts/login/?next=/events/{event.pk}/")
        director.fill("input[name=username]", "phonetd")
        director.fill("input[name=password]", "pw-phonetd")
        director.click("button:has-text('Sign in')")
        director.wait_for_url(f"**/events/{event.pk}/")
        assert fits_the_phone(director)
        shoot(director, "event-page-director")
        director.locator("button:has-text('Pair round 1')").dblclick()  # a double tap pairs once
        director.wait_for_url("**/sheet/?round=1")
        sync_api.expect(director.locator(".messages")).to_contain_text("Round 1 paired")
        cards = director.locator(".print-card")
        sync_api.expect(cards).to_have_count(2)
        sync_api.expect(cards.first).to_contain_text("Table 1")
        sync_api.expect(cards.first).to_contain_text("Ann v Cleo")
        assert cards.first.locator("svg").count() == 1  # the QR code, shown this once
        table_link = cards.first.locator("code").inner_text()
        assert fits_the_phone(director)
        shoot(director, "round-sheet")

    with phone_browser() as referee:
        referee.goto(table_link)  # what scanning the table card's QR code opens
        referee.wait_for_url("**/games/*/enter/")
        sync_api.expect(referee.locator("h1")).to_contain_text("Ann v Cleo")
        play(referee, "gin", "Cleo").click()
        referee.fill("input[name=opponent_deadwood]", "35")
        sync_api.expect(referee.locator("#preview")).to_contain_text("Cleo scores 55")
        referee.click("button:has-text('Record hand')")
        sync_api.expect(referee.locator(".pending-card")).to_contain_text("Hand 1 awaits Ann")
        referee.fill("input[name=pin]", PINS["Ann"])
        referee.click("button:has-text('Accept hand 1')")
        sync_api.expect(referee.locator(".messages")).to_contain_text("Hand 1 confirmed")
        shoot(referee, "table-game-complete")

    with phone_browser() as anyone:
        anyone.goto(f"{base}/standings/")
        table = anyone.locator("table.standings")
        sync_api.expect(table.locator("tbody tr").first).to_contain_text("Cleo")
        sync_api.expect(table.locator("tbody tr").first).to_contain_text("1-0-0")
        assert fits_the_phone(anyone)
        shoot(anyone, "standings-phone")
        anyone.goto(f"{base}/pairings/")
        sync_api.expect(anyone.locator(".pairing").first).to_contain_text("Cleo won by")
        assert fits_the_phone(anyone)
        shoot(anyone, "pairings-phone")

    game = Game.objects.get(pk=Event.objects.get(pk=event.pk).matches.get(table=1).match_games.get().game_id)
    assert game.settled_result == ("Cleo", 55 + 20 + 100 + 100)
    assert game.hands.get().confirmed_by_player.display_name == "Ann"
    assert Event.objects.get(pk=event.pk).event_rounds.count() == 1


def test_no_event_page_is_wider_than_a_phone(live_server):
    event = _event()
    services.pair_next_round(actor=as_actor(event.directors.get()), event=event)
    knockout = services.create_event(actor=as_actor(organiser()), name="Phone Cup", format="double_elimination",
                                     directors=list(event.directors.all()))
    services.add_entries_from_text(actor=as_actor(event.directors.get()), event=knockout, club="Riverside",
                                   text="\n".join(PINS))
    services.pair_next_round(actor=as_actor(event.directors.get()), event=knockout)
    match = event.matches.filter(is_bye=False).first()
    paths = ["/events/", f"/events/{event.pk}/", f"/events/{event.pk}/pairings/", f"/events/{event.pk}/standings/",
             f"/events/{event.pk}/entries/", f"/events/{event.pk}/rounds/1/", f"/events/{event.pk}/matches/{match.pk}/",
             f"/events/{knockout.pk}/bracket/", f"/events/{knockout.pk}/", "/events/calculator/"]
    with phone_browser() as page:
        wide = []
        for path in paths:
            page.goto(live_server.url + path)
            if not fits_the_phone(page):
                wide.append(path)
        assert wide == []
