"""Properties over many random events played to the end by feeding the engine's own pairings back."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import entries, play_bracket, play_rounds
from .reference import brute_force, bye_order, whole_field

NAMES = [f"P{i:03d}" for i in range(300)]
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pairing_inputs(request, answer):
    """What the pairing of the answer's next round was made from, read back from request and answer."""
    r = answer["next_round"]["round"]
    dropped = request.get("dropped", {})
    joined = {e["name"]: e.get("joined", 1) for e in request["entries"]}

    def still_in(name):
        return joined[name] <= r and (name not in dropped or dropped[name] >= r)

    order = [s["name"] for s in answer["standings"] if still_in(s["name"])]
    mp = {s["name"]: s["match_points"] for s in answer["standings"] if still_in(s["name"])}
    met, had_bye = defaultdict(set), set()
    for res in request["results"]:
        if "bye" in res:
            had_bye.add(res["bye"])
        else:
            a, b = res["players"]
            met[a].add(b)
            met[b].add(a)
    return r, order, mp, met, had_bye


def swiss_request(data, *, largest):
    n = data.draw(st.integers(2, largest), label="entries")
    names = NAMES[:n]
    request = {"format": "swiss", "entries": entries(names)}
    if data.draw(st.booleans(), label="more rounds than usual"):
        request["rounds"] = data.draw(st.integers(1, n + 2), label="rounds")
    drops = data.draw(st.dictionaries(st.sampled_from(names), st.integers(0, 4), max_size=max(1, n // 4)),
                      label="drops")
    if drops:
        request["dropped"] = drops
    rounds = request.get("rounds", max(1, (n - 1).bit_length()))
    late = data.draw(st.lists(st.sampled_from(names), max_size=2 if rounds >= 2 else 0, unique=True),
                     label="late entries")
    for e in request["entries"]:
        if e["name"] in late:
            e["joined"] = 2
    return request


@SLOW
@given(data=st.data(), seed=st.integers(0, 2**32), favourites=st.booleans())
def test_swiss_pairings_are_optimal_against_trying_every_pairing(data, seed, favourites):
    request = swiss_request(data, largest=10)
    for before, answer in play_rounds(request, random.Random(seed), favourites=favourites):
        upcoming = answer["next_round"]
        if upcoming is None or upcoming["round"] == 1:
            continue
        _, order, mp, met, had_bye = pairing_inputs(before, answer)
        bye, rematches, cost = brute_force(order, mp, met, had_bye)
        assert (upcoming["bye"], upcoming["rematches"], upcoming["cost"]) == (bye, rematches, cost)
        paired = [n for p in upcoming["pairings"] for n in p["players"]] + upcoming["byes"]
        assert sorted(paired) == sorted(order)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32), favourites=st.booleans())
def test_swiss_pairings_cost_what_a_whole_field_networkx_matching_costs(data, seed, favourites):
    """The sparse window loses nothing: the same rematches, bye choice and cost as every pair allowed."""
    request = swiss_request(data, largest=60)
    for before, answer in play_rounds(request, random.Random(seed), favourites=favourites):
        upcoming = answer["next_round"]
        if upcoming is None or upcoming["round"] == 1:
            continue
        _, order, mp, met, had_bye = pairing_inputs(before, answer)
        rematches, bye_place, cost = whole_field(order, mp, met, had_bye)
        got_place = bye_order(order, mp, had_bye).index(upcoming["bye"]) if upcoming["bye"] else -1
        assert (upcoming["rematches"], got_place, upcoming["cost"]) == (rematches, bye_place, cost)


@SLOW
@given(n=st.integers(2, 80), seed=st.integers(0, 2**32), favourites=st.booleans())
def test_swiss_never_rematches_and_gives_one_bye_each_over_the_usual_rounds(n, seed, favourites):
    request = {"format": "swiss", "entries": entries(NAMES[:n])}
    *_, (final_request, final) = play_rounds(request, random.Random(seed), favourites=favourites)
    meetings = Counter(frozenset(r["players"]) for r in final_request["results"] if "players" in r)
    assert max(meetings.values(), default=1) == 1
    byes = Counter(r["bye"] for r in final_request["results"] if "bye" in r)
    assert max(byes.values(), default=1) == 1
    assert final["complete"] is True
    assert final["rounds_played"] == final["rounds"]


