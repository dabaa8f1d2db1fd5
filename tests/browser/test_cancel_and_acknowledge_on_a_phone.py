"""On a 390 px phone, in a real browser: a director acknowledges a warning with a note (one button per
warning) and cancels the event (its reason and the confirmation), and every page on the way fits the
phone (no sideways swipe), the cancelled event's page included.

Set SCREENSHOTS=/some/dir to keep the phone screenshots for looking at them.
"""

import pytest

from scoring import services as scoring
from tournaments import services
from tournaments.models import Event, WarningAcknowledgement

from ..factories import as_actor, gin, organiser
from ..tournaments.stored import Officials, new_event, open_matches, play_match
from .test_event_night_phone import fits_the_phone, shoot
from .test_referee_phone import phone_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _warned():
    """Round 2 paired from round 1, then a round 1 result corrected: the event page warns."""
    people = Officials()
    event = new_event(people, names=["Annabelle Longname", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    services.pair_next_round(actor=people.dir, event=event)
    game = open_matches(event, 1)[0].match_games.get().game
    loser = next(n for n in game.player_names if n != game.summary["winner"])
    scoring.correct_hand(actor=as_actor(organiser()), game=game, number=1, data=gin(loser, 30), reason="misread")
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=game, number=1)
    people.director.set_password("pw-phone")
    people.director.save()
    return event, people.director.username


def test_a_director_acknowledges_a_warning_and_cancels_the_event_on_a_phone(live_server):
    event, username = _warned()
    with phone_browser() as page:
        page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.pk}/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "pw-phone")
        page.click("button:has-text('Sign in')")
        page.wait_for_url(f"**/events/{event.pk}/")
        page.click("summary:has-text('Cancel the event')")
        assert fits_the_phone(page)
        shoot(page, "event-warning-and-cancel-form")
        page.fill("input[name=note]", "the players agreed to keep round 2")
        page.click("button:has-text('Acknowledge')")
        page.wait_for_selector("text=Warning acknowledged")
        assert fits_the_phone(page)
        page.click("summary:has-text('Cancel the event')")
        page.fill("input[name=reason]", "The hall flooded and the club closed for the night")
        page.check("input[name=confirm]")
        page.click("button:has-text('Cancel Test swiss')")
        page.wait_for_selector("text=Cancelled: The hall flooded")
        assert fits_the_phone(page)
        shoot(page, "event-cancelled")
        for path in ("pairings/", "standings/", "entries/", "rounds/2/"):
            page.goto(f"{live_server.url}/events/{event.pk}/{path}")
            assert fits_the_phone(page), path
    assert Event.objects.get(pk=event.pk).status == "cancelled"
    assert WarningAcknowledgement.objects.get(event=event).note == "the players agreed to keep round 2"
