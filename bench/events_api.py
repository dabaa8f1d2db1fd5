"""Tournament-night benchmark: the standings every phone refreshes, behind gunicorn on PostgreSQL.

Run by ``make bench`` (bench/run_api.sh starts a durable throwaway PostgreSQL). It builds a 1,000-entry
Swiss through the services: nine rounds paired by the engine and every game played (a gin that ends
it) and confirmed, then round 10 paired. Then, with 32 keep-alive clients for the same time each:

- reference: ``POST /api/v1/ping/`` (token authentication, no database write);
- the standings as JSON: ``GET /api/v1/events/{id}/standings/`` (with a token, as a program reads it);
- the standings page: ``GET /events/{id}/standings/`` (anonymous, as a phone reads it: 100 places),
  and its refresh every 5 s (``?fragment=1``, what an open page asks for);
- the pairings page: ``GET /events/{id}/pairings/`` (round 10's tables, 500 of them).

Requests per second, p50 and p95 of each, and each rate against the reference's. Last, the time to
record the result that changes the standings: a referee confirms the hand that completes a round-10
game (the answer is recomputed once that commits, in the same request), then the first standings
read after it, which must already show the result.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api import CLIENTS, SECONDS, WARMUP, WORKERS, phase, start_gunicorn, start_job_worker

ENTRIES = int(os.environ.get("BENCH_EVENT_ENTRIES", "1000"))
ROUNDS_PLAYED = int(os.environ.get("BENCH_EVENT_ROUNDS", "9"))
TIMED_RESULTS = 5


def setup() -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789")
    os.environ.setdefault("PIN_KEYS", "bench:bench-only-pin-key-0123456789")
    import django

    django.setup()
    from django.core.management import call_command

    from core import jobs

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # the pages' assets, as in production
    with jobs.inline():  # built here in one go: each round's answer worked out as it is played
        return build()


def build() -> dict:
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from scoring import services as scoring
    from scoring.models import Game
    from scoring.policy import Actor
    from tournaments import selectors, services
    from tournaments.models import Match

    users = get_user_model().objects
    stamp = int(time.time())
    boss = users.create_user(f"bench-boss-{stamp}", is_staff=True)
    director, referee, second = (users.create_user(f"bench-{role}-{stamp}") for role in ("td", "ref", "second"))
    td, ref, sec = Actor(user=director), Actor(user=referee), Actor(user=second)
    event = services.create_event(actor=Actor(user=boss), name=f"Bench Swiss {stamp}", format="swiss",
                                  rounds=ROUNDS_PLAYED + 1, conventions={"preset": "classic", "target": 50},
                                  directors=[director], referees=[referee, second])
    started = time.perf_counter()
    services.add_entries_from_text(actor=td, event=event, club=f"bench-{stamp}",
                                   text="\n".join(f"Player {i:04d},{2400 - i}" for i in range(ENTRIES)))
    services.seed_entries(actor=td, event=event, method="rating")
    rng = random.Random(7)
    for number in range(1, ROUNDS_PLAYED + 1):
        services.pair_next_round(actor=td, event=event)
        # One transaction per round: the answer is recomputed once when it commits, not once per game.
        with transaction.atomic():
            for match in Match.objects.filter(round__event=event, round__number=number, is_bye=False):
                game = Game.objects.get(pk=match.match_games.get().game_id)
                hand = {"result": "gin", "knocker": rng.choice(game.player_names),
                        "opponent_deadwood": rng.randint(30, 60)}
                scoring.record_hand(actor=ref, game=game, data=hand)
                scoring.confirm_hand(actor=sec, game=game, number=1)
        print(f"  round {number} played ({time.perf_counter() - started:.0f} s)", flush=True)
    services.pair_next_round(actor=td, event=event)
    answer = selectors.event_answer(event)
    assert answer["rounds_played"] == ROUNDS_PLAYED, answer["rounds_played"]
    t0 = time.perf_counter()
    services.refresh_answer(event)
    recompute = time.perf_counter() - t0
    timed = []
    last_round = Match.objects.filter(round__event=event, round__number=ROUNDS_PLAYED + 1, is_bye=False)
    for match in last_round[:TIMED_RESULTS]:
        game = Game.objects.get(pk=match.match_games.get().game_id)
        scoring.record_hand(actor=ref, game=game, data={"result": "gin", "knocker": game.player_names[0],
                                                        "opponent_deadwood": 40})
        timed.append((game.pk, game.player_names[0]))
    tokens = {name: scoring.issue_api_token(user=u) for name, u in (("reader", boss), ("second", second))}
    print(f"  built in {time.perf_counter() - started:.0f} s: {ENTRIES} entries, {ROUNDS_PLAYED} rounds played, "
          f"round {ROUNDS_PLAYED + 1} paired; the answer recomputed in {recompute * 1000:.0f} ms "
          f"({len(answer['standings'])} standings rows)", flush=True)
    return {"event": event.pk, "tokens": tokens, "timed": timed, "recompute": recompute}


def same_request(method: str, path: str):
    """A phase's request maker that sends the same request every time."""
    body = b"{}" if method == "POST" else None
    return lambda index, n: (path, body)


