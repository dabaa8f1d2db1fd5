"""The live pairings' rows, loaded as plain values, say what the general match rows say of the same
matches: players, state, result, games won, each game's counted score."""

import pytest

from tournaments import selectors, services
from tournaments.live_tables import live_tables

from ..factories import as_actor
from .stored import Officials, entry, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db
SHOWN = ("id", "match", "round", "table", "players", "status", "winner", "margin", "forfeit", "source", "games_won")


def as_shown(rows):
    return [{**{k: r[k] for k in SHOWN},
             "game_details": [{k: g[k] for k in ("number", "status", "totals", "pending_hands")}
                              for g in r["game_details"]]} for r in rows]


def test_a_swiss_rounds_tables_every_state_equal_the_general_rows():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gail"], rounds=3,
                      match_format="best_of_3")
    services.pair_next_round(actor=people.dir, event=event)
    first, second, third = open_matches(event, 1)
    play_match(people, first, first.players.get(side=0).entry.player.display_name)  # decided by its games
    services.record_forfeit(actor=people.dir, match=second, winner=second.players.get(side=1).entry,
                            reason="no show")
    game = third.match_games.get(number=1).game
    from scoring import services as scoring

    scoring.record_hand(actor=as_actor(people.recorder), game=game,
                        data={"result": "knock", "knocker": game.player_names[0], "knocker_deadwood": 3,
                              "opponent_deadwood": 10})  # playing, a hand waiting for its PIN
    shown = as_shown(live_tables(event, 1))
    assert {r["status"] for r in shown} == {"decided", "playing", "bye"}
    assert shown == as_shown(selectors.matches(event, round=1))
    assert entry(event, "Ann").pk  # the entries' labels are the standings' names
    assert {n for r in shown for n in r["players"]} == {"Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gail"}


def test_a_brackets_open_matches_equal_the_general_rows():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], fmt="single_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    play_match(people, open_matches(event)[0], open_matches(event)[0].players.get(side=0).entry.player.display_name)
    bracket = [r for r in selectors.matches(event) if r["round"] is None]
    assert as_shown(live_tables(event, None)) == as_shown(bracket)
