"""A two-player hand read cleanly once is taken from memory the next time its sheet is read (every
recorded hand reads its whole game again): the answers must be exactly those of a fresh read, and a
hand with a problem is reported with its own number every time."""

import pytest
from hypothesis import given, settings

from scoring.engine import SheetError, score_sheet
from scoring.engine.sheet_reading import _clean_two_player_read, _frozen, _thawed

from .helpers import knock, score
from .strategies import sheets


def _fresh(request):
    _clean_two_player_read.cache_clear()
    return score_sheet(request)


@settings(max_examples=60, deadline=None)
@given(sheets())
def test_a_sheet_read_again_from_memory_scores_exactly_as_a_fresh_read(request):
    assert _answer(score_sheet, request) == _answer(_fresh, request)
    assert _answer(score_sheet, request) == _answer(_fresh, request)


def _answer(scorer, request):
    """The answer, or the problems when the sheet is refused."""
    try:
        return scorer(request)
    except SheetError as exc:
        return exc.problems


def test_the_same_hand_under_other_players_or_conventions_is_read_for_them():
    _clean_two_player_read.cache_clear()
    assert score("classic", [knock("A", 3, 9)])["hands"][0]["winner"] == "A"
    # The same JSON between other players names nobody at this table: a problem, not A's hand.
    with pytest.raises(SheetError) as exc:
        score("classic", [knock("A", 3, 9)], players=("C", "D"))
    assert [(p.hand, p.field) for p in exc.value.problems] == [(1, "knocker")]
    # Under a club's lower knock limit the hand read before is refused, as a fresh read refuses it.
    with pytest.raises(SheetError) as exc:
        score({"preset": "classic", "knock_limit": 2}, [knock("A", 3, 9)])
    assert [(p.hand, p.field) for p in exc.value.problems] == [(1, "knocker_deadwood")]


def test_a_hand_with_a_problem_names_its_own_number_each_time_it_is_read():
    _clean_two_player_read.cache_clear()
    bad = knock("A", -1, 9)
    for hands, number in (([bad], 1), ([knock("A", 3, 9), bad], 2), ([knock("A", 3, 9), knock("B", 2, 8), bad], 3)):
        with pytest.raises(SheetError) as exc:
            score("classic", hands)
        assert [(p.hand, p.field) for p in exc.value.problems] == [(number, "knocker_deadwood")]


def test_json_values_that_compare_equal_in_python_are_not_the_same_hand():
    _clean_two_player_read.cache_clear()
    assert score("classic", [knock("A", 1, 9)])["hands"][0]["knocker_deadwood"] == 1
    # true == 1 in Python, but a deadwood of true is no number: refused, not taken for the 1 read before.
    with pytest.raises(SheetError) as exc:
        score("classic", [knock("A", True, 9)])
    assert [(p.hand, p.field) for p in exc.value.problems] == [(1, "knocker_deadwood")]
    assert _frozen([1, {"a": True}]) != _frozen([True, {"a": 1}])
    assert _frozen({"a": []}) != _frozen({"a": {}})
    value = {"result": "knock", "knocker_cards": ["AS", "2S"], "x": {"y": [None, 1.5]}}
    assert _thawed(_frozen(value)) == value
