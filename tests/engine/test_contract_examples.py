"""SCORESHEET.md's own examples (read from docs/contracts/SCORESHEET.md, the one copy), answered by the engine:
its request scored, its answer (of the request's first hand) shown field for field, its error's shape."""

import pytest

from scoring.engine import SheetError, score_sheet

from ..contracts import example, shows

REQUEST, ANSWER, ERROR = example("SCORESHEET", 1), example("SCORESHEET", 2), example("SCORESHEET", 3)


def test_the_contracts_request_is_scored():
    answer = score_sheet(REQUEST)
    assert [h["points"] for h in answer["hands"]] == [13, 51, 32, 0]
    assert answer["players"]["Bob"]["total"] == 123


def test_the_contracts_answer_is_the_engines_answer_to_its_first_hand():
    answer = score_sheet({**REQUEST, "hands": REQUEST["hands"][:1]})
    conventions = {k: v for k, v in ANSWER["conventions"].items() if k != "..."}  # "every field, resolved"
    assert shows(answer, {**ANSWER, "conventions": conventions})
    assert len(answer["conventions"]) > len(conventions)


def test_the_contracts_error_is_the_engines_refusal_of_a_knock_over_the_limit():
    hands = [*REQUEST["hands"][:2], {"result": "knock", "knocker": "Ann", "knocker_deadwood": 11,
                                     "opponent_deadwood": 20}]
    with pytest.raises(SheetError) as refused:
        score_sheet({**REQUEST, "hands": hands})
    (said,) = refused.value.as_dict()["errors"]
    (expected,) = ERROR["errors"]
    assert (said["hand"], said["field"], set(said)) == (expected["hand"], expected["field"], set(expected))
    assert "10" in said["message"]
    assert "11" in said["message"]
