"""A match's game knows where it comes from, in the tournament's words (scoring never imports
tournaments): its event's name and page and its match's page, so the sheet links back and /games/
lists it under its event; a director's result freezes it as "Settled by the director", and going
back to the games' result reopens it as a plain game in progress. Games made before this are linked
back by a migration."""

import importlib

import pytest
from django.apps import apps
from django.test import Client

from core.text import name_matches
from scoring.models import Game
from tournaments import services
from tournaments.models import Match

from ..factories import game
from .stored import Officials, entry, new_event

pytestmark = pytest.mark.django_db


def paired():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"])
    services.pair_next_round(actor=people.dir, event=event)
    return people, event


def test_each_match_game_names_its_event_and_match_and_its_sheet_links_back():
    _, event = paired()
    for match in Match.objects.filter(event=event, is_bye=False):
        game = match.match_games.get().game
        assert (game.origin_label, game.origin_url, game.origin_match_url) == (
            "Test swiss", f"/events/{event.pk}/", f"/events/{event.pk}/matches/{match.pk}/")
        sheet = Client().get(f"/games/{game.pk}/").content.decode()
        assert f'<a href="/events/{event.pk}/">Test swiss</a>' in sheet
        assert f'<a href="/events/{event.pk}/matches/{match.pk}/">Round 1 · Table {match.table}</a>' in sheet


def test_a_forfeit_settles_the_game_in_the_directors_words_and_clearing_it_reopens_a_plain_game():
    people, event = paired()
    match = Match.objects.filter(event=event, is_bye=False).first()
    services.record_forfeit(actor=people.dir, match=match, winner=entry(event, "Ann"), reason="no show")
    game = Game.objects.get(pk=match.match_games.get().game_id)
    assert (game.status, game.status_words) == (Game.Status.ABANDONED, "Settled by the director")
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Settled by the director" in page
    assert "The match was decided by a director: no show." in page
    services.clear_director_result(actor=people.dir, match=match, reason="Bob arrived")
    game.refresh_from_db()
    assert (game.status, game.frozen_as, game.status_words) == (Game.Status.IN_PROGRESS, "", "In progress")


def test_the_migration_links_back_the_games_made_before_and_names_what_froze_them():
    people, event = paired()
    match = Match.objects.filter(event=event, is_bye=False).first()
    services.record_forfeit(actor=people.dir, match=match, winner=entry(event, "Ann"), reason="no show")
    Game.objects.update(origin_label="", origin_url="", origin_match_url="", frozen_as="")  # as before
    migration = importlib.import_module("tournaments.migrations.0003_match_games_link_back_to_their_event")
    migration.link_back(apps, None)
    settled = Game.objects.get(pk=match.match_games.get().game_id)
    assert (settled.origin_url, settled.origin_match_url, settled.status_words) == (
        f"/events/{event.pk}/", f"/events/{event.pk}/matches/{match.pk}/", "Settled by the director")
    assert not Game.objects.filter(origin_label="").exists()


def test_the_games_list_keeps_club_games_apart_and_lists_tournament_tables_under_their_event():
    _, event = paired()
    game(names=("Gail", "Hugo"))
    club = Client().get("/games/").content.decode()
    assert "Gail v Hugo" in club
    assert "Round 1 · Table 1" not in club
    tables = Client().get("/games/?show=events").content.decode()
    assert "Gail v Hugo" not in tables
    assert f'<a href="/events/{event.pk}/">Test swiss</a>' in tables
    assert "Round 1 · Table 2" in tables


@pytest.mark.parametrize(("query", "name", "found"), [
    ("petur", "Pétur", True), ("PÉTUR", "petur", True), ("thordarson", "Þórðarson", True), ("zoe", "Zoë", True),
    ("ann", "Hanna", True), ("petra", "Pétur", False),
])
def test_a_name_is_found_with_its_case_and_accents_set_aside(query, name, found):
    assert name_matches(query, name) is found
