"""Helpers for the event engine's tests: names, answers by name, and playing an event to its end."""

from __future__ import annotations

import random
from typing import Any

from tournaments.engine import run_event


def entries(names: str | list[str]) -> list[dict[str, Any]]:
    return [{"name": n} for n in (names.split() if isinstance(names, str) else names)]


def order(answer: dict[str, Any]) -> list[str]:
    return [s["name"] for s in answer["standings"]]


def ranks(answer: dict[str, Any]) -> list[tuple[int, str]]:
    return [(s["rank"], s["name"]) for s in answer["standings"]]


def row(answer: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in answer["standings"] if s["name"] == name)


def pairs(answer: dict[str, Any]) -> list[list[str]]:
    return [p["players"] for p in answer["next_round"]["pairings"]]


def match(answer: dict[str, Any], match_id: str) -> dict[str, Any]:
    return next(m for m in answer["bracket"] if m["id"] == match_id)


def random_result(rng: random.Random, round_no: int, a: str, b: str, *, draws: bool = True) -> dict[str, Any]:
    roll = rng.random()
    if draws and roll < 0.1:
        return {"round": round_no, "players": [a, b], "winner": None}
    result = {"round": round_no, "players": [a, b], "winner": a if roll < 0.55 else b, "margin": rng.randrange(0, 300)}
    if rng.random() < 0.05:
        result["forfeit"] = True
        del result["margin"]
    return result


def play_rounds(request: dict[str, Any], rng: random.Random, *, draws: bool = True, favourites: bool = False):
    """Feed the engine's own pairings back with random results until the event is complete.

    Yields (request before the round, answer) for every round paired. ``favourites``: the better-placed
    player always wins (results that follow the seeds).
    """
    request = dict(request, results=list(request.get("results", [])))
    while True:
        answer = run_event(request)
        upcoming = answer["next_round"]
        if upcoming is None:
            yield request, answer
            return
        yield request, answer
        r = upcoming["round"]
        for p in upcoming["pairings"]:
            a, b = p["players"]
            if favourites:
                request["results"].append({"round": r, "players": [a, b], "winner": a, "margin": 25})
            else:
                request["results"].append(random_result(rng, r, a, b, draws=draws))
        if request["format"] == "swiss":
            request["results"].extend({"round": r, "bye": name} for name in upcoming["byes"])


def play_bracket(request: dict[str, Any], rng: random.Random):
    """Random winners for every ready match until the bracket is complete; yields each answer."""
    request = dict(request, results=list(request.get("results", [])))
    while True:
        answer = run_event(request)
        yield request, answer
        if not answer["pending"]:
            return
        for owed in answer["pending"]:
            request["results"].append({"match": owed["match"], "winner": rng.choice(owed["players"]),
                                       "margin": rng.randrange(1, 200)})
