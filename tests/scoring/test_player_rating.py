"""A player's rating (the club's own, when it keeps one): organisers set and clear it on the player page
and through the API; an event entering the player starts from it (seeding by rating), keeping its own
copy; a merged duplicate's rating fills a kept player who has none."""

import pytest
from django.test import Client

from scoring import services
from scoring.models import Player
from tournaments import services as events
from tournaments.models import Entry

from ..factories import api_client, as_actor, organiser, player, user

pytestmark = pytest.mark.django_db


def test_an_organiser_sets_and_clears_a_rating_through_the_api_and_a_bad_one_is_named():
    ann = player("Ann")
    api = api_client(organiser())
    answer = api.patch(f"/api/v1/players/{ann.pk}/", {"rating": 1650}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["rating"] == 1650
    assert api.patch(f"/api/v1/players/{ann.pk}/", {"club": "Riverside"}, format="json").json()["rating"] == 1650
    bad = api.patch(f"/api/v1/players/{ann.pk}/", {"rating": 16.5}, format="json")
    assert bad.status_code == 400
    assert "rating" in str(bad.json())
    assert api.patch(f"/api/v1/players/{ann.pk}/", {"rating": None}, format="json").json()["rating"] is None
    assert api_client(user()).patch(f"/api/v1/players/{ann.pk}/", {"rating": 1}, format="json").status_code == 403
    assert Player.objects.get(pk=ann.pk).rating is None


def test_the_player_page_saves_the_rating_with_the_name_and_club():
    ann = player("Ann", club="Riverside")
    page = Client()
    page.force_login(organiser())
    page.post(f"/players/{ann.pk}/", {"action": "edit", "display_name": "Ann", "club": "Riverside", "rating": "1580"})
    assert Player.objects.get(pk=ann.pk).rating == 1580
    assert "rating 1580" in page.get(f"/players/{ann.pk}/").content.decode()
    refused = page.post(f"/players/{ann.pk}/", {"action": "edit", "display_name": "Ann", "rating": "high"})
    assert refused.status_code in (200, 400)
    assert Player.objects.get(pk=ann.pk).rating == 1580


def test_an_entry_starts_from_the_players_rating_and_keeps_its_own_copy():
    boss = as_actor(organiser())
    ann, bob = player("Ann", club="Riverside"), player("Bob", club="Riverside")
    services.update_player(actor=boss, player=ann, rating=1700)
    services.update_player(actor=boss, player=bob, rating=1500)
    event = events.create_event(actor=boss, name="Rated", format="swiss")
    events.add_entries_from_text(actor=boss, event=event, club="Riverside", text="Ann\nBob,1900")
    ratings = dict(Entry.objects.filter(event=event).values_list("player__display_name", "rating"))
    assert ratings == {"Ann": 1700, "Bob": 1900}  # a rating given with the entry wins
    services.update_player(actor=boss, player=ann, rating=1200)
    assert Entry.objects.get(event=event, player=ann).rating == 1700


def test_a_merged_duplicates_rating_fills_a_kept_player_without_one():
    boss = as_actor(organiser())
    kept, duplicate = player("Ann Lee"), player("Ann  Lee", club="Elsewhere")
    services.update_player(actor=boss, player=duplicate, rating=1420)
    services.merge_player(actor=boss, player=duplicate, into=kept)
    assert Player.objects.get(pk=kept.pk).rating == 1420
