"""The rating list and a player's rating page (public, names and numbers only, a server-drawn SVG chart),
the API's ``GET /api/v1/ratings/`` and ``GET /api/v1/players/{id}/ratings/``, each a constant number of
queries however many players; and seeding an event by rating (OpenSkill) on the entries page and the API."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings.models import PlayerRating
from ratings.services import recompute_ratings
from scoring import services as scoring
from scoring.models import Game
from tournaments import services as events
from tournaments.models import Entry

from ..factories import api_client, as_actor, gin, organiser, player, user
from ..tournaments.stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db

QUICK = {"preset": "classic", "target": 50}


def _play(winner, loser):
    boss = as_actor(organiser())
    g = scoring.create_game(actor=boss, format="standard", players=[winner, loser], conventions=QUICK,
                            requires_confirmation=False)
    scoring.record_hand(actor=boss, game=g, data=gin(winner.display_name, 30))
    assert Game.objects.get(pk=g.pk).status == Game.Status.COMPLETE


def _queries(url, client=None):
    client = client or Client()
    with CaptureQueriesContext(connection) as seen:
        answer = client.get(url)
    assert answer.status_code == 200, answer.content[:300]
    return len(seen), answer


def test_the_rating_list_ranks_players_marks_provisional_ones_and_links_their_history():
    ann, bob = player("Ann", club="Riverside"), player("Bob")
    ann.email = "ann@example.org"
    ann.save(update_fields=["email"])
    _play(ann, bob)
    recompute_ratings()
    _, page = _queries("/ratings/")
    text = page.content.decode()
    rating = PlayerRating.objects.get(player=ann)
    assert f'<a href="/ratings/players/{ann.pk}/">Ann</a><small class="club">Riverside</small>' in text
    assert f"{rating.rating:.1f}" in text
    assert text.count("provisional") >= 2
    assert text.index(">Ann<") < text.index(">Bob<")
    assert "ann@example.org" not in text


def test_the_rating_list_and_a_players_page_cost_the_same_queries_for_two_or_twelve_players():
    people = [player(f"P{i}") for i in range(12)]
    _play(people[0], people[1])
    recompute_ratings()
    few_list, _ = _queries("/ratings/")
    few_page, _ = _queries(f"/ratings/players/{people[0].pk}/")
    few_api, _ = _queries("/api/v1/ratings/", api_client())
    few_history, _ = _queries(f"/api/v1/players/{people[0].pk}/ratings/", api_client())
    for i in range(2, 12):
        _play(people[i], people[i - 1])
        _play(people[0], people[i])
    recompute_ratings()
    assert _queries("/ratings/")[0] == few_list
    assert _queries(f"/ratings/players/{people[0].pk}/")[0] == few_page
    assert _queries("/api/v1/ratings/", api_client())[0] == few_api
    assert _queries(f"/api/v1/players/{people[0].pk}/ratings/", api_client())[0] == few_history


def test_a_players_page_draws_the_rating_over_time_and_says_provisional_until_ten_games():
    ann, bob = player("Ann"), player("Bob")
    for _ in range(3):
        _play(ann, bob)
    recompute_ratings()
    _, page = _queries(f"/ratings/players/{ann.pk}/")
    text = page.content.decode()
    assert '<svg class="rating-chart"' in text
    assert text.count("<polyline") == 2
    assert "Ann&#x27;s rating over 3 results" in text
    assert "provisional: fewer than 10 games" in text
    assert "<script" not in text.split("<main>")[1].split("</main>")[0]
    assert Client().get(f"/ratings/players/{player('Cleo').pk}/").content.decode().count("no rated game yet") == 1
    assert Client().get("/ratings/players/999999/").status_code == 404


def test_the_api_lists_every_rating_and_a_players_history():
    ann, bob = player("Ann"), player("Bob")
    _play(ann, bob)
    _play(bob, ann)
    recompute_ratings()
    listed = api_client().get("/api/v1/ratings/").json()
    assert listed["count"] == 2
    first = listed["results"][0]
    stored = PlayerRating.objects.get(player_id=first["player"])
    assert first == {"player": stored.player_id, "name": stored.player.display_name, "club": "", "rank": 1,
                     "mu": stored.mu, "sigma": stored.sigma, "rating": stored.rating, "games": 2,
                     "provisional": True}
    history = api_client().get(f"/api/v1/players/{bob.pk}/ratings/").json()
    assert history["player"] == bob.pk
    assert history["rating"]["games"] == 2
    assert [p["number"] for p in history["history"]] == [1, 2]
    assert history["history"][-1]["mu"] == history["rating"]["mu"]
    assert history["history"][-1]["rating"] == pytest.approx(history["rating"]["rating"])
    assert api_client().get(f"/api/v1/players/{player('Cleo').pk}/ratings/").json()["history"] == []
    assert api_client().get("/api/v1/players/999999/ratings/").status_code == 404


def test_seeding_by_openskill_rating_puts_the_best_rated_first_and_the_unrated_last():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    ann, bob, cleo = (Entry.objects.get(event=event, player__display_name=n).player for n in ("Ann", "Bob", "Cleo"))
    _play(cleo, ann)
    _play(cleo, bob)
    _play(ann, bob)
    recompute_ratings()
    seeded = events.seed_entries(actor=people.dir, event=event, method="openskill")
    assert [e.player.display_name for e in seeded] == ["Cleo", "Ann", "Bob", "Dev"]
    event.refresh_from_db()
    assert event.seeding["method"] == "openskill"
    answer = api_client(people.director).post(f"/api/v1/events/{event.pk}/seed/", {"method": "openskill"},
                                              format="json")
    assert answer.status_code == 200, answer.content
    assert [e["name"] for e in answer.json()] == ["Cleo", "Ann", "Bob", "Dev"]
    refused = api_client(people.director).post(f"/api/v1/events/{event.pk}/seed/",
                                               {"method": "openskill", "order": [1]}, format="json")
    assert refused.status_code == 400
    assert "order" in str(refused.json())
    assert api_client(user()).post(f"/api/v1/events/{event.pk}/seed/", {"method": "openskill"},
                                   format="json").status_code in (403, 404)


def test_the_entries_page_offers_seeding_by_rating_openskill():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    _play(Entry.objects.get(event=event, player__display_name="Bob").player,
          Entry.objects.get(event=event, player__display_name="Ann").player)
    recompute_ratings()
    page = Client()
    page.force_login(people.director)
    text = page.get(f"/events/{event.pk}/entries/").content.decode()
    assert '<input type="radio" name="method" value="openskill"><span>By rating (OpenSkill)</span>' in text
    once = text.split('name="once" value="')[1].split('"')[0]
    answer = page.post(f"/events/{event.pk}/entries/", {"action": "seed", "method": "openskill", "once": once},
                       follow=True)
    assert "Seeded by OpenSkill rating" in answer.content.decode()
    assert list(Entry.objects.filter(event=event).order_by("seed").values_list("player__display_name", flat=True)) \
        == ["Bob", "Ann"]


def test_each_rating_change_names_the_opponent_and_the_club_game_or_event_it_came_from():
    ann, bob = player("Ann"), player("Bob")
    _play(ann, bob)
    people = Officials()
    event = new_event(people, names=["Ann", "Cleo"], rounds=1)
    events.pair_next_round(actor=people.dir, event=event)
    match = open_matches(event, 1)[0]
    play_match(people, match, "Cleo")
    recompute_ratings()
    _, page = _queries(f"/ratings/players/{ann.pk}/")
    # The rating and its change first (on a phone the columns after them scroll), then whom, where and when.
    rows = re.findall(r"<tr><td>(\d)</td><td>[-\d.]+</td><td>([^<]+)</td><td>([^<]+)</td><td><a href=\"([^\"]+)\">"
                      r"([^<]+)</a></td><td>[^<]+</td></tr>", page.content.decode())
    rows = [(n, against, url, where, change) for n, change, against, url, where in rows]
    game = Game.objects.filter(player_names=["Ann", "Bob"]).get()
    assert [(n, against, url, where) for n, against, url, where, _ in rows] == [
        ("2", "Cleo", f"/events/{event.pk}/matches/{match.pk}/", "Test swiss, round 1"),
        ("1", "Bob", f"/games/{game.pk}/", "club game"),
    ]
    assert rows[1][4] == "first"
    assert rows[0][4].startswith("-")  # Ann lost to Cleo: her rating fell
