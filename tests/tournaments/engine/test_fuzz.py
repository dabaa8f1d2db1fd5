"""Whatever JSON it is given, the engine answers or refuses with the error document, never a traceback."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.engine import EventError, run_event

FIELDS = ["format", "entries", "rounds", "match_points", "bye_margin", "forfeit_margin", "tiebreaks", "results",
          "dropped", "as_of_round", "third_place", "grand_final", "name", "seed", "joined", "round", "players",
          "winner", "margin", "forfeit", "bye", "match", "win", "draw", "loss"]
WORDS = ["swiss", "round_robin", "single_elimination", "double_elimination", "Ann", "Bob", "Cleo", "W1-1", "L1-1",
         "GF1", "GF2", "3P", "reset", "single", "buchholz", "head_to_head", "seed", "", " "]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-3, 12), st.floats(allow_nan=False),
    st.sampled_from(WORDS), st.text(max_size=70),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=6),
                               st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), children,
                                               max_size=6)),
    max_leaves=40,
)


def valid_document(fmt: str) -> dict:
    names = ["Ann", "Bob", "Cleo", "Dev", "Eve"]
    doc = {"format": fmt, "entries": [{"name": n} for n in names]}
    if fmt in ("swiss", "round_robin"):
        doc["results"] = [{"round": 1, "players": ["Ann", "Dev"], "winner": "Ann", "margin": 10},
                          {"round": 1, "players": ["Bob", "Cleo"], "winner": None}]
        doc["dropped"] = {"Eve": 1}
        doc["tiebreaks"] = ["match_points", "buchholz", "head_to_head"]
    else:
        doc["results"] = [{"match": "W1-2", "winner": "Dev", "margin": 5}]
    return doc


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, (*prefix, i))


def replaced(doc, path, new):
    if not path:
        return new
    head, *rest = path
    copy = dict(doc) if isinstance(doc, dict) else list(doc)
    copy[head] = replaced(doc[head], tuple(rest), new)
    return copy


def check(request):
    try:
        answer = run_event(request)
    except EventError as exc:
        document = exc.as_dict()
        assert document["errors"]
        for problem in document["errors"]:
            assert set(problem) == {"result", "field", "message"}
            assert problem["result"] is None or isinstance(problem["result"], int)
            assert problem["field"] is None or isinstance(problem["field"], str)
            assert isinstance(problem["message"], str)
            assert problem["message"]
        json.dumps(document)
        return
    assert {"format", "rounds", "rounds_played", "complete", "champion", "standings", "next_round", "pending"} <= set(
        answer)
    json.dumps(answer)


FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(request=json_values)
def test_any_json_value_is_answered_or_refused_with_the_error_document(request):
    check(request)


@FUZZ
@given(request=st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=8))
def test_any_object_of_contract_fields_is_answered_or_refused(request):
    check(request)


@FUZZ
@given(data=st.data(), fmt=st.sampled_from(["swiss", "round_robin", "single_elimination", "double_elimination"]))
def test_a_valid_document_with_any_part_replaced_is_answered_or_refused(data, fmt):
    doc = valid_document(fmt)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        path = data.draw(st.sampled_from(list(paths(doc))), label="path")
        doc = replaced(doc, path, data.draw(json_values, label="new value"))
    check(doc)
