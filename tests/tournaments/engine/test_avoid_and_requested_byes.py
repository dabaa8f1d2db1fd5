"""Requested byes and pairs to avoid in the event engine: scored, honoured over whole events, refused in words."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.engine import EventError, run_event

from ...contracts import example, shows
from .helpers import entries, match, pairs, random_result, row

NAMES = [f"P{i:02d}" for i in range(40)]


def test_a_requested_bye_is_scored_as_a_draw_and_its_player_is_not_paired():
    request = {"format": "swiss", "entries": entries("Ann Bob Cleo Dev Eve"), "rounds": 3,
               "requested_byes": [{"round": 1, "name": "Eve"}]}
    answer = run_event(request)
    assert pairs(answer) == [["Ann", "Cleo"], ["Bob", "Dev"]]
    assert answer["next_round"]["byes"] == []
    assert answer["next_round"]["requested_byes"] == ["Eve"]
    played = {**request, "results": [{"round": 1, "players": ["Ann", "Cleo"], "winner": "Ann", "margin": 40},
                                     {"round": 1, "players": ["Bob", "Dev"], "winner": None}]}
    after = run_event(played)
    assert after["rounds_played"] == 1
    eve = row(after, "Eve")
    assert (eve["match_points"], eve["requested_byes"], eve["played"], eve["byes"], eve["wins"], eve["draws"],
            eve["margin"]) == (1, 1, 0, 0, 0, 0, 0)
    assert row(after, "Bob")["match_points"] == 1


def test_a_requested_bye_takes_the_events_requested_bye_points():
    request = {"format": "swiss", "entries": entries("Ann Bob Cleo"), "rounds": 2,
               "match_points": {"win": 3, "draw": 1, "requested_bye": 0},
               "requested_byes": [{"round": 1, "name": "Cleo"}],
               "results": [{"round": 1, "players": ["Ann", "Bob"], "winner": "Ann"}]}
    assert row(run_event(request), "Cleo")["match_points"] == 0
    del request["match_points"]["requested_bye"]
    request["match_points"]["draw"] = 2
    assert row(run_event(request), "Cleo")["match_points"] == 2


def test_a_requested_bye_scores_nothing_before_its_round_begins():
    request = {"format": "swiss", "entries": entries("Ann Bob Cleo Dev"), "rounds": 3,
               "requested_byes": [{"round": 3, "name": "Dev"}],
               "results": [{"round": 1, "players": ["Ann", "Cleo"], "winner": "Ann"},
                           {"round": 1, "players": ["Bob", "Dev"], "winner": "Bob"}]}
    answer = run_event(request)
    assert row(answer, "Dev")["match_points"] == 0
    assert answer["next_round"]["requested_byes"] == []


def test_a_requested_bye_beside_a_result_in_its_round_is_refused_in_words():
    request = {"format": "swiss", "entries": entries("Ann Bob"), "requested_byes": [{"round": 1, "name": "Ann"}],
               "results": [{"round": 1, "players": ["Ann", "Bob"], "winner": "Bob"}]}
    with pytest.raises(EventError) as refused:
        run_event(request)
    assert [p.as_dict() for p in refused.value.problems] == [
        {"result": None, "field": "requested_byes.0.round",
         "message": "Ann has a result in round 1: a requested bye is for a round not yet played"}]


def test_requested_byes_outside_swiss_and_beyond_the_last_round_are_refused():
    with pytest.raises(EventError) as refused:
        run_event({"format": "round_robin", "entries": entries("Ann Bob"),
                   "requested_byes": [{"round": 1, "name": "Ann"}]})
    assert refused.value.problems[0].field == "requested_byes"
    with pytest.raises(EventError) as refused:
        run_event({"format": "swiss", "entries": entries("Ann Bob"), "rounds": 2,
                   "requested_byes": [{"round": 3, "name": "Ann"}]})
    assert refused.value.problems[0].message == "must be at most 2; 3 given"


def test_a_never_pair_moves_the_fold_as_little_as_possible_in_round_1():
    request = {"format": "swiss", "entries": entries("A B C D E F G H"),
               "avoid": [{"players": ["A", "E"], "never": True}]}
    assert pairs(run_event(request)) == [["A", "F"], ["B", "E"], ["C", "G"], ["D", "H"]]


def test_an_avoid_pair_is_kept_apart_within_a_score_group_but_not_across_one():
    results = [{"round": 1, "players": ["A", "C"], "winner": "A"}, {"round": 1, "players": ["B", "D"], "winner": "B"}]
    request = {"format": "swiss", "entries": entries("A B C D"), "rounds": 3, "results": results}
    assert pairs(run_event(request)) == [["A", "B"], ["C", "D"]]
    avoided = run_event({**request, "avoid": [{"players": ["A", "B"], "never": False}]})
    assert pairs(avoided) == [["A", "B"], ["C", "D"]]  # keeping it apart would pair 2 points with 0
    assert avoided["next_round"]["avoids_broken"] == 1
    never = run_event({**request, "avoid": [{"players": ["A", "B"], "never": True}]})
    assert pairs(never) == [["A", "D"], ["B", "C"]]


def test_avoid_through_round_holds_only_to_that_round():
    request = {"format": "swiss", "entries": entries("A B C D"), "rounds": 3,
               "avoid": [{"players": ["A", "C"], "through_round": 1}]}
    assert pairs(run_event(request)) == [["A", "D"], ["B", "C"]]  # the fold (A v C) moved the least
    drawn = [{"round": 1, "players": ["A", "C"], "winner": None}, {"round": 1, "players": ["B", "D"], "winner": None}]
    request = {**request, "results": drawn}
    assert pairs(run_event({**request, "avoid": [{"players": ["A", "D"], "through_round": 2}]})) == [["A", "B"],
                                                                                                   ["C", "D"]]
    assert pairs(run_event({**request, "avoid": [{"players": ["A", "D"], "through_round": 1}]})) == [["A", "D"],
                                                                                                   ["B", "C"]]


def test_an_impossible_never_set_is_refused_naming_the_players():
    request = {"format": "swiss", "entries": entries("Ann Bob Cleo Dev"),
               "avoid": [{"players": ["Ann", "Bob"], "never": True}, {"players": ["Ann", "Cleo"], "never": True},
                         {"players": ["Ann", "Dev"], "never": True}]}
    with pytest.raises(EventError) as refused:
        run_event(request)
    assert [p.as_dict() for p in refused.value.problems] == [
        {"result": None, "field": "avoid",
         "message": "round 1 cannot be paired without pairing Ann with Cleo, whom a \"never\" pair keeps apart: "
                    "every pairing of the entries still in breaks one"}]


def test_avoid_in_a_round_robin_and_a_pair_given_twice_are_refused():
    with pytest.raises(EventError) as refused:
        run_event({"format": "round_robin", "entries": entries("A B C"), "avoid": [{"players": ["A", "B"]}]})
    assert refused.value.problems[0].field == "avoid"
    with pytest.raises(EventError) as refused:
        run_event({"format": "swiss", "entries": entries("A B C D"),
                   "avoid": [{"players": ["A", "B"]}, {"players": ["B", "A"], "never": True}]})
    assert [p.as_dict() for p in refused.value.problems] == [
        {"result": None, "field": "avoid.1.players", "message": "B and A are already a pair to avoid (avoid.0)"}]


def test_same_club_is_avoided_in_round_1_of_a_16_player_swiss_with_4_clubs():
    names = [f"{club}{i}" for i in range(1, 5) for club in "WXYZ"]  # seeds alternate the clubs: W1 X1 Y1 Z1 W2 ...
    clubs = {name: name[0] for name in names}
    avoid = [{"players": [a, b], "never": False} for i, a in enumerate(names) for b in names[i + 1:]
             if clubs[a] == clubs[b]]
    request = {"format": "swiss", "entries": entries(names), "rounds": 4, "avoid": avoid}
    plain = pairs(run_event({**request, "avoid": []}))
    assert sum(clubs[a] == clubs[b] for a, b in plain) == 8  # the fold pairs seed 1 with 9: the same club
    paired = pairs(run_event(request))
    assert sum(clubs[a] == clubs[b] for a, b in paired) == 0
    assert paired == [["W1", "X3"], ["X1", "W3"], ["Y1", "Z3"], ["Z1", "Y3"],
                      ["W2", "X4"], ["X2", "W4"], ["Y2", "Z4"], ["Z2", "Y4"]]
    assert run_event(request)["next_round"]["avoids_broken"] == 0


def test_a_never_pair_moves_the_brackets_seeds_as_little_as_possible():
    request = {"format": "single_elimination", "entries": entries("A B C D E F G H"),
               "avoid": [{"players": ["A", "H"], "never": True}]}
    answer = run_event(request)
    assert [match(answer, f"W1-{i}")["players"] for i in range(1, 5)] == [["A", "G"], ["D", "E"], ["B", "H"],
                                                                         ["C", "F"]]
    assert [row(answer, n)["seed"] for n in "AGH"] == [None, None, None]
    won = run_event({**request, "results": [{"match": "W1-1", "winner": "G", "margin": 10}]})
    assert match(won, "W2-1")["players"] == ["G", None]


def test_a_bracket_never_pair_no_exchange_separates_is_refused():
    with pytest.raises(EventError) as refused:
        run_event({"format": "single_elimination", "entries": entries("A B"),
                   "avoid": [{"players": ["A", "B"], "never": True}]})
    assert refused.value.problems[0].message.startswith("round 1 of the bracket cannot keep A and B apart")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_never_pairs_never_meet_over_a_whole_swiss(data):
    n = data.draw(st.integers(6, 24), label="entries")
    names = NAMES[:n]
    rounds = data.draw(st.integers(1, min(5, n // 3)), label="rounds")
    possible = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    never = data.draw(st.lists(st.sampled_from(possible), max_size=n // 2, unique=True), label="never pairs")
    asks = data.draw(st.lists(st.tuples(st.integers(1, rounds), st.sampled_from(names)), max_size=n // 3,
                              unique=True), label="requested byes")
    request = {"format": "swiss", "entries": entries(names), "rounds": rounds,
               "avoid": [{"players": list(p), "never": True} for p in never],
               "requested_byes": [{"round": r, "name": name} for r, name in asks]}
    kept_apart = {frozenset(p) for p in never}
    asked = {(r, name) for r, name in asks}
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    request["results"] = []
    while True:
        try:
            answer = run_event(request)
        except EventError as refused:  # only when no pairing of that round keeps every "never" pair apart
            fields = {p.field for p in refused.problems}
            assert fields == {"avoid"}
            round_no = max((r["round"] for r in request["results"]), default=0) + 1
            playing = [name for name in names if (round_no, name) not in asked]
            had_bye = {r["bye"] for r in request["results"] if "bye" in r}
            sitters = ([playing[-1]] if round_no == 1 else
                       [p for p in playing if p not in had_bye] or playing) if len(playing) % 2 else [None]
            assert not any(_pairable([p for p in playing if p != sitter], kept_apart) for sitter in sitters)
            return
        upcoming = answer["next_round"]
        if upcoming is None:
            assert answer["complete"]
            return
        r = upcoming["round"]
        for a, b in pairs(answer):
            assert frozenset((a, b)) not in kept_apart
            assert (r, a) not in asked
            assert (r, b) not in asked
        assert sorted(upcoming["requested_byes"]) == sorted(name for asked_round, name in asks if asked_round == r)
        request["results"] += [random_result(rng, r, a, b) for a, b in pairs(answer)]
        request["results"] += [{"round": r, "bye": name} for name in upcoming["byes"]]


def _pairable(players: list[str], kept_apart: set[frozenset[str]]) -> bool:
    """Whether the players can all be paired with no pair kept apart (by trying every way)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(frozenset((first, other)) not in kept_apart and _pairable([p for p in rest if p != other], kept_apart)
               for other in rest)


