"""A knockout is made once from an event's standings: the finished event's page offers the form until
then and links to the knockout after; a second request (Back and a second click) is refused saying
which knockout there is, and makes nothing. Its match format is chosen (a best-of-3 final)."""

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Event

from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def test_the_knockout_form_goes_once_the_knockout_is_made_and_a_second_post_makes_nothing():
    people = Officials()
    swiss = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=1)
    services.pair_next_round(actor=people.dir, event=swiss)
    for m in open_matches(swiss, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    director = Client()
    director.force_login(people.director)
    before = director.get(f"/events/{swiss.pk}/").content.decode()
    assert "Create the knockout" in before
    assert '<option value="best_of_3">Best of 3 games</option>' in before
    form = {"top_n": "2", "format": "single_elimination", "match_format": "best_of_3", "once": "first-click"}
    made = director.post(f"/events/{swiss.pk}/knockout/", form)
    final = Event.objects.get(seeded_from=swiss)
    assert made["Location"] == f"/events/{final.pk}/"
    assert (swiss.match_format, final.match_format) == ("single_game", "best_of_3")  # a best-of-3 final
    after = director.get(f"/events/{swiss.pk}/").content.decode()
    assert "Create the knockout" not in after
    assert f'<a href="/events/{final.pk}/">{final.name}</a>' in after
    again = director.post(f"/events/{swiss.pk}/knockout/", {**form, "once": "second-click"}, follow=True)
    assert (f"{swiss.name} already has its knockout, {final.name} (event {final.pk}): a knockout is made once "
            "from an event&#x27;s standings") in again.content.decode()
    assert Event.objects.filter(seeded_from=swiss).count() == 1


def test_the_knockout_keeps_the_events_time_limit_and_rule_unless_its_minutes_are_given():
    people = Officials()
    swiss = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=1, round_minutes=40, time_rule="director")
    services.pair_next_round(actor=people.dir, event=swiss)
    for m in open_matches(swiss, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    director = Client()
    director.force_login(people.director)
    page = director.get(f"/events/{swiss.pk}/").content.decode()
    assert 'name="round_minutes" value="40"' in page  # offered again, for the knockout
    director.post(f"/events/{swiss.pk}/knockout/", {"top_n": "2", "format": "single_elimination",
                                                    "round_minutes": "25", "once": "k"})
    final = Event.objects.get(seeded_from=swiss)
    assert (final.round_minutes, final.time_rule) == (25, "director")
