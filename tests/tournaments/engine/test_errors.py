"""Every refusal of EVENTS.md: the engine names the result, the field and what is wrong."""

import pytest

from tournaments.engine import EventError, run_event

from ..error_cases import ERROR_CASES, FOUR, match, swiss


@pytest.mark.parametrize(("request_doc", "result", "field", "words"), [case[1:] for case in ERROR_CASES],
                         ids=[case[0] for case in ERROR_CASES])
def test_each_refusal_names_result_field_and_problem(request_doc, result, field, words):
    with pytest.raises(EventError) as caught:
        run_event(request_doc)
    problems = caught.value.as_dict()["errors"]
    assert any(p["result"] == result and p["field"] == field and words in p["message"] for p in problems), problems


def test_every_problem_is_reported_not_only_the_first():
    request = swiss(tiebreaks=["sonneborn"], dropped={"Zed": 1},
                    results=[match(1, "Ann", "Cleo", "Bob"), match(1, "Bob", "Dev", None, margin=4),
                             match(9, "Ann", "Bob", "Ann")])
    with pytest.raises(EventError) as caught:
        run_event(request)
    where = [(p["result"], p["field"]) for p in caught.value.as_dict()["errors"]]
    assert where == [(None, "tiebreaks.0"), (None, "dropped.Zed"), (1, "winner"), (2, "margin"), (3, "round")]


def test_results_are_checked_even_when_an_entry_is_wrong():
    request = {"format": "swiss", "entries": [*FOUR, {"name": ""}], "results": [{"round": 0, "bye": "Ann"}]}
    with pytest.raises(EventError) as caught:
        run_event(request)
    assert [(p["result"], p["field"]) for p in caught.value.as_dict()["errors"]] == [
        (None, "entries.4.name"), (1, "round")]
