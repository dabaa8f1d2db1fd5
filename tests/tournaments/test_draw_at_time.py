"""A table that ends level at time (a dead hand played when time was called: 0-0) is a drawn match that
closes its round like any other result: the event's page offers the next round, the standings count the
draw, nothing is pending, and the export carries the result. Through the round clock's page, the hand API
and the event's pages and API; on SQLite and PostgreSQL alike (a JSON null read as text is 'null' on SQLite,
which once left the round open for good)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.models import Round

from ..factories import api_client
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def _draw_table_one_at_time(people, event):
    """Round 1 paired, its clock started on the director's page, time called; table 1's referee records a
    dead hand through the API (the hand being played at time: level) and the other referee accepts it;
    table 2 is won outright. Returns table 1's match."""
    director = Client()
    director.force_login(people.director)
    assert director.post(f"/events/{event.pk}/pair/").status_code == 302
    assert director.post(f"/events/{event.pk}/rounds/1/clock/", {"action": "start"}).status_code == 302
    Round.objects.filter(event=event, number=1).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    drawn, won = open_matches(event, 1)
    game = drawn.match_games.get().game_id
    recorded = api_client(people.recorder).post(f"/api/v1/games/{game}/hands/", {"result": "dead"}, format="json")
    assert recorded.status_code == 201, recorded.content
    accepted = api_client(people.confirmer).post(f"/api/v1/games/{game}/hands/1/confirm/", {}, format="json")
    assert accepted.status_code == 200, accepted.content
    game_api = api_client().get(f"/api/v1/games/{game}/").json()
    assert (game_api["status"], game_api["summary"]["winner"]) == ("complete", None)
    play_match(people, won, won.players.order_by("side").first().entry.player.display_name)
    return drawn


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_a_table_level_at_time_is_a_draw_that_closes_the_round(fmt):
    people = Officials()
    options = {"rounds": 3} if fmt == "swiss" else {}
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], fmt=fmt, round_minutes=30, **options)
    drawn = _draw_table_one_at_time(people, event)
    base = f"/api/v1/events/{event.pk}"
    td = api_client(people.director)

    match = td.get(f"{base}/matches/{drawn.pk}/").json()
    assert (match["status"], match["winner"]) == ("decided", None)
    standings = {row["name"]: row for row in td.get(f"{base}/standings/").json()}
    players = sorted(p.entry.player.display_name for p in drawn.players.all())
    for name in players:
        assert (standings[name]["played"], standings[name]["draws"], standings[name]["wins"]) == (1, 1, 0)
    assert td.get(f"{base}/").json()["answer"]["pending"] == []
    exported = td.get(f"{base}/export/").json()
    (result,) = [r for r in exported["results"] if sorted(r["players"]) == players]
    assert (result["round"], result["winner"], result["margin"]) == (1, None, 0)

    director = Client()
    director.force_login(people.director)
    page = director.get(f"/events/{event.pk}/").content.decode()
    assert "still to finish" not in page
    assert "Pair round 2" in page
    assert director.post(f"/events/{event.pk}/pair/").status_code == 302
    assert Round.objects.filter(event=event, number=2).exists()
