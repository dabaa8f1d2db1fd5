"""Who may accept a scored hand: the side it goes against, in every table format. No database."""

from scoring.engine import score_sheet
from scoring.engine.acceptance import losing_side, players_of, winning_side

from .helpers import dead, gin, knock


def only_hand(request):
    return score_sheet(request)["hands"][-1]


def test_two_players_the_loser_accepts_a_knock_and_the_knocker_accepts_an_undercut():
    won = only_hand({"conventions": "classic", "players": ["Ann", "Bob"], "hands": [knock("Ann", 6, 19)]})
    assert (winning_side(won), losing_side(won)) == ({"Ann"}, {"Bob"})
    undercut = only_hand({"conventions": "classic", "players": ["Ann", "Bob"], "hands": [knock("Ann", 8, 5)]})
    assert (winning_side(undercut), losing_side(undercut)) == ({"Bob"}, {"Ann"})


def test_a_dead_hand_pays_nobody_and_either_player_may_accept_it():
    nothing = only_hand({"conventions": "classic", "players": ["Ann", "Bob"], "hands": [dead()]})
    assert (winning_side(nothing), losing_side(nothing)) == (set(), {"Ann", "Bob"})


def test_rotation_the_player_sitting_out_is_on_neither_side():
    scored = only_hand({"format": "rotation", "conventions": "classic", "players": ["Ann", "Bob", "Cat"],
                        "first_dealer": "Ann", "hands": [knock("Bob", 3, 20)]})
    assert scored["sitting_out"] == "Ann"
    assert players_of(scored) == {"Bob", "Cat"}
    assert losing_side(scored) == {"Cat"}


def test_jersey_either_opponent_of_the_winner_accepts():
    scored = only_hand({"format": "jersey", "conventions": "classic", "players": ["Ann", "Bob", "Cat"],
                        "hands": [{"result": "knock", "knocker": "Ann", "knocker_deadwood": 4,
                                   "deadwood": {"Bob": 12, "Cat": 20}}]})
    assert (winning_side(scored), losing_side(scored)) == ({"Ann"}, {"Bob", "Cat"})


def test_partnership_a_player_of_the_team_that_did_not_score_accepts():
    teams = [["N", "S"], ["E", "W"]]
    request = {"format": "partnership", "conventions": "classic", "teams": teams, "first_dealer": "N",
               "hands": [{"tables": [knock("N", 2, 30), knock("S", 5, 9)]}]}
    scored = only_hand(request)
    assert scored["scoring_team"] == 0
    assert (winning_side(scored, teams), losing_side(scored, teams)) == ({"N", "S"}, {"E", "W"})
    request["hands"] = [{"tables": [gin("N", 10), gin("W", 10)]}]
    even = only_hand(request)
    assert even["scoring_team"] is None
    assert losing_side(even, teams) == {"N", "S", "E", "W"}
