"""Brackets through the services: byes, a forfeit, a correction that changes a decided match, the
warning it raises and the reset of the match opened from it; best-of-3 margins."""

import pytest

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game
from scoring.policy import is_official
from tournaments import selectors, services
from tournaments.engine import run_event
from tournaments.models import Event, Match

from ..factories import as_actor, gin, user
from .stored import Officials, entry, new_event, play_game, play_match

pytestmark = pytest.mark.django_db

SIX = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"]


def _seeded(people, names, **options):
    event = new_event(people, names=names, **options)
    services.seed_entries(actor=people.dir, event=event, method="manual", order=[entry(event, n).pk for n in names])
    return event


def _open(event):
    return {r["match"]: r for r in selectors.matches(event) if r["status"] in ("waiting", "playing")}


def _play_out(people, event, seed_of):
    """Pair and play every bracket match (the better seed wins) until the event is complete."""
    while True:
        for row in _open(event).values():
            winner = min(row["players"], key=seed_of.get)
            play_match(people, Match.objects.get(pk=row["id"]), winner)
        if selectors.event_answer(event)["complete"]:
            return
        services.pair_next_round(actor=people.dir, event=event)


def test_six_player_double_elimination_with_bye_forfeit_correction_warning_and_reset():
    people = Officials()
    event = _seeded(people, SIX, fmt="double_elimination", forfeit_margin=25)
    seed_of = {n: i for i, n in enumerate(SIX, start=1)}

    opened = services.pair_next_round(actor=people.dir, event=event)
    # Seeds 1 and 2 have byes in the winners' first round: only W1-2 and W1-4 are played.
    assert [(m.bracket_id, m.table) for m in opened.matches] == [("W1-2", 1), ("W1-4", 2)]
    assert sorted(_open(event)) == ["W1-2", "W1-4"]
    assert _open(event)["W1-2"]["players"] == ["Dev", "Eve"]
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING

    w12, w14 = opened.matches
    play_match(people, w12, "Dev")
    services.record_forfeit(actor=people.dir, match=w14, winner=entry(event, "Finn"), reason="Cleo left ill")
    rows = {r["match"]: r for r in selectors.matches(event)}
    assert (rows["W1-2"]["status"], rows["W1-2"]["winner"], rows["W1-2"]["source"]) == ("decided", "Dev", "games")
    assert (rows["W1-4"]["winner"], rows["W1-4"]["margin"], rows["W1-4"]["forfeit"]) == ("Finn", 25, True)
    assert rows["W1-4"]["director_results"][0]["reason"] == "Cleo left ill"

    opened = services.pair_next_round(actor=people.dir, event=event)
    assert sorted(m.bracket_id for m in opened.matches) == ["W2-1", "W2-2"]
    assert _open(event)["W2-1"]["players"] == ["Ann", "Dev"]
    with pytest.raises(Refusal, match="no bracket match is ready"):
        services.pair_next_round(actor=people.dir, event=event)

    # A correction in W1-2's game: Eve, not Dev, won it. W2-1 was opened as Ann v Dev.
    game = Game.objects.get(pk=rows["W1-2"]["games"][0])
    scoring.correct_hand(actor=as_actor(people.recorder), game=game, number=1, data=gin("Eve", 40),
                         reason="knocker misread")
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=game, number=1)
    answer = selectors.event_answer(event)
    bracket = {r["id"]: r for r in answer["bracket"]}
    assert bracket["W1-2"]["winner"] == "Eve"
    assert bracket["W2-1"]["players"] == ["Ann", "Eve"]
    warnings = selectors.event_warnings(event)
    assert [(w["kind"], w["match"], w["resettable"]) for w in warnings] == [("bracket_players_changed", "W2-1", True)]
    assert "W2-1 (Ann v Dev)" in warnings[0]["message"]
    assert "Ann v Eve" in warnings[0]["message"]
    with pytest.raises(Refusal, match="W2-1"):
        services.pair_next_round(actor=people.dir, event=event)

    reset = services.reset_dependent_bracket_matches(actor=people.dir, event=event, reason="W1-2 corrected")
    assert [m.bracket_id for m in reset.reset] == ["W2-1"]
    assert [m.bracket_id for m in reset.matches] == ["W2-1"]
    assert _open(event)["W2-1"]["players"] == ["Ann", "Eve"]
    old = Match.objects.get(pk=reset.reset[0].pk)
    assert old.reset_reason == "W1-2 corrected"
    closed = Game.objects.get(pk=old.match_games.get().game_id)
    assert (closed.status, closed.status_words) == (Game.Status.ABANDONED, "Closed: its bracket match was reset")
    assert selectors.event_warnings(event) == []

    _play_out(people, event, seed_of)
    answer = selectors.event_answer(event)
    assert answer["champion"] == "Ann"
    assert run_event(selectors.event_document(event))["standings"] == [
        {k: v for k, v in row.items() if k != "entry"} for row in answer["standings"]]
    assert [(r["name"], r["rank"]) for r in answer["standings"]] == [
        ("Ann", 1), ("Bob", 2), ("Cleo", 3), ("Dev", 4), ("Eve", 5), ("Finn", 5)]
    event.refresh_from_db()
    assert event.status == Event.Status.COMPLETE
    # Every live bracket match was played as a game (or forfeited); byes made no match.
    assert sorted(Match.objects.filter(event=event, reset_at__isnull=True).values_list("bracket_id", flat=True)) == [
        "GF1", "L2-1", "L2-2", "L3-1", "L4-1", "W1-2", "W1-4", "W2-1", "W2-2", "W3-1"]


