"""API benchmark: hands recorded per second through the API behind gunicorn, beside a trivial endpoint.

Run by ``make bench`` with ``DATABASE_URL`` pointing at a throwaway PostgreSQL (bench/run_api.sh
starts one). It migrates, creates for each client an organiser with a token and a set of games, starts
gunicorn, then drives two phases with the same 32 keep-alive clients for the same time:

- reference: ``POST /api/v1/ping/`` (token authentication, no database write),
- record: ``POST /api/v1/games/{id}/hands/`` (a knock; the engine scores the game; one transaction).

It prints requests per second and p50/p95 latency of each, and the ratio record/ping (the figure to
keep high). Each client moves to a fresh game every 20 hands, as tables do on a club night.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "32"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
# The API's two phases alternate often and briefly, in turn first: this machine's speed drifts by a third
# over a minute, and a ratio of phases run far apart measures the drift. Ten pairs: a single pair's ratio
# still ranges over a fifth either way, and the median of six moved by 0.06 from run to run.
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "10"))
API_SECONDS = float(os.environ.get("BENCH_API_SECONDS", "5"))
WARMUP = 2.0
HANDS_PER_GAME = 20
# Enough that no client comes back to a game it filled (every game holds 0 to 19 hands when one is added).
GAMES_PER_CLIENT = int(os.environ.get("BENCH_GAMES_PER_CLIENT", "40"))
# The production settings (gunicorn.conf.py): its workers and threads unless the environment says otherwise.
WORKERS = int(os.environ.get("WEB_CONCURRENCY", str(2 * (os.cpu_count() or 1))))
THREADS = int(os.environ.get("WEB_THREADS", "4"))


def setup() -> tuple[list[str], list[list[int]]]:
    """Each client is a table with a credential of its own (a hall's tables each have theirs: no two
    share a rate counter or lock the same user row), an organiser's token, and its games."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789")
    os.environ.setdefault("PIN_KEYS", "bench:bench-only-pin-key-0123456789")
    import django

    django.setup()
    from django.core.management import call_command

    from scoring import services
    from scoring.models import Player
    from scoring.policy import Actor

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    org, _ = users.get_or_create(username="bench-organiser", defaults={"is_staff": True})
    actor = Actor(user=org)
    tokens, games = [], []
    stamp = int(time.time())
    for c in range(CLIENTS):
        club = f"bench-{stamp}-{c}"
        table_official = users.create_user(username=f"bench-table-{stamp}-{c}", is_staff=True)
        tokens.append(services.issue_api_token(user=table_official))
        a = Player.objects.create(display_name="Ann", club=club)
        b = Player.objects.create(display_name="Bob", club=club)
        games.append([
            services.create_game(actor=actor, format="standard", players=[a, b], requires_confirmation=False,
                                 conventions={"preset": "classic", "target": 10000}).pk
            for _ in range(GAMES_PER_CLIENT)
        ])
    return tokens, games


def start_gunicorn(port: int, workers: int = WORKERS, **extra_env: str) -> subprocess.Popen:
    """gunicorn as in production (DEBUG off, its own gunicorn.conf.py) but over plain HTTP on a local port.
    The benchmarks' own clients are signed-in users, whose limit (600 a minute) they would pass at once."""
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "bench-only-secret-key-0123456789",
           "PIN_KEYS": "bench:bench-only-pin-key-0123456789", "USER_THROTTLE_RATE": "1000000/minute",
           "ALLOWED_HOSTS": "127.0.0.1", "LOG_LEVEL": "WARNING", "SECURE_SSL_REDIRECT": "0",
           "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers), **extra_env}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "ginscore.wsgi"], cwd=ROOT, env=env,
    )
    for _ in range(100):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def start_job_worker(**extra_env: str) -> subprocess.Popen:
    """The job worker beside gunicorn (the Procfile's ``worker:``), as in production: on PostgreSQL an
    event's answer is recomputed by it after every result."""
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "bench-only-secret-key-0123456789",
           "PIN_KEYS": "bench:bench-only-pin-key-0123456789", "LOG_LEVEL": "WARNING", **extra_env}
    return subprocess.Popen([sys.executable, "manage.py", "run_jobs"], cwd=ROOT, env=env)