@SLOW
@given(n=st.integers(2, 24), seed=st.integers(0, 2**32))
def test_round_robin_meets_every_pair_exactly_once(n, seed):
    request = {"format": "round_robin", "entries": entries(NAMES[:n])}
    *_, (final_request, final) = play_rounds(request, random.Random(seed))
    meetings = Counter(frozenset(r["players"]) for r in final_request["results"])
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {1}
    assert final["complete"] is True
    assert final["rounds"] == (n - 1 if n % 2 == 0 else n)
    assert {s["byes"] for s in final["standings"]} == ({1} if n % 2 else {0})


@SLOW
@given(n=st.integers(2, 70), seed=st.integers(0, 2**32), third_place=st.booleans())
def test_single_elimination_takes_n_minus_1_matches_and_ranks_by_place(n, seed, third_place):
    request = {"format": "single_elimination", "entries": entries(NAMES[:n]), "third_place": third_place}
    *_, (_, final) = play_bracket(request, random.Random(seed))
    done = [m for m in final["bracket"] if m["status"] == "done"]
    third = [m for m in done if m["id"] == "3P"]
    assert len(done) - len(third) == n - 1
    assert final["complete"] is True
    final_match = next(m for m in final["bracket"] if m["bracket"] == "winners" and m["winner_to"] is None)
    assert final["champion"] == final_match["winner"]
    ranks = {s["name"]: s["rank"] for s in final["standings"]}
    assert ranks[final["champion"]] == 1
    assert ranks[next(p for p in final_match["players"] if p != final["champion"])] == 2
    assert Counter(ranks.values())[1] == 1
    assert [s["rank"] for s in final["standings"]] == sorted(s["rank"] for s in final["standings"])


DOUBLE_SIZES = [*range(2, 41), 64, 100, 128, 256]


@pytest.mark.parametrize("grand_final", ["reset", "single"])
@pytest.mark.parametrize("n", DOUBLE_SIZES)
def test_double_elimination_second_loss_out_no_early_rematch_and_true_routes(n, grand_final):
    rng = random.Random(n * 7 + len(grand_final))
    request = {"format": "double_elimination", "entries": entries(NAMES[:n]), "grand_final": grand_final}
    losses: Counter[str] = Counter()
    met: dict[str, set[str]] = defaultdict(set)
    answers = [answer for _, answer in play_bracket(request, rng)]
    final = answers[-1]
    assert final["complete"] is True
    by_id = {m["id"]: m for m in final["bracket"]}
    order = list(final["bracket"])
    for m in order:
        if m["status"] != "done":
            continue
        loser = next(p for p in m["players"] if p != m["winner"])
        if m["bracket"] == "losers" and m["round"] in (1, 2) and n >= 5:
            assert m["winner"] not in met[loser], f"{m['id']} is a rematch"
        met[loser].add(m["winner"])
        met[m["winner"]].add(loser)
        losses[loser] += 1
        # Where the contract says they go is where they went.
        if m["winner_to"]:
            assert m["winner"] in by_id[m["winner_to"]]["players"]
        if m["loser_to"]:
            assert loser in by_id[m["loser_to"]]["players"]
    for m in order:
        if m["status"] == "bye" and m["players"] and m["winner_to"]:
            assert m["players"][0] in by_id[m["winner_to"]]["players"]
    champion = final["champion"]
    for name in NAMES[:n]:
        if name == champion:
            assert losses[name] <= 1
            continue
        gf1 = by_id["GF1"]
        winners_champion_lost_single = grand_final == "single" and name == gf1["players"][0]
        assert losses[name] == (1 if winners_champion_lost_single else 2), name
    # Out on the second loss: nobody plays after it.
    seen: Counter[str] = Counter()
    for m in order:
        if m["status"] != "done":
            continue
        for p in m["players"]:
            assert seen[p] < 2, f"{p} plays {m['id']} after being knocked out"
        seen[next(p for p in m["players"] if p != m["winner"])] += 1
    assert sum(1 for m in final["bracket"] if m["status"] == "done") in (2 * n - 2, 2 * n - 1)
    places = [s["rank"] for s in final["standings"]]
    assert places[:2] == [1, 2]
    assert places == sorted(places)
