"""The two-player fold remembers its steps (a stored game's sheet is scored whole on every hand recorded,
the same hands each time up to the last): an answer built from remembered steps must be exactly the
answer of a fresh fold, under whatever conventions, players, first dealer and target, and a refused
hand must still be refused with its own number."""

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import SheetError, ledger, score_sheet
from scoring.engine.sheet_reading import _clean_two_player_read

from .helpers import gin, knock, score
from .strategies import sheets


def _forget():
    ledger._steps.clear()
    _clean_two_player_read.cache_clear()


def _answer(request):
    try:
        return score_sheet(request)
    except SheetError as exc:
        return exc.problems


def _fresh(request):
    _forget()
    return _answer(request)


def _prefix(request, count):
    return {**request, "hands": request["hands"][:count]}


@settings(max_examples=60, deadline=None)
@given(sheets(), st.randoms(use_true_random=False))
def test_every_prefix_scored_from_remembered_steps_is_the_fresh_folds_answer(request, random):
    counts = list(range(len(request["hands"]) + 1))
    expected = {count: _fresh(_prefix(request, count)) for count in counts}
    _forget()
    for count in counts:  # as a game is recorded: each sheet the one before and a hand
        assert _answer(_prefix(request, count)) == expected[count]
    random.shuffle(counts)
    for count in counts:  # as pages read it: any prefix, in any order, again
        assert _answer(_prefix(request, count)) == expected[count]


def test_the_same_hands_under_other_conventions_players_dealer_or_target_are_folded_for_them():
    hands = [knock("A", 3, 9), gin("B", 20), knock("A", 2, 30)]
    variants = [
        ("classic", ("A", "B"), {}, hands),
        ({"preset": "classic", "gin_bonus": 25}, ("A", "B"), {}, hands),
        ({"preset": "classic", "dealer_rule": "alternate"}, ("A", "B"), {}, hands),
        ("classic", ("A", "B"), {"first_dealer": "B"}, hands),
        ({"preset": "classic", "target": 40}, ("A", "B"), {}, hands[:2]),
        ("classic", ("B", "A"), {}, hands),
    ]
    fresh = []
    for conventions, players, extra, played in variants:
        _forget()
        fresh.append(score(conventions, played, players=players, **extra))
    _forget()
    remembered = [score(conventions, played, players=players, **extra)
                  for conventions, players, extra, played in variants]
    assert remembered == fresh
    assert (fresh[0]["players"]["B"]["points"], fresh[1]["players"]["B"]["points"]) == (40, 45)
    assert [h["dealer"] for h in fresh[2]["hands"]] == ["A", "B", "A"]
    assert [h["dealer"] for h in fresh[3]["hands"]] == ["B", "B", "A"]
    assert (fresh[0]["complete"], fresh[4]["complete"], fresh[4]["winner"]) == (False, True, "B")


def test_a_hand_after_a_remembered_completion_or_an_illegal_one_is_refused_with_its_own_number():
    _forget()
    done = [gin("A", 90), knock("B", 3, 9)]
    assert score({"preset": "classic", "target": 100}, done[:1])["complete"]
    with pytest.raises(SheetError) as exc:
        score({"preset": "classic", "target": 100}, done)
    assert [(p.hand, p.field) for p in exc.value.problems] == [(2, None)]
    assert "already complete after hand 1" in exc.value.problems[0].message
    hands = [knock("A", 3, 9), knock("B", 2, 8)]
    score("classic", hands)
    with pytest.raises(SheetError) as exc:
        score("classic", [*hands, knock("A", 11, 20)])
    assert [(p.hand, p.field) for p in exc.value.problems] == [(3, "knocker_deadwood")]


def test_the_memory_holds_a_bounded_number_of_steps(monkeypatch):
    monkeypatch.setattr(ledger, "_STEPS_REMEMBERED", 50)
    _forget()
    for deadwood in range(1, 10):
        for other in range(10, 20):
            score({"preset": "classic", "target": 10000}, [knock("A", deadwood, other)] * 6)
            assert len(ledger._steps) <= 50
    first = score({"preset": "classic", "target": 10000}, [knock("A", 1, 10)] * 6)  # forgotten: folded afresh
    _forget()
    assert first == score({"preset": "classic", "target": 10000}, [knock("A", 1, 10)] * 6)


KNOCKER = ["7H", "8H", "9H", "2S", "2D", "2C", "KD", "KC", "KS", "9C"]
OPPONENT = ["3C", "4C", "5C", "6D", "8D", "8C", "QH", "QS", "JD", "TD"]


def test_steps_after_a_hand_that_cannot_be_a_key_are_folded_afresh_and_not_remembered():
    cards = {"result": "knock", "knocker": "A", "knocker_cards": KNOCKER, "opponent_cards": OPPONENT}
    hands = [knock("A", 3, 9), cards, knock("B", 2, 8), knock("A", 1, 5)]
    fresh = _fresh({"conventions": "classic", "players": ["A", "B"], "hands": hands})
    _forget()
    assert score("classic", hands) == fresh
    assert len(ledger._steps) == 2  # the game's root and hand 1: nothing from the card-level hand on
    assert score("classic", hands) == fresh


def test_folds_on_many_threads_at_once_give_each_its_own_answer():
    sheets_ = [[knock("A", d, d + 5)] * n for d in range(1, 6) for n in range(1, 12)]
    _forget()
    expected = [score({"preset": "classic", "target": 10000}, hands) for hands in sheets_]
    _forget()
    failures = []

    def fold_all(offset):
        for i in range(len(sheets_)):
            j = (i + offset) % len(sheets_)
            if score({"preset": "classic", "target": 10000}, sheets_[j]) != expected[j]:
                failures.append(j)

    threads = [threading.Thread(target=fold_all, args=(k * 7,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
