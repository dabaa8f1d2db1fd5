""""Find a name" on a phone: the directors' check-in list (both lists narrow as it is typed, accents and case
aside; checking a player in brings the page back at the next name still missing) and the ratings."""

import pytest

from tournaments import services

from ..factories import as_actor, organiser, user
from .test_referee_phone import phone_browser, sync_api
from .test_round_to_time import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_find_a_name_and_check_in_without_losing_the_place(live_server):
    director = user("checktd")
    event = services.create_event(actor=as_actor(organiser()), name="Door Swiss", format="swiss", rounds=2,
                                  check_in=True, directors=[director])
    services.add_entries_from_text(actor=as_actor(director), event=event,
                                   text="Ann\nBob\nCleo\nDev\nPétur\nZed")
    cleo = event.entries.get(player__display_name="Cleo").pk
    with phone_browser() as page:
        _sign_in(page, live_server.url, "checktd", f"/events/{event.pk}/check-in/")
        find = page.locator("#find-name")
        find.fill("petur")
        visible = page.locator(".check-in-list li[id]:visible .name")
        sync_api.expect(visible).to_have_text(["Pétur"])
        find.fill("")
        sync_api.expect(visible).to_have_count(6)
        page.locator("li:has-text('Bob') button:has-text('Check in')").click()
        page.wait_for_url("**#entry-*")
        assert page.url.endswith(f"#entry-{cleo}")
        sync_api.expect(page.locator("#check-in-title")).to_contain_text("1 of 6 here")


def test_find_a_name_on_the_ratings(live_server):
    from ratings.services import recompute_ratings
    from scoring import services as scoring

    from ..factories import gin, player

    boss = organiser()
    for winner, loser in (("Pétur", "Ann"), ("Bob", "Cleo")):
        g = scoring.create_game(actor=as_actor(boss), format="standard", players=[player(winner), player(loser)],
                                conventions={"preset": "classic", "target": 50}, requires_confirmation=False)
        scoring.record_hand(actor=as_actor(boss), game=g, data=gin(winner, 30))
    recompute_ratings()
    with phone_browser() as page:
        page.goto(f"{live_server.url}/ratings/")
        page.locator("#find-name").fill("PETUR")
        sync_api.expect(page.locator("table.ratings tbody tr:visible a")).to_have_text(["Pétur"])
