"""Directors and referees acting at the same moment on one event.

Needs real concurrent transactions, so it runs on PostgreSQL (CI's second run); SQLite serialises
whole-database writes and is skipped.
"""

import pytest
from django.db import connection

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game
from tournaments import selectors, services
from tournaments.models import Event, EventAnswer, Match, Round
from tournaments.stored_event import results_fingerprint

from ..factories import as_actor, gin
from ..scoring.test_concurrency import run_together
from .stored import Officials, new_event, open_matches, play_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks"),
]


def test_two_directors_pairing_at_once_create_one_round():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"], rounds=3)

    def pair(_):
        return services.pair_next_round(actor=people.dir, event=Event.objects.get(pk=event.pk))

    answers = run_together(4, pair)
    made = [a for a in answers if isinstance(a, services.Opened)]
    refused = [a for a in answers if isinstance(a, Refusal)]
    assert len(made) == 1, answers
    assert len(refused) == 3, answers
    assert all(a.problems[0].field == "round" for a in refused)
    assert Round.objects.filter(event=event).count() == 1
    assert len(open_matches(event, 1)) == 3
    assert Game.objects.filter(pk__in=made[0].tokens).count() == 3


def test_the_last_two_games_of_a_round_completing_at_once_close_it_once():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    games = [m.match_games.get().game for m in open_matches(event, 1)]
    for g in games:
        scoring.record_hand(actor=as_actor(people.recorder), game=g, data=gin(g.player_names[0], 30))

    closes = []

    def confirm_then_read(i):
        scoring.confirm_hand(actor=as_actor(people.confirmer), game=Game.objects.get(pk=games[i].pk), number=1)
        # every phone refreshes the standings at once: each read may find the fingerprint moved
        state_answer = selectors.event_answer(Event.objects.get(pk=event.pk))
        closes.append(Round.objects.get(event=event, number=1).closed_at)
        return state_answer["rounds_played"]

    run_together(2, confirm_then_read)
    answers = run_together(6, lambda _: selectors.event_answer(Event.objects.get(pk=event.pk))["rounds_played"])
    assert answers == [1] * 6
    rnd = Round.objects.get(event=event, number=1)
    assert rnd.status == Round.Status.CLOSED
    assert len({c for c in closes if c is not None} | {rnd.closed_at}) == 1  # closed once, never re-stamped
    stored = EventAnswer.objects.get(event=event, view="live")
    assert stored.answer["rounds_played"] == 1
    assert stored.key == results_fingerprint(event)
    # and the next round pairs from it
    assert services.pair_next_round(actor=people.dir, event=event).round.number == 2


def test_concurrent_readers_while_results_arrive_never_keep_a_stale_answer():
    people = Officials()
    event = new_event(people, names=[f"P{i}" for i in range(8)], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    games = [m.match_games.get().game for m in open_matches(event, 1)]

    def work(i):
        if i < len(games):
            play_game(people, games[i], games[i].player_names[1], 30)
        return selectors.event_answer(Event.objects.get(pk=event.pk))["rounds_played"]

    run_together(8, work)
    final = selectors.event_answer(event)
    assert final["rounds_played"] == 1
    assert sum(row["wins"] for row in final["standings"]) == 4


def test_the_two_semi_finals_ending_at_once_open_the_final_once():
    """Each result's commit opens what it made ready, under the event's lock: the final opens once."""
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], fmt="single_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    games = [m.match_games.get().game for m in open_matches(event)]
    for g in games:
        scoring.record_hand(actor=as_actor(people.recorder), game=g, data=gin(g.player_names[0], 30))

    def confirm(i):
        scoring.confirm_hand(actor=as_actor(people.confirmer), game=Game.objects.get(pk=games[i].pk), number=1)

    run_together(2, confirm)
    finals = Match.objects.filter(event=event, bracket_id="W2-1")
    assert finals.count() == 1
    final = finals.get()
    assert final.table == 1
    assert sorted(p.entry.player.display_name for p in final.players.all()) == sorted(
        g.player_names[0] for g in games)
    assert final.match_games.count() == 1
