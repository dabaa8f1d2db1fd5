"""A season's ladder from stored club games and events, worked by hand: what counts (club, events, both),
the season's days, best N of M nights, shared places, a director's correction moving a placement, private
games and events never counting, head-to-head, and pages whose query count does not grow."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.refusals import Refusal
from scoring.models import Player
from seasons import selectors, services
from seasons.models import Season
from tournaments import selectors as event_selectors
from tournaments import services as event_services
from tournaments.models import Match

from ..factories import as_actor, organiser
from ..tournaments.stored import entry, open_matches, play_match
from .stored import club_game, day, round_robin

pytestmark = pytest.mark.django_db


def season(counts="both", *, first=-30, last=30, best_nights=2, name="Spring"):
    return services.create_season(actor=as_actor(organiser()), name=name, starts_on=day(first), ends_on=day(last),
                                  counts=counts, placement_points=[10, 7, 5, 4], finisher_points=1, night_points=1,
                                  best_nights=best_nights)


def rows(s):
    return [(r["place"], r["name"], r["points"], r["placement_points"], r["night_points"], r["events"], r["nights"])
            for r in selectors.ladder_rows(selectors.season_ladder(s))]


@pytest.fixture
def club_and_event():
    """Ann beats Cleo on three nights, Eve beats Bob on one; a round robin Ann > Bob > Cleo > Dev today; and
    what never counts: a game 40 days back, a private game, a game still being played, a private event."""
    for days_ago in (3, 2, 1):
        club_game("Ann", "Cleo", days_ago=days_ago)
    club_game("Eve", "Bob", days_ago=2)
    club_game("Dev", "Bob", days_ago=40)
    club_game("Dev", "Ann", days_ago=2, is_public=False)
    club_game("Dev", "Eve", days_ago=2, finished=False)
    event, people = round_robin(["Ann", "Bob", "Cleo", "Dev"])
    round_robin(["Dev", "Cleo", "Bob", "Ann"], is_public=False)
    return event, people


def test_both_counted_best_two_of_three_nights(club_and_event):
    # Ann 10 + 2 of her 3 nights; Bob 7 + 1; Cleo 5 + 2; Dev 4; Eve 1 night.
    assert rows(season("both")) == [
        (1, "Ann", 12, 10, 2, 1, 2), (2, "Bob", 8, 7, 1, 1, 1), (3, "Cleo", 7, 5, 2, 1, 2),
        (4, "Dev", 4, 4, 0, 1, 0), (5, "Eve", 1, 0, 1, 0, 1)]


def test_club_nights_only_and_equal_points_share_a_place(club_and_event):
    assert rows(season("club")) == [
        (1, "Ann", 2, 0, 2, 0, 2), (1, "Cleo", 2, 0, 2, 0, 2), (3, "Bob", 1, 0, 1, 0, 1), (3, "Eve", 1, 0, 1, 0, 1)]


def test_events_only(club_and_event):
    assert rows(season("events")) == [
        (1, "Ann", 10, 10, 0, 1, 0), (2, "Bob", 7, 7, 0, 1, 0), (3, "Cleo", 5, 5, 0, 1, 0), (4, "Dev", 4, 4, 0, 1, 0)]


def test_only_what_falls_within_the_seasons_days_counts(club_and_event):
    # Ending yesterday: the event (today) is out; starting two days back: the night three days back is out.
    assert rows(season("both", first=-2, last=-1, best_nights=None)) == [
        (1, "Ann", 2, 0, 2, 0, 2), (1, "Cleo", 2, 0, 2, 0, 2), (3, "Bob", 1, 0, 1, 0, 1), (3, "Eve", 1, 0, 1, 0, 1)]


def test_a_directors_adjusted_result_changes_the_placing_and_the_ladder(club_and_event):
    event, people = club_and_event
    s = season("both")
    ann, bob = entry(event, "Ann"), entry(event, "Bob")
    final = Match.objects.get(event=event, players__entry=ann, reset_at__isnull=True,
                              pk__in=Match.objects.filter(players__entry=bob).values("pk"))
    event_services.record_adjusted_result(actor=people.dir, match=final, winner=bob, margin=20,
                                          reason="scoring error found on the sheet")
    # Bob now 3-0 first (10 + 1 night), Ann 2-1 second (7 + 2 nights): worked out again, nothing subtracted.
    assert rows(s) == [
        (1, "Bob", 11, 10, 1, 1, 1), (2, "Ann", 9, 7, 2, 1, 2), (3, "Cleo", 7, 5, 2, 1, 2),
        (4, "Dev", 4, 4, 0, 1, 0), (5, "Eve", 1, 0, 1, 0, 1)]


def test_a_knockout_from_a_round_robin_counts_once_with_it_when_it_is_complete():
    event, people = round_robin(["Ann", "Bob", "Cleo", "Dev"])
    knockout = event_services.create_knockout_from_standings(actor=people.dir, source_event=event, top_n=2)
    s = season("events")
    assert rows(s) == []  # the knockout is still to be played: the event is not over
    event_services.pair_next_round(actor=people.dir, event=knockout)
    (final,) = open_matches(knockout)
    play_match(people, final, "Bob")
    event_selectors.event_answer(knockout)
    # The final's places first (Bob, Ann), then the round robin's order after them (Cleo, Dev): one event each.
    assert rows(s) == [(1, "Bob", 10, 10, 0, 1, 0), (2, "Ann", 7, 7, 0, 1, 0), (3, "Cleo", 5, 5, 0, 1, 0),
                       (4, "Dev", 4, 4, 0, 1, 0)]


def test_head_to_head_counts_club_games_and_matches(club_and_event):
    s = season("both")
    ann = Player.objects.get(display_name="Ann", club="")
    found = selectors.player_season(s, ann.pk)
    assert [(m.name, m.wins, m.draws, m.losses) for m in found.meetings] == [
        ("Cleo", 4, 0, 0), ("Bob", 1, 0, 0), ("Dev", 1, 0, 0)]
    assert [(r.name, r.place, r.points) for r in found.row.results] == [("Test round_robin", 1, 10)]
    assert [(n.on, n.points, n.counted) for n in found.row.nights] == [
        (n.on, 1 if i < 2 else 0, i < 2) for i, n in enumerate(found.row.nights)]
    assert len(found.row.nights) == 3


def test_the_ladder_and_player_pages_cost_the_same_queries_however_much_counts(client):
    club_game("Ann", "Cleo", days_ago=1)
    round_robin(["Ann", "Bob", "Cleo", "Dev"])
    s = season("both")
    ann = Player.objects.get(display_name="Ann", club="")
    client.get(f"/seasons/{s.pk}/")  # answers stored
    with CaptureQueriesContext(connection) as small_ladder:
        assert client.get(f"/seasons/{s.pk}/").status_code == 200
    with CaptureQueriesContext(connection) as small_player:
        assert client.get(f"/seasons/{s.pk}/players/{ann.pk}/").status_code == 200
    for days_ago in (2, 3, 4, 5):
        club_game("Bob", "Dev", days_ago=days_ago)
        club_game("Eve", "Ann", days_ago=days_ago)
    round_robin(["Dev", "Cleo", "Bob", "Ann", "Eve", "Fay"])
    client.get(f"/seasons/{s.pk}/")
    with CaptureQueriesContext(connection) as big_ladder:
        assert client.get(f"/seasons/{s.pk}/").status_code == 200
    with CaptureQueriesContext(connection) as big_player:
        assert client.get(f"/seasons/{s.pk}/players/{ann.pk}/").status_code == 200
    assert len(big_ladder) == len(small_ladder)
    assert len(big_player) == len(small_player)


def test_a_season_is_refused_naming_the_field_and_nothing_is_stored():
    boss = as_actor(organiser())
    for values, field in [
        ({"starts_on": day(5), "ends_on": day(4)}, "ends_on"),
        ({"placement_points": [5, 7]}, "placement_points.1"),
        ({"finisher_points": 9}, "finisher_points"),
        ({"best_nights": 0}, "best_nights"),
        ({"name": "  "}, "name"),
        ({"counts": "weekly"}, "counts"),
    ]:
        kwargs = {"name": "S", "starts_on": day(0), "ends_on": day(1), **values}
        with pytest.raises(Refusal) as refused:
            services.create_season(actor=boss, **kwargs)
        assert refused.value.problems[0].field == field
    assert Season.objects.count() == 0
