"""At time (the round's clock has run out), under the event's time rule: finish_hand ends each game after
the hand being played (the side ahead wins by the difference; level: a draw in a Swiss), its sheet saying
so; director leaves the table to the director. The result is the game's own, and the event's standings
follow it."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game
from tournaments import selectors, services
from tournaments.models import Match, Round

from ..factories import api_client, as_actor, gin, knock, user
from .stored import Officials, new_event, open_matches

pytestmark = pytest.mark.django_db


def _at_time(people, **options):
    event = new_event(people, names=["Ann", "Bob"], rounds=2, round_minutes=30, **options)
    services.pair_next_round(actor=people.dir, event=event)
    rnd = Round.objects.get(event=event, number=1)
    services.run_round_clock(actor=people.dir, round=rnd, action="start")
    game = Game.objects.get(pk=open_matches(event, 1)[0].match_games.get().game_id)
    return event, rnd, game


def _time_is_up(rnd):
    Round.objects.filter(pk=rnd.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))


def _record(people, game, data):
    scoring.record_hand(actor=as_actor(people.recorder), game=game, data=data)
    number = Game.objects.get(pk=game.pk).hand_count
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=game, number=number)
    return Game.objects.get(pk=game.pk)


def test_the_hand_being_played_at_time_ends_the_game_and_the_side_ahead_wins_by_the_difference():
    people = Officials()
    event, rnd, game = _at_time(people)
    first, second = game.player_names
    game = _record(people, game, knock(first, 2, 12))  # before time: 10 to the first player
    assert game.status == Game.Status.IN_PROGRESS
    _time_is_up(rnd)
    game = _record(people, game, knock(second, 3, 20))  # the hand being played at time: 17 to the second
    assert game.status == Game.Status.COMPLETE
    assert game.time_hand == 2
    assert game.summary["at_time"] == {"after_hand": 2, "winner": second, "margin": 7, "drawn": False,
                                       "totals": {first: 10, second: 17}}
    assert game.settled_result == (second, 7)
    with pytest.raises(Refusal):
        scoring.record_hand(actor=as_actor(people.recorder), game=game, data=knock(first, 1, 30))
    standings = selectors.event_answer(event)["standings"]
    assert standings[0]["name"] == second
    sheet = Client().get(f"/games/{game.pk}/").content.decode()
    assert f"{second} wins by 7 at time" in sheet
    assert "time having been called while hand 2 was being played" in sheet
    history = Client().get(f"/games/{game.pk}/history/").content.decode()
    assert "during hand 2: the game ended once it was accepted" in history


def test_level_at_time_is_a_drawn_game_and_a_drawn_match_in_a_swiss():
    people = Officials()
    event, rnd, game = _at_time(people)
    _time_is_up(rnd)
    game = _record(people, game, {"result": "dead"})
    assert game.status == Game.Status.COMPLETE
    assert (game.summary["winner"], game.summary["at_time"]["drawn"]) == (None, True)
    match = next(r for r in selectors.matches(event, round=1) if r["games"])
    assert match["status"] == "decided"
    standings = {row["name"]: row for row in selectors.event_answer(event)["standings"]}
    assert standings["Ann"]["match_points"] == standings["Bob"]["match_points"]
    assert "A draw at time" in Client().get(f"/games/{game.pk}/").content.decode()


def test_with_no_hand_in_play_the_referee_ends_the_game_at_time():
    people = Officials()
    _, rnd, game = _at_time(people)
    first, _ = game.player_names
    game = _record(people, game, gin(first, 5))
    with pytest.raises(Refusal):
        scoring.end_game_at_time(actor=as_actor(people.recorder), game=game)  # not at time yet
    _time_is_up(rnd)
    referee = Client()
    referee.force_login(people.recorder)
    page = referee.get(f"/games/{game.pk}/enter/").content.decode()
    assert "Time: finish this hand and record it" in page
    assert "end the game at time now" in page
    referee.post(f"/games/{game.pk}/time/")
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.time_hand, game.settled_result) == (Game.Status.COMPLETE, 1, (first, 25))


def test_under_the_director_rule_the_table_waits_for_the_director():
    people = Officials()
    _, rnd, game = _at_time(people, time_rule="director")
    _time_is_up(rnd)
    first, _ = game.player_names
    game = _record(people, game, knock(first, 2, 12))
    assert (game.status, game.time_hand) == (Game.Status.IN_PROGRESS, None)
    referee = Client()
    referee.force_login(people.recorder)
    page = referee.get(f"/games/{game.pk}/enter/").content.decode()
    assert "Time: this table waits for the director&#x27;s result." in page
    assert "end the game at time now" not in page


def test_a_hand_recorded_before_time_is_never_timed():
    people = Officials()
    _, _, game = _at_time(people)
    first, _ = game.player_names
    game = _record(people, game, knock(first, 2, 12))
    assert game.time_hand is None
    assert "at_time" not in game.summary


@pytest.mark.parametrize(("who", "ends_it"), [("anonymous", False), ("passer-by", False), ("other_director", False),
                                              ("referee", True), ("director", True), ("organiser", True)])
def test_only_the_tables_officials_end_a_game_at_time(who, ends_it):
    people = Officials()
    _, rnd, game = _at_time(people)
    other = new_event(Officials(), names=["Cat", "Dan"])
    _time_is_up(rnd)
    client = Client()
    signed = {"anonymous": None, "passer-by": user("passer-by"), "other_director": other.directors.get(),
              "referee": people.recorder, "director": people.director, "organiser": people.organiser}[who]
    if signed is not None:
        client.force_login(signed)
    answer = client.post(f"/games/{game.pk}/time/")
    assert answer.status_code in ((302,) if ends_it or who == "anonymous" else (403, 404))
    assert (Game.objects.get(pk=game.pk).time_hand is not None) is ends_it


def test_a_bracket_match_at_time_plays_on_while_level_until_one_side_leads():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], fmt="single_elimination", round_minutes=20)
    services.pair_next_round(actor=people.dir, event=event)
    match = event.matches.get(is_bye=False)
    td = api_client(people.director)
    started = td.post(f"/api/v1/events/{event.pk}/matches/{match.pk}/clock/", {"action": "start"}, format="json")
    assert started.status_code == 200, started.content
    assert started.json()["clock"]["status"] == "running"
    Match.objects.filter(pk=match.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    game = Game.objects.get(pk=match.match_games.get().game_id)
    first, second = game.player_names
    game = _record(people, game, {"result": "dead"})  # the hand being played at time: still level
    assert (game.status, game.time_hand, game.time_level) == (Game.Status.IN_PROGRESS, 1, "play_on")
    game = _record(people, game, knock(second, 4, 10))  # the first hand to leave a side ahead ends it
    assert game.status == Game.Status.COMPLETE
    assert game.summary["at_time"] == {"after_hand": 2, "winner": second, "margin": 6, "drawn": False,
                                       "totals": {first: 0, second: 6}}
    assert selectors.event_answer(event)["champion"] == second


def test_a_rounds_table_has_no_clock_of_its_own():
    people = Officials()
    event, _, _ = _at_time(people)
    table = open_matches(event, 1)[0]
    refused = api_client(people.director).post(f"/api/v1/events/{event.pk}/matches/{table.pk}/clock/",
                                               {"action": "start", "minutes": 5}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "match"


def test_a_tables_app_ends_the_game_at_time_through_the_api_as_the_page_does():
    people = Officials()
    _, rnd, game = _at_time(people)
    first, _ = game.player_names
    game = _record(people, game, knock(first, 2, 12))
    url = f"/api/v1/games/{game.pk}/end-at-time/"
    early = api_client(people.recorder).post(url, {}, format="json")
    assert early.status_code == 400
    assert "not at time" in early.json()["errors"][0]["message"]
    _time_is_up(rnd)
    assert api_client(user()).post(url, {}, format="json").status_code == 403  # not this table's official
    ended = api_client(people.recorder).post(url, {}, format="json")
    assert ended.status_code == 200, ended.content
    assert (ended.json()["status"], ended.json()["summary"]["winner"]) == ("complete", first)
    assert api_client(people.recorder).post(url, {}, format="json").status_code == 400  # once


def test_a_game_ended_at_time_before_any_hand_never_says_after_hand_0():
    people = Officials()
    _, rnd, empty = _at_time(people)
    _time_is_up(rnd)
    scoring.end_game_at_time(actor=as_actor(people.recorder), game=empty)
    sheet = Client().get(f"/games/{empty.pk}/").content.decode()
    assert "A draw at time</strong>: level before any hand was played" in sheet
    assert "after hand 0" not in sheet


def test_time_called_between_hands_is_never_said_to_be_during_the_last_hand_accepted_before_it():
    people = Officials()
    _, rnd, game = _at_time(people)
    first, _ = game.player_names
    game = _record(people, game, gin(first, 5))  # accepted before time: 30 to the first player
    _time_is_up(rnd)
    referee = Client()
    referee.force_login(people.recorder)
    referee.post(f"/games/{game.pk}/time/")
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.time_hand, game.time_between_hands) == (Game.Status.COMPLETE, 1, True)
    assert game.time_called_words() == "between hands, after hand 1"
    sheet = referee.get(f"/games/{game.pk}/").content.decode()
    assert "time having been called between hands" in sheet
    assert "the hand being played when time was called" not in sheet
    assert "while hand 1 was being played" not in sheet
    history = referee.get(f"/games/{game.pk}/history/").content.decode()
    assert "between hands, after hand 1: the game ended there" in history
    assert "during hand 1" not in history
    again = scoring.end_game_at_time
    with pytest.raises(Refusal, match="time was already called on this game, between hands, after hand 1"):
        again(actor=as_actor(people.recorder), game=game)


def test_a_level_bracket_game_ended_between_hands_plays_on_and_says_so():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], fmt="single_elimination", round_minutes=20)
    services.pair_next_round(actor=people.dir, event=event)
    match = event.matches.get(is_bye=False)
    api_client(people.director).post(f"/api/v1/events/{event.pk}/matches/{match.pk}/clock/", {"action": "start"},
                                     format="json")
    game = Game.objects.get(pk=match.match_games.get().game_id)
    game = _record(people, game, {"result": "dead"})  # accepted before time: level
    Match.objects.filter(pk=match.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    scoring.end_game_at_time(actor=as_actor(people.recorder), game=game)
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.time_hand, game.time_level, game.time_between_hands) == \
        (Game.Status.IN_PROGRESS, 1, "play_on", True)
    referee = Client()
    referee.force_login(people.recorder)
    page = referee.get(f"/games/{game.pk}/enter/").content.decode()
    assert ("Time was called between hands, after hand 1: the sides were level, so play goes on hand by hand "
            "until one side leads; that side wins by the difference.") in page
    assert "the game ends once that hand is accepted" not in page


def _ended_between_hands(people):
    event, rnd, game = _at_time(people)
    first, _ = game.player_names
    game = _record(people, game, gin(first, 5))
    _time_is_up(rnd)
    scoring.end_game_at_time(actor=as_actor(people.recorder), game=game)  # tapped while hand 2 was being played
    return event, Game.objects.get(pk=game.pk)


def test_a_director_takes_back_end_at_time_tapped_by_mistake_and_the_hand_being_played_then_ends_the_game():
    people = Officials()
    event, game = _ended_between_hands(people)
    assert game.status == Game.Status.COMPLETE
    assert selectors.event_answer(event)["standings"][0]["played"] == 1
    director = Client()
    director.force_login(people.director)
    page = director.get(f"/games/{game.pk}/").content.decode()
    assert "Take back time called" in page
    refused = director.post(f"/games/{game.pk}/time/undo/", {"reason": ""})
    assert Game.objects.get(pk=game.pk).time_hand == 1  # a reason is asked for; nothing changed
    assert "say why you take back time called on this table" in director.get(refused.url).content.decode()
    director.post(f"/games/{game.pk}/time/undo/", {"reason": "they were mid-hand"})
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.time_hand, game.time_level, game.time_called_at, game.time_between_hands) == \
        (Game.Status.IN_PROGRESS, None, "", None, False)
    assert game.status_changes.get().reason == "time called by mistake taken back: they were mid-hand"
    assert selectors.event_answer(event)["standings"][0]["played"] == 0
    first, second = game.player_names
    game = _record(people, game, knock(second, 2, 12))  # the hand that was being played: time ends after it
    assert (game.status, game.time_hand, game.time_between_hands) == (Game.Status.COMPLETE, 2, False)
    assert game.settled_result == (first, 15)  # gin 5 + 20 against a knock of 10


@pytest.mark.parametrize(("who", "status"), [("referee", 403), ("other_director", 403), ("passer-by", 403)])
def test_only_the_events_directors_and_organisers_take_back_time_called(who, status):
    people = Officials()
    _, game = _ended_between_hands(people)
    other = new_event(Officials(), names=["Cat", "Dan"])
    signed = {"referee": people.recorder, "other_director": other.directors.get(),
              "passer-by": user("passer-by")}[who]
    client = Client()
    client.force_login(signed)
    assert "Take back time called" not in client.get(f"/games/{game.pk}/").content.decode()
    assert client.post(f"/games/{game.pk}/time/undo/", {"reason": "x"}).status_code == status
    assert Game.objects.get(pk=game.pk).time_hand == 1
    with pytest.raises(Refusal):
        scoring.undo_end_at_time(actor=as_actor(signed), game=game, reason="x")


def test_time_called_during_a_hand_is_mended_by_correcting_that_hand_not_taken_back():
    people = Officials()
    _, rnd, game = _at_time(people)
    first, _ = game.player_names
    _time_is_up(rnd)
    game = _record(people, game, knock(first, 2, 12))
    with pytest.raises(Refusal, match="correct or void the hand it was called during instead"):
        scoring.undo_end_at_time(actor=as_actor(people.director), game=game, reason="oops")
