"""Ratings are computed from public results only: a private club game or a private event's matches never
move a rating, so none of the rating paths (the list, a player's page and chart, the API's list and a
player's history, seeding by rating) tells an anonymous caller who played a private game, how often, when
or who won. Making an event public (or private again) recomputes the ratings once committed."""

import pytest
from django.test import Client

from ratings.models import PlayerRating, RatingPoint
from ratings.services import recompute_ratings
from scoring import services as scoring
from scoring.models import Game
from tournaments import services as events

from ..factories import api_client, as_actor, gin, organiser, player
from ..tournaments.stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db

QUICK = {"preset": "classic", "target": 50}


def _club_game(winner, loser, *, public):
    boss = as_actor(organiser())
    g = scoring.create_game(actor=boss, format="standard", players=[winner, loser], conventions=QUICK,
                            requires_confirmation=False, is_public=public)
    scoring.record_hand(actor=boss, game=g, data=gin(winner.display_name, 30))
    assert Game.objects.get(pk=g.pk).status == Game.Status.COMPLETE


def _private_event_played():
    """A private Swiss of four whose round 1 is played out; returns the event and its players' ids."""
    people = Officials()
    event = new_event(people, names=["Hidden Ann", "Hidden Bob", "Hidden Cleo", "Hidden Dev"], rounds=2,
                      is_public=False)
    events.pair_next_round(actor=people.dir, event=event)
    for match in open_matches(event, 1):
        play_match(people, match, match.players.get(side=0).entry.player.display_name)
    return people, event, [e.player_id for e in event.entries.all()]


def _rated_anonymously(player_ids):
    """What an anonymous caller reads of these players' ratings: the names on the two lists, and for each
    player whether its page, chart and API history show any rated result."""
    listed = Client().get("/ratings/").content.decode()
    names = sorted({r["name"] for r in api_client().get("/api/v1/ratings/").json()["results"]}
                   | {n for n in ("Hidden Ann", "Hidden Bob", "Hidden Cleo", "Hidden Dev") if n in listed})
    shown = []
    for pk in player_ids:
        page = Client().get(f"/ratings/players/{pk}/").content.decode()
        history = api_client().get(f"/api/v1/players/{pk}/ratings/").json()
        shown.append("no rated game yet" not in page or "<polyline" in page or history["rating"] is not None
                     or history["history"] != [])
    return names, shown


def test_a_private_club_game_moves_no_rating_and_a_public_one_does():
    ann, bob, cleo, dev = player("Ann"), player("Bob"), player("Cleo"), player("Dev")
    _club_game(ann, bob, public=False)
    _club_game(cleo, dev, public=True)
    recompute_ratings()
    assert set(PlayerRating.objects.values_list("player_id", flat=True)) == {cleo.pk, dev.pk}
    assert not RatingPoint.objects.filter(player_id__in=[ann.pk, bob.pk]).exists()
    listed = api_client().get("/api/v1/ratings/").json()
    assert sorted(r["name"] for r in listed["results"]) == ["Cleo", "Dev"]
    history = api_client().get(f"/api/v1/players/{ann.pk}/ratings/").json()
    assert (history["rating"], history["history"]) == (None, [])
    page = Client().get(f"/ratings/players/{ann.pk}/").content.decode()
    assert "no rated game yet" in page
    assert "<polyline" not in page


def test_a_private_events_matches_show_on_no_rating_path_until_it_is_made_public(
        django_capture_on_commit_callbacks):
    people, event, player_ids = _private_event_played()
    recompute_ratings()
    assert not PlayerRating.objects.filter(player_id__in=player_ids).exists()
    assert _rated_anonymously(player_ids) == ([], [False] * 4)
    assert api_client().get(f"/api/v1/events/{event.pk}/").status_code == 404

    with django_capture_on_commit_callbacks(execute=True):
        events.update_event(actor=people.dir, event=event, changes={"is_public": True})
    assert set(PlayerRating.objects.values_list("player_id", flat=True)) == set(player_ids)
    assert _rated_anonymously(player_ids) == (["Hidden Ann", "Hidden Bob", "Hidden Cleo", "Hidden Dev"], [True] * 4)

    with django_capture_on_commit_callbacks(execute=True):
        events.update_event(actor=people.dir, event=event, changes={"is_public": False})
    assert not PlayerRating.objects.filter(player_id__in=player_ids).exists()
    assert _rated_anonymously(player_ids) == ([], [False] * 4)


def test_seeding_by_rating_reads_only_public_results():
    people, _, _ = _private_event_played()
    recompute_ratings()
    order = ["Hidden Dev", "Hidden Cleo", "Hidden Bob", "Hidden Ann"]
    later = new_event(people, names=order, rounds=1)
    seeded = events.seed_entries(actor=people.dir, event=later, method="openskill")
    assert [e.player.display_name for e in seeded] == order  # nobody rated: the order they entered