def test_best_of_three_margin_is_the_net_over_the_games_played():
    people = Officials()
    event = _seeded(people, ["Ann", "Bob"], fmt="single_elimination", match_format="best_of_3")
    opened = services.pair_next_round(actor=people.dir, event=event)
    (final,) = opened.matches
    games = [mg.game for mg in final.match_games.order_by("number")]
    assert [g.table_label for g in games] == ["Table 1 · W1-1 · game 1", "Table 1 · W1-1 · game 2",
                                              "Table 1 · W1-1 · game 3"]
    assert len(opened.tokens) == 3
    play_game(people, games[0], "Ann", 30)
    row = selectors.matches(event)[0]
    assert (row["status"], row["games_won"]) == ("playing", [1, 0])
    play_game(people, games[1], "Bob", 40)
    play_game(people, games[2], "Ann", 60)
    settled = [Game.objects.get(pk=g.pk).summary["margin"] for g in games]
    assert settled == [270, 280, 300]  # 30/40/60 + gin 20 + box 20 + game 100 + shutout 100
    row = selectors.matches(event)[0]
    assert (row["status"], row["winner"], row["margin"], row["games_won"]) == ("decided", "Ann", 270 - 280 + 300,
                                                                               [2, 1])
    assert selectors.event_answer(event)["champion"] == "Ann"


def test_a_bracket_match_opens_itself_as_soon_as_both_its_players_are_known(django_capture_on_commit_callbacks):
    """No director's click: the result that completes W1-2 (and the forfeit of W1-4) opens the round-2
    matches with their games and tables, for the pairings page and the referees' tables. Their referee
    links are made when a director prints the table sheet."""
    people = Officials()
    event = _seeded(people, SIX, fmt="double_elimination", forfeit_margin=25)
    w12, w14 = services.pair_next_round(actor=people.dir, event=event).matches
    with django_capture_on_commit_callbacks(execute=True):
        play_match(people, w12, "Dev")
    # Ann (her bye) and Dev are known: W2-1 opened by itself; W2-2 still waits for W1-4.
    assert sorted(_open(event)) == ["W1-4", "W2-1"]
    opened = Match.objects.get(event=event, bracket_id="W2-1", reset_at__isnull=True)
    assert [p.entry.player.display_name for p in opened.players.order_by("side")] == ["Ann", "Dev"]
    assert opened.table == 1  # W1-2's table is free again
    game = opened.match_games.get().game
    assert game.referee_links.count() == 0
    officials = [people.director, people.recorder, people.confirmer, user(), people.organiser]
    assert [is_official(as_actor(u), game) for u in officials] == [True, True, True, False, True]
    with django_capture_on_commit_callbacks(execute=True):
        services.record_forfeit(actor=people.dir, match=w14, winner=entry(event, "Finn"), reason="Cleo left ill")
    assert sorted(_open(event)) == ["W2-1", "W2-2"]  # the losers' first round is two byes
    tables = [(t["match"], t["table"]) for t in selectors.my_tables(as_actor(people.recorder))]
    assert ("W2-1", 1) in tables
    # Its referee, signed in, starts the game before any card is printed: it still gets its link (it has
    # none that works), though a round's new links leave a started table's working link alone.
    scoring.record_hand(actor=as_actor(people.recorder), game=game, data={
        "result": "knock", "knocker": game.player_names[0], "knocker_deadwood": 2, "opponent_deadwood": 9})
    tokens = services.issue_table_links(actor=people.dir, event=event)
    assert set(tokens) == {mg.game_id for m in Match.objects.filter(event=event, reset_at__isnull=True,
                                                                     bracket_id__in=_open(event))
                           for mg in m.match_games.all()}
