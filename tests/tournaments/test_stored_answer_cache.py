"""The stored answer follows the results: a game's settled result moving (and only that) moves the
event's fingerprint, and the answer is recomputed once the write commits, not by every reader."""

import pytest

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game
from tournaments import selectors, services
from tournaments.answers import job as answer_job
from tournaments.models import Event, EventAnswer, ResultChange
from tournaments.stored_event import results_fingerprint

from ..factories import api_client, as_actor, game, gin, knock, organiser
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def _paired(people, names=("Ann", "Bob", "Cleo", "Dev")):
    event = new_event(people, names=list(names), rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    return event


def test_only_a_change_of_a_games_settled_result_moves_the_fingerprint():
    people = Officials()
    event = _paired(people)
    match = open_matches(event, 1)[0]
    g = match.match_games.get().game
    start = results_fingerprint(event)
    recorder, confirmer = as_actor(people.recorder), as_actor(people.confirmer)
    first = g.player_names[0]
    scoring.record_hand(actor=recorder, game=g, data=knock(first, 5, 20))  # 15 + box: not yet 50
    scoring.confirm_hand(actor=confirmer, game=g, number=1)
    scoring.record_hand(actor=recorder, game=g, data=gin(first, 30))  # 15 + 55: complete, but pending
    assert results_fingerprint(event) == start
    assert not ResultChange.objects.exists()

    scoring.confirm_hand(actor=confirmer, game=g, number=2)  # the game is settled
    assert Game.objects.get(pk=g.pk).settled_result == (first, 305)
    settled = results_fingerprint(event)
    assert settled != start
    assert list(ResultChange.objects.values_list("event_id", "game_id")) == [(event.pk, g.pk)]

    boss = as_actor(people.organiser)
    scoring.correct_hand(actor=boss, game=g, number=1, data=knock(first, 5, 25), reason="miscounted")
    pending = results_fingerprint(event)
    assert pending != settled  # a hand awaiting confirmation: the match is undecided again
    assert Game.objects.get(pk=g.pk).settled_result is None
    scoring.confirm_hand(actor=confirmer, game=g, number=1)
    corrected = results_fingerprint(event)
    assert corrected not in (settled, pending)
    assert Game.objects.get(pk=g.pk).settled_result == (first, 310)  # 5 more hand points
    scoring.abandon_game(actor=boss, game=Game.objects.get(pk=g.pk), reason="test")
    assert results_fingerprint(event) != corrected
    assert ResultChange.objects.count() == 4


def test_games_outside_events_add_no_result_changes():
    g = game(conventions={"preset": "classic", "target": 50})
    boss = as_actor(organiser())
    scoring.record_hand(actor=boss, game=g, data=gin("Ann", 40))
    scoring.confirm_hand(actor=as_actor(organiser()), game=g, number=1)
    # gin 40 + 20, a box, the game bonus and the shutout
    assert Game.objects.get(pk=g.pk).settled_result == ("Ann", 60 + 20 + 100 + 100)
    assert not ResultChange.objects.exists()


def test_the_answer_is_recomputed_when_the_deciding_hand_commits_so_readers_only_read_it(
        django_capture_on_commit_callbacks, django_assert_num_queries):
    people = Officials()
    event = _paired(people)
    selectors.event_answer(event)
    g = open_matches(event, 1)[0].match_games.get().game
    scoring.record_hand(actor=as_actor(people.recorder), game=g, data=gin(g.player_names[1], 40))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        scoring.confirm_hand(actor=as_actor(people.confirmer), game=g, number=1)
    # the event's answer, the ratings' recompute (the game is settled), the hand's confirmation told, and (once the
    # answer is stored: here inside the test's transaction) the event's news handed off the request
    assert len(callbacks) == 4
    stored = EventAnswer.objects.get(event=event, view="live")
    assert stored.key == results_fingerprint(event)
    with django_assert_num_queries(1):  # the stored answer, checked against the fingerprint in one query
        answer = selectors.event_answer(event)
    assert sum(row["wins"] for row in answer["standings"]) == 1
    winner = next(row for row in answer["standings"] if row["name"] == g.player_names[1])
    assert winner["margin"] == 280  # gin 40 + 20, a box, the game bonus and the shutout


def test_a_directors_write_recomputes_the_answer_on_commit(django_capture_on_commit_callbacks):
    people = Officials()
    event = _paired(people)
    match = open_matches(event, 1)[0]
    first = match.players.order_by("side").first().entry
    with django_capture_on_commit_callbacks(execute=True):
        services.record_forfeit(actor=people.dir, match=match, winner=first, reason="no show")
    stored = EventAnswer.objects.get(event=event, view="live")
    assert stored.key == results_fingerprint(event)
    assert [r["name"] for r in stored.answer["standings"] if r["wins"]] == [first.player.display_name]


def test_a_refresh_that_fails_after_the_commit_never_turns_the_write_into_an_error(
        django_capture_on_commit_callbacks, monkeypatch, caplog):
    """The write committed: the failure is logged, and the next reader recomputes the answer."""
    people = Officials()
    event = _paired(people)
    match = open_matches(event, 1)[0]
    first = match.players.order_by("side").first().entry

    def broken(*args, **kwargs):
        raise RuntimeError("the engine fell over")

    monkeypatch.setattr(answer_job, "refresh_answer", broken)  # where the refresh finds it
    td = api_client(people.director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = td.post(f"/api/v1/events/{event.pk}/matches/{match.pk}/forfeit/",
                         {"winner": first.pk, "reason": "no show"}, format="json")
    assert answer.status_code == 200
    assert "the engine fell over" in caplog.text
    monkeypatch.undo()
    assert [r["name"] for r in selectors.event_answer(event)["standings"] if r["wins"]] == [first.player.display_name]


def test_a_drop_the_engine_would_refuse_is_never_stored():
    people = Officials()
    event = _paired(people)
    entry = open_matches(event, 1)[0].players.first().entry
    refused = api_client(people.director).post(f"/api/v1/events/{event.pk}/entries/{entry.pk}/drop/",
                                               {"after_round": 23491}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "after_round"
    with pytest.raises(Refusal, match="from 0 to 4096"):
        services.drop_entry(actor=people.dir, entry=entry, after_round=4097)
    entry.refresh_from_db()
    assert entry.dropped_after_round is None


def test_a_refresh_that_read_the_results_before_the_last_one_never_undoes_the_events_completion():
    """Six tables decided at once on a threaded server: each refresh runs in its own thread. One that read
    the results before the last match was decided, and finishes after the refresh that completed the event,
    once left it "running" with every round closed (and told the director to pair the next round)."""
    from tournaments.answers.store import refresh_answer, sync_statuses
    from tournaments.stored_event import compute_answer, load_state, results_fingerprint

    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.pair_next_round(actor=people.dir, event=event)
    stale_key = results_fingerprint(event)
    stale_state = load_state(event)  # read before the deciding result commits
    stale_answer, _ = compute_answer(stale_state)
    assert stale_answer["complete"] is False
    play_match(people, open_matches(event, 1)[0], "Ann")
    refresh_answer(event)  # the refresh of the deciding result: the event is complete
    event.refresh_from_db()
    assert event.status == Event.Status.COMPLETE
    changed = sync_statuses(stale_state, stale_answer, key=stale_key)  # the older refresh, finishing last
    assert changed == {"closed": 0, "reopened": 0, "completed": 0}
    event.refresh_from_db()
    assert event.status == Event.Status.COMPLETE
    assert list(event.event_rounds.values_list("status", flat=True)) == ["closed"]