def test_the_contracts_worked_example_pairs_round_2_around_finns_bye_and_the_pairs_to_avoid():
    request = example("EVENTS", 4)
    assert shows(run_event(request)["next_round"], example("EVENTS", 5))
    without = run_event({**request, "avoid": []})
    assert pairs(without) == [["Ann", "Bob"], ["Cleo", "Eve"]]


def test_the_contracts_worked_example_credits_finns_requested_bye_as_a_draw():
    request = example("EVENTS", 4)
    played = {**request, "results": [*request["results"], *example("EVENTS", 6)]}
    assert shows(row(run_event(played), "Finn"), example("EVENTS", 7))


def test_the_contracts_never_example_is_the_engines_refusal():
    request = {"format": "swiss", "entries": entries("Ann Bob Cleo Dev"),
               "avoid": [{"players": ["Ann", other], "never": True} for other in ("Bob", "Cleo", "Dev")]}
    with pytest.raises(EventError) as refused:
        run_event(request)
    assert refused.value.as_dict() == example("EVENTS", 8)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_brackets_first_round_keeps_never_pairs_apart_or_refuses_and_plays_to_the_end(data):
    n = data.draw(st.integers(2, 16), label="entries")
    names = NAMES[:n]
    possible = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    never = data.draw(st.lists(st.sampled_from(possible), max_size=n, unique=True), label="never pairs")
    fmt = data.draw(st.sampled_from(["single_elimination", "double_elimination"]), label="format")
    request = {"format": fmt, "entries": entries(names), "results": [],
               "avoid": [{"players": list(p), "never": True} for p in never]}
    kept_apart = {frozenset(p) for p in never}
    try:
        answer = run_event(request)
    except EventError as refused:  # only when one exchange of seeds cannot separate a pair
        fields = {p.field for p in refused.problems}
        assert fields == {"avoid"}
        return
    first_round = [m["players"] for m in answer["bracket"] if m["bracket"] == "winners" and m["round"] == 1]
    assert all(frozenset(p) not in kept_apart for p in first_round if len(p) == 2)
    assert sorted(name for p in first_round for name in p) == sorted(names)  # every entry placed once
    rng = random.Random(n)
    while answer["pending"]:
        request["results"] += [{"match": m["match"], "winner": rng.choice(m["players"])} for m in answer["pending"]]
        answer = run_event(request)
    assert answer["complete"]
    assert answer["champion"] in names