def phase(port: int, token: str | list[str] | None, make_request, seconds: float, *,
          method: str = "POST") -> tuple[int, list[float], int]:
    """Run CLIENTS threads for ``seconds`` (after a warm-up); count answers, keep latencies. Like a
    browser or an HTTP library, each client accepts gzip and unpacks what comes gzipped; a time-out
    counts as a failure and the client opens a new connection. ``token``: one for every client, or
    each client's own."""
    stop_at = time.perf_counter() + WARMUP + seconds
    measure_from = time.perf_counter() + WARMUP
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    shared = {"Content-Type": "application/json", "Accept-Encoding": "gzip"}

    def client(index: int) -> None:
        headers = dict(shared)
        own = token[index] if isinstance(token, list) else token
        if own:
            headers["Authorization"] = f"Token {own}"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, bad, n = [], 0, 0
        while True:
            now = time.perf_counter()
            if now >= stop_at:
                break
            path, body = make_request(index, n)
            n += 1
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
                if response.getheader("Content-Encoding") == "gzip":
                    gzip.decompress(data)
            except OSError:
                bad += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            done = time.perf_counter()
            if response.status >= 300:
                bad += 1
            elif now >= measure_from:
                mine.append(done - now)
        with lock:
            latencies.extend(mine)
            failures[0] += bad

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(latencies), latencies, failures[0]


def describe(name: str, count: int, latencies: list[float], failures: int, seconds: float) -> float:
    rate = count / seconds
    p50 = statistics.median(latencies) * 1000
    p95 = statistics.quantiles(latencies, n=20)[18] * 1000
    print(f"  {name:<38} {rate:8.1f} req/s   p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   failures {failures}")
    return rate


def main() -> None:
    tokens, games = setup()
    port = 18000 + os.getpid() % 1000
    server = start_gunicorn(port)
    try:
        ping_body = b"{}"

        def ping(index: int, n: int):
            return "/api/v1/ping/", ping_body

        hand = json.dumps({"result": "knock", "knocker": "Ann", "knocker_deadwood": 3, "opponent_deadwood": 9})

        recorded = [0] * CLIENTS  # each client's hands so far, across phases: a fresh game every 20

        def record(index: int, n: int):
            game = games[index][(recorded[index] // HANDS_PER_GAME) % GAMES_PER_CLIENT]
            recorded[index] += 1
            return f"/api/v1/games/{game}/hands/", hand.encode()

        print(f"API benchmark: gunicorn {WORKERS} workers x {THREADS} threads, PostgreSQL, {CLIENTS} concurrent "
              f"keep-alive clients, {API_SECONDS:.0f} s per phase after {WARMUP:.0f} s warm-up; the two phases "
              f"alternate {ROUNDS} times, each first in turn (this machine's speed drifts by a third within a minute)")
        rates: dict[str, list[float]] = {"ping": [], "record": []}
        ratios = []
        phases = {"ping": ("reference: POST /api/v1/ping/", ping), "record": ("record a hand: POST .../hands/", record)}
        for round_number in range(ROUNDS):
            for kind in ("ping", "record") if round_number % 2 == 0 else ("record", "ping"):
                title, requests = phases[kind]
                rates[kind].append(describe(title, *phase(port, tokens, requests, API_SECONDS), API_SECONDS))
            ratios.append(rates["record"][-1] / rates["ping"][-1])
        print(f"  median: ping {statistics.median(rates['ping']):.0f} req/s, record "
              f"{statistics.median(rates['record']):.0f} req/s; hands recorded per second / trivial endpoint "
              f"requests per second = "
              f"{statistics.median(ratios):.2f} (each pair: {', '.join(f'{r:.2f}' for r in ratios)})")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
