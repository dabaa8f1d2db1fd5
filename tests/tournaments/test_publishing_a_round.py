"""Publishing a round makes its games, seats, table links and the matches' printed marks in a few
statements however many tables it has: a round of 500 tables is one request of the director's (issue 35),
and what it makes is what one game at a time made. Its answer's rows are built from what it made, and
are the rows the matches' own read gives."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.api.renderers import FastJSONRenderer
from scoring.models import Game, RefereeLink, Seat, token_digest
from scoring.sheets import counted_sheet, summary_of
from tournaments import selectors, services
from tournaments.models import Match, MatchGame, Round

from ..factories import api_client
from .stored import Officials, new_event, play_match

pytestmark = pytest.mark.django_db


def _published(people, players: int):
    event = new_event(people, names=[f"Player {i:03}" for i in range(players)], rounds=3)
    services.pair_next_round(actor=people.dir, event=event, publish=False)
    with CaptureQueriesContext(connection) as asked:
        opened = services.publish_round(actor=people.dir, round=Round.objects.get(event=event, number=1))
    return event, opened, len(asked)


def test_publishing_a_round_costs_the_same_statements_for_2_tables_or_40():
    people = Officials()
    _, small, few = _published(people, 4)
    _, large, many = _published(people, 80)
    assert (len(small.tokens), len(large.tokens)) == (2, 40)
    assert many == few


def test_a_published_rounds_games_seats_and_links_are_what_the_table_needs():
    people = Officials()
    event, opened, _ = _published(people, 6)
    matches = Match.objects.filter(event=event, round__number=1).order_by("table")
    assert [m.card_printed_at is not None for m in matches] == [True, True, True]
    for match in matches:
        game = MatchGame.objects.get(match=match).game
        seated = [(s.position, s.player.display_name) for s in Seat.objects.filter(game=game).order_by("position")]
        assert seated == list(enumerate(game.player_names))
        assert game.table_label == f"Round 1 · Table {match.table}"
        assert (game.status, game.hand_count, game.is_public) == ("in_progress", 0, True)
        assert game.summary == summary_of(counted_sheet(game, []))
        assert game.scores_changed_at is not None
        link = RefereeLink.objects.get(game=game)
        assert (link.label, link.token_digest) == (game.table_label, token_digest(opened.tokens[game.pk]))
        table = api_client(referee_token=opened.tokens[game.pk])
        answer = table.get(f"/api/v1/games/{game.pk}/")
        assert (answer.status_code, answer.json()["players"]) == (200, game.player_names)
    assert Game.objects.count() == 3


def _as_sent(rows):
    return FastJSONRenderer().render(rows)


def test_a_published_rounds_rows_built_from_what_it_made_are_the_rows_read_back():
    people = Officials()
    event, opened, _ = _published(people, 7)  # three tables and a bye
    made = selectors.match_rows(event, opened.matches)
    read = selectors.matches(event, ids=[m.pk for m in opened.matches])
    assert [r["status"] for r in made] == ["waiting", "waiting", "waiting", "bye"]
    assert _as_sent(made) == _as_sent(read)


def test_a_round_paired_and_published_at_once_answers_the_rows_read_back():
    people = Officials()
    event = new_event(people, names=[f"Player {i:03}" for i in range(5)], rounds=3)
    opened = services.pair_next_round(actor=people.dir, event=event)
    assert _as_sent(selectors.match_rows(event, opened.matches)) == \
        _as_sent(selectors.matches(event, ids=[m.pk for m in opened.matches]))


def test_bracket_matches_opened_by_themselves_answer_the_rows_read_back():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], fmt="single_elimination")
    first = services.pair_next_round(actor=people.dir, event=event)
    for match in first.matches:
        play_match(people, match, selectors.match_rows(event, [match])[0]["players"][0])
    final = services.open_ready_bracket_matches(event_id=event.pk)
    assert [m.bracket_id for m in final.matches] == ["W2-1"]
    assert final.tokens == {}  # no link: its card is printed from the event page
    assert _as_sent(selectors.match_rows(event, final.matches)) == \
        _as_sent(selectors.matches(event, ids=[m.pk for m in final.matches]))


def test_the_publishing_answer_reads_back_none_of_the_games_and_links_it_made():
    people = Officials()
    event = new_event(people, names=[f"Player {i:03}" for i in range(8)], rounds=3)
    services.pair_next_round(actor=people.dir, event=event, publish=False)
    api = api_client(people.director)
    with CaptureQueriesContext(connection) as asked:
        answer = api.post(f"/api/v1/events/{event.pk}/rounds/1/publish/", format="json")
    assert answer.status_code == 200
    assert [len(m["game_details"][0]["referee_links"]) for m in answer.json()["matches"]] == [1, 1, 1, 1]
    read_back = [q["sql"] for q in asked.captured_queries if q["sql"].startswith("SELECT") and any(
        table in q["sql"] for table in ('FROM "tournaments_matchgame"', 'FROM "scoring_refereelink"'))]
    assert read_back == []
