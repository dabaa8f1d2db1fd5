"""A game stopped at time: it ends after the hand being played when time was called; the side ahead in
running points wins by the difference; level is a draw, or in elimination play goes on until one leads."""

import pytest

from scoring.engine.time_limit import settle_at_time

PLAYERS = ("Ann", "Bob")
SHEET = [{"Ann": 25, "Bob": 0}, {"Ann": 25, "Bob": 25}, {"Ann": 25, "Bob": 25}, {"Ann": 57, "Bob": 25}]


def test_the_side_ahead_after_the_hand_in_play_wins_by_the_difference():
    at = settle_at_time(PLAYERS, SHEET[:1], time_hand=1, level="draw")
    assert at.as_dict() == {"after_hand": 1, "winner": "Ann", "margin": 25, "drawn": False,
                            "totals": {"Ann": 25, "Bob": 0}}


def test_level_at_time_is_a_draw_where_draws_are_allowed():
    at = settle_at_time(PLAYERS, SHEET[:2], time_hand=2, level="draw")
    assert (at.after_hand, at.winner, at.margin, at.drawn) == (2, None, 0, True)


def test_level_at_time_in_elimination_plays_on_until_one_side_leads():
    assert settle_at_time(PLAYERS, SHEET[:2], time_hand=2, level="play_on") is None
    assert settle_at_time(PLAYERS, SHEET[:3], time_hand=2, level="play_on") is None
    at = settle_at_time(PLAYERS, SHEET, time_hand=2, level="play_on")
    assert (at.after_hand, at.winner, at.margin) == (4, "Ann", 32)


def test_nothing_is_settled_until_the_hand_in_play_is_counted():
    assert settle_at_time(PLAYERS, SHEET[:1], time_hand=2, level="draw") is None


def test_time_called_between_hands_settles_on_the_totals_so_far_or_before_any_hand():
    assert settle_at_time(PLAYERS, SHEET[:1], time_hand=1, level="draw").winner == "Ann"
    at = settle_at_time(PLAYERS, [], time_hand=0, level="draw")
    assert (at.after_hand, at.drawn) == (0, True)


def test_an_unknown_level_is_a_bug_and_loud():
    with pytest.raises(ValueError, match="level must be one of"):
        settle_at_time(PLAYERS, SHEET, time_hand=1, level="coin_toss")
