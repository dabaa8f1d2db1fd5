"""Trust benchmark: the abuse limits measured against gunicorn with 4 workers on PostgreSQL.

Run by ``make bench`` (bench/run_api.sh starts a durable throwaway PostgreSQL). It prints:

- the calculator throttle ("60/minute") across 4 workers: requests let through out of 240 sent at
  once by 8 clients, and again with a made-up ``X-Forwarded-For`` on every request;
- password guesses for one account at ``POST /api/v1/auth/token/`` and PIN guesses at a confirm,
  each in one minute window (PINs are keyed hashes: ``scoring.pins``);
- a referee's recording latency alone, and while another client confirms hands with a PIN on the
  same game (the PIN is checked under the game's lock, in microseconds);
- the calculator with a 100,000-hand sheet, a 500-hand sheet and 501 hands;
- the compressed size of the idempotency answers of one 384-hand game;
- a PostgreSQL restart under load: every answer during it is 2xx or a JSON 503, none an HTML 500,
  and the first request afterwards on every worker succeeds.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import api as api_bench

ROOT = api_bench.ROOT
WORKERS = 4
KNOCK = {"result": "knock", "knocker": "Ann", "knocker_deadwood": 3, "opponent_deadwood": 9}


def setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789")
    os.environ.setdefault("PIN_KEYS", "bench:bench-only-pin-key-0123456789")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scoring import services
    from scoring.policy import Actor

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    stamp = int(time.time())
    org = users.create_user(f"trust-org-{stamp}", password="bench-password-1", is_staff=True)
    ref = users.create_user(f"trust-ref-{stamp}", password="bench-password-2")
    actor = Actor(user=org)
    club = f"trust-{stamp}"
    ann = services.create_player(actor=actor, display_name="Ann", club=club, pin="1111")
    bob = services.create_player(actor=actor, display_name="Bob", club=club, pin="2222")
    game = services.create_game(actor=actor, format="standard", players=[ann, bob], referees=[ref],
                                conventions={"preset": "classic", "target": 10000}).pk
    return {"org": services.issue_api_token(user=org), "ref": services.issue_api_token(user=ref),
            "game": game, "username": ref.username, "club": club}


def request(port, method, path, body=None, headers=None, conn=None):
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    data = body if isinstance(body, bytes | type(None)) else json.dumps(body).encode()
    conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    return response.status, response.getheader("Content-Type", ""), response.read()


def post_raw(port, path, body, headers):
    """POST over a plain socket: a server that refuses a large body answers before reading it and
    closes, which http.client reports as a broken pipe instead of the answer."""
    head = "".join(f"{k}: {v}\r\n" for k, v in {**headers, "Content-Type": "application/json",
                                                 "Content-Length": len(body), "Connection": "close"}.items())
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{head}\r\n".encode())
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(body)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, response.read()


def burst(port, count, clients, make):
    """``count`` requests from ``clients`` threads at once; the status codes."""
    codes: Counter = Counter()
    lock = threading.Lock()
    per_client = count // clients

    def client(c):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine = Counter(request(port, *make(c, i), conn=conn)[0] for i in range(per_client))
        with lock:
            codes.update(mine)

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return codes


def clear_counters():
    from django.core.cache import cache

    from core.models import RateCounter

    cache.clear()
    RateCounter.objects.all().delete()


def throttles(port):
    sheet = {"conventions": "classic", "players": ["A", "B"], "hands": [KNOCK | {"knocker": "A"}]}
    clear_counters()
    plain = burst(port, 240, 8, lambda c, i: ("POST", "/api/v1/score/", sheet))
    clear_counters()
    forged = burst(port, 240, 8, lambda c, i: ("POST", "/api/v1/score/", sheet,
                                               {"X-Forwarded-For": f"198.51.100.{(c * 30 + i) % 250}"}))
    print(f"  calculator 60/minute, 4 workers, 240 sent at once by 8 clients: {plain[200]} let through, "
          f"{plain[429]} refused (429)")
    print(f"  the same with a made-up X-Forwarded-For on each request: {forged[200]} let through, "
          f"{forged[429]} refused")


def guesses(port, ids):
    clear_counters()
    started = time.perf_counter()
    passwords = burst(port, 60, 4, lambda c, i: ("POST", "/api/v1/auth/token/",
                                                 {"username": ids["username"], "password": f"guess-{c}-{i}"}))
    status, _, _ = request(port, "POST", f"/api/v1/games/{ids['game']}/hands/", KNOCK,
                           {"Authorization": f"Token {ids['org']}"})
    assert status == 201, status
    pins = burst(port, 60, 4, lambda c, i: ("POST", f"/api/v1/games/{ids['game']}/hands/1/confirm/",
                                            {"player": "Bob", "pin": f"{9000 + c * 15 + i}"},
                                            {"Authorization": f"Token {ids['ref']}"}))
    elapsed = time.perf_counter() - started
    print(f"  password guesses for one account, 60 sent in {elapsed:.0f} s: {passwords[400]} checked, "
          f"{passwords[429]} refused (429)")
    from scoring.models import PinFailure

    checked = PinFailure.objects.filter(player__display_name="Bob", player__club=ids["club"]).count()
    print(f"  wrong PINs for one player, 60 sent: {checked} checked (the 5th answers the lockout), "
          f"{60 - checked} refused unchecked (429: {pins[429]}, 403: {pins[403]})")


def latency_under_pin_checks(port, ids):
    from scoring.models import PinFailure

    PinFailure.objects.all().delete()
    ref = {"Authorization": f"Token {ids['ref']}"}
    org = {"Authorization": f"Token {ids['org']}"}
    game = ids["game"]

    def record_times(seconds):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        times, stop = [], time.perf_counter() + seconds
        while time.perf_counter() < stop:
            t = time.perf_counter()
            status, _, _ = request(port, "POST", f"/api/v1/games/{game}/hands/", KNOCK, ref, conn)
            assert status == 201, status
            times.append(time.perf_counter() - t)
            time.sleep(0.05)
        return times

    alone = record_times(5)
    stop = threading.Event()
    confirmed = [0]

    def confirmer():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while not stop.is_set():
            status, _, body = request(port, "POST", f"/api/v1/games/{game}/hands/", KNOCK, org, conn)
            number = json.loads(body)["hand"]["number"]
            status, _, _ = request(port, "POST", f"/api/v1/games/{game}/hands/{number}/confirm/",
                                   {"player": "Bob", "pin": "2222"}, ref, conn)
            confirmed[0] += status == 200

    helpers = [threading.Thread(target=confirmer) for _ in range(2)]
    for h in helpers:
        h.start()
    busy = record_times(8)
    stop.set()
    for h in helpers:
        h.join()

    def ms(values):
        return f"p50 {statistics.median(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"

    print(f"  a referee recording hands alone: {ms(alone)}; while 2 clients confirm with PINs on the same game "
          f"({confirmed[0]} PIN confirmations): {ms(busy)}")


def calculator_sizes(port, ids):
    hand = {"result": "knock", "knocker": "A", "knocker_deadwood": 3, "opponent_deadwood": 9}
    headers = {"Authorization": f"Token {ids['org']}"}  # signed in: the anonymous throttle stays out of it
    for count in (100_000, 500, 501):
        sheet = {"conventions": {"preset": "classic", "target": 10000}, "players": ["A", "B"],
                 "hands": [hand] * count}
        body = json.dumps(sheet).encode()
        started = time.perf_counter()
        status, answer = post_raw(port, "/api/v1/score/", body, headers)
        took = time.perf_counter() - started
        message = json.loads(answer)["errors"][0]["message"] if status >= 400 else "scored"
        print(f"  calculator, {count:>7,} hands ({len(body) / 1024:,.0f} KiB): {status} in {took * 1000:.0f} ms "
              f"({message})")


def idempotency_size(port, ids):
    from django.contrib.auth import get_user_model

    from core.models import OnceKey
    from scoring import services
    from scoring.policy import Actor

    org = get_user_model().objects.filter(is_staff=True, username__startswith="trust-org").last()
    actor = Actor(user=org)
    club = f"size-{time.time()}"
    players = [services.create_player(actor=actor, display_name=n, club=club) for n in ("Ann", "Bob")]
    game = services.create_game(actor=actor, format="standard", players=players, requires_confirmation=False,
                                referees=[org], conventions={"preset": "classic", "target": 10000}).pk
    headers = {"Authorization": f"Token {ids['org']}"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    raw = 0
    for i in range(384):
        status, _, body = request(port, "POST", f"/api/v1/games/{game}/hands/",
                                  {**KNOCK, "knocker": "Ann" if i % 2 else "Bob"},
                                  {**headers, "Idempotency-Key": f"size-{game}-{i}"}, conn)
        assert status == 201, body
        raw += len(body)
    stored = sum(len(bytes(r.answer)) for r in OnceKey.objects.filter(key__startswith=f"size-{game}-"))
    print(f"  idempotency answers of one 384-hand game: {raw / 1e6:.1f} MB as JSON, {stored / 1e6:.2f} MB stored")


def outage(port, ids):
    headers = {"Authorization": f"Token {ids['org']}"}
    codes: Counter = Counter()
    html_500 = [0]
    stop = threading.Event()
    lock = threading.Lock()

    def client(c):
        conn = None
        while not stop.is_set():
            try:
                conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                status, kind, _ = request(port, "GET", "/api/v1/games/", None, headers, conn)
            except (OSError, http.client.HTTPException):
                conn = None
                status, kind = "connection error", ""
            with lock:
                codes[status] += 1
                html_500[0] += status == 500 and "json" not in kind
            time.sleep(0.01)

    threads = [threading.Thread(target=client, args=(c,)) for c in range(8)]
    for t in threads:
        t.start()
    time.sleep(2)
    subprocess.run(["bash", "-c", ". scripts/throwaway-postgres.sh && pg_restart"], cwd=ROOT, check=True)
    time.sleep(3)
    stop.set()
    for t in threads:
        t.join()
    after = Counter(request(port, "GET", "/api/v1/games/", None, headers)[0] for _ in range(4 * WORKERS))
    print(f"  PostgreSQL restarted under 8 clients' reads (no per-account limit): answers {dict(codes)}; "
          f"HTML 500s: {html_500[0]}; "
          f"the {4 * WORKERS} requests after it: {dict(after)}")


def main():
    ids = setup()
    port = 19000 + os.getpid() % 1000
    server = api_bench.start_gunicorn(port, workers=WORKERS, LOG_LEVEL="ERROR", USER_THROTTLE_RATE="600/minute")
    try:
        print(f"Trust benchmark: gunicorn {WORKERS} workers, PostgreSQL (durable), default limits")
        throttles(port)
        guesses(port, ids)
        latency_under_pin_checks(port, ids)
        calculator_sizes(port, ids)
        idempotency_size(port, ids)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    # The restart is measured on a server whose per-account limit the 8 readers cannot reach (they send
    # hundreds a second with one token): every answer then says what the restart did, not the limit.
    server = api_bench.start_gunicorn(port, workers=WORKERS, LOG_LEVEL="ERROR", USER_THROTTLE_RATE="1000000/minute")
    try:
        outage(port, ids)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