def figures(count: int, latencies: list[float], failures: int) -> tuple[float, float, float, int]:
    if len(latencies) < 2:
        return 0.0, float("nan"), float("nan"), failures
    return (count / SECONDS, statistics.median(latencies) * 1000, statistics.quantiles(latencies, n=20)[18] * 1000,
            failures)


def request(port: int, method: str, path: str, token: str | None = None, body: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})}
    started = time.perf_counter()
    conn.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, data, time.perf_counter() - started


def main() -> None:
    print(f"Tournament-night benchmark: a {ENTRIES}-entry Swiss after {ROUNDS_PLAYED} rounds, built through the "
          "services", flush=True)
    built = setup()
    event, tokens = built["event"], built["tokens"]
    port = 19000 + os.getpid() % 1000
    server = start_gunicorn(port)
    worker = start_job_worker()
    try:
        # Each page once before the clock: the first read after a change renders and keeps it.
        for path in (f"/events/{event}/standings/", f"/events/{event}/pairings/"):
            request(port, "GET", path)
        print(f"gunicorn {WORKERS} workers, PostgreSQL (durable), {CLIENTS} concurrent keep-alive clients, "
              f"{SECONDS:.0f} s per phase after {WARMUP:.0f} s warm-up")
        phases = [
            ("reference: POST /api/v1/ping/", tokens["reader"], "POST", "/api/v1/ping/"),
            ("standings JSON (API, token)", tokens["reader"], "GET", f"/api/v1/events/{event}/standings/"),
            ("standings page (anonymous phone)", None, "GET", f"/events/{event}/standings/"),
            ("standings page's 5 s refresh", None, "GET", f"/events/{event}/standings/?fragment=1"),
            (f"pairings page, {ENTRIES // 2} tables", None, "GET", f"/events/{event}/pairings/"),
        ]
        print(f"  {'':<36} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'ratio':>6} failures")
        reference = None
        for name, token, method, path in phases:
            rate, p50, p95, failures = figures(*phase(port, token, same_request(method, path), SECONDS,
                                                      method=method))
            reference = reference or rate
            print(f"  {name:<36} {rate:8.1f} {p50:8.1f} {p95:8.1f} {rate / reference:6.2f} {failures}", flush=True)

        confirm_times, shown_after, stale_reads = [], [], []
        for game_id, winner in built["timed"]:
            status, data, took = request(port, "POST", f"/api/v1/games/{game_id}/hands/1/confirm/", tokens["second"],
                                         {})
            assert status == 200, data[:300]
            confirm_times.append(took)
            asked = time.perf_counter()
            while True:  # a phone refreshing: the last standings, marked updating, until the job has run
                status, data, took = request(port, "GET", f"/api/v1/events/{event}/standings/", tokens["reader"])
                if next(r for r in json.loads(data) if r["name"] == winner)["played"] == ROUNDS_PLAYED + 1:
                    break
                stale_reads.append(took)
                assert time.perf_counter() - asked < 30, "the standings never showed the result"
                time.sleep(0.02)
            shown_after.append(time.perf_counter() - asked)
        print(f"  the confirmation that decides a match at {ENTRIES} entries: median "
              f"{statistics.median(confirm_times) * 1000:.0f} ms, slowest {max(confirm_times) * 1000:.0f} ms, over "
              f"{len(confirm_times)} (the answer is recomputed by the job worker once it commits); the standings "
              f"show it {statistics.median(shown_after) * 1000:.0f} ms later (median), answering the last "
              f"standings meanwhile (median {statistics.median(stale_reads or [0]) * 1000:.0f} ms); the recompute "
              f"alone, in process: {built['recompute'] * 1000:.0f} ms")
    finally:
        for process in (server, worker):
            process.send_signal(signal.SIGTERM)
        for process in (server, worker):
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
