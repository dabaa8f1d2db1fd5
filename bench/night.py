"""A tournament night, over HTTP only: a Swiss round of P players behind the production server, and a
check that nothing was lost or counted twice.

Run by ``make bench`` (bench/run_api.sh starts a durable PostgreSQL: fsync and synchronous_commit on).
It starts gunicorn with the project's own ``gunicorn.conf.py`` and a job worker (``manage.py procrastinate
worker``), as the Procfile does, then, from one client address (a hall behind its NAT):

- the draw release: round 1 is paired as a draft, and the night starts when the director publishes it;
  every phone opens its whole page (standings or pairings) within 5 s of that (counted as "first page"),
  and every table's phone reads its game (``GET /api/v1/games/{id}/``, "table's first read");
- each table's referee records every hand through the API with the table link and an
  ``Idempotency-Key``, and the loser accepts it with their PIN; a table whose game is over stops;
- every phone in the hall then refreshes the standings or the pairings every 5 s (plus a random part),
  with ``If-None-Match``, backing off on 429 and 503 as the pages' script does;
- a few API readers (a token) read the standings JSON;
- PostgreSQL is restarted a third of the way in: every request is retried as a client would (the
  same key for writes) until it is answered.

Afterwards it checks that every hand each table recorded is stored exactly once and accepted, and that
the stored standings equal ``POST /api/v1/event/`` for the stored results. It prints p50/p95/max per
kind of request, and p95 per kind per half minute, beside ``POST /api/v1/ping/`` measured in the same run,
with the client's own lag (how late its event loop wakes: every request's time includes it) and when each
503 was answered, and exits 1 if a check failed.

``--addresses``: each phone its own address (127.0.x.y on the loopback) instead of one hall behind its NAT.
``--end``: a round's end: before the night each table has played a hand that leaves one side 80-95 points
up (recorded and accepted, not measured), so that most matches are decided inside the measured minutes.

    python bench/night.py          # a small night: 40 players, 2 minutes, a hand every 20-40 s
    python bench/night.py --big    # the 1,000-player night: 500 tables, 6 minutes, a hand every 60-120 s
    python bench/night.py --players 2000 --minutes 6 --every 60-120    # twice that
    python bench/night.py --big --end --addresses   # the round's end, each phone its own address
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from multidict import CIMultiDict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CLIENT_TIMEOUT = 10.0  # a phone (or a referee's phone) gives up after this and asks again
ENV = {"DEBUG": "0", "SECRET_KEY": "bench-only-secret-key-0123456789", "PIN_KEYS": "bench:bench-only-pin-key-0123",
       "ALLOWED_HOSTS": "127.0.0.1", "LOG_LEVEL": "WARNING", "SECURE_SSL_REDIRECT": "0",
       "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0",
       # The organiser's setup and the reference would pass a signed-in user's 600 a minute: the limits a
       # hall meets (table links, anonymous phones, password guesses) stay as in production.
       "USER_THROTTLE_RATE": "1000000/minute"}


# ---------------------------------------------------------------------------------------------------
# The server: gunicorn as in production, a job worker, the database


def django_setup() -> None:
    os.environ.update({k: v for k, v in ENV.items() if k not in os.environ or k in ("DEBUG",)})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")
    # Production serves the collected static files (the pages name them by their hashed names).
    os.environ.setdefault("STATIC_ROOT", str(Path(os.environ.get("TMPDIR", "/tmp")) / "ginscore-night-static"))
    ENV["STATIC_ROOT"] = os.environ["STATIC_ROOT"]
    import django

    django.setup()
    from django.core.management import call_command

    call_command("collectstatic", "--noinput", verbosity=0)


def organiser_token() -> str:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scoring import services

    call_command("migrate", verbosity=0)
    org, _ = get_user_model().objects.get_or_create(username="night-organiser", defaults={"is_staff": True})
    return services.issue_api_token(user=org)


def start(command: list[str], port: int | None = None, **env: str) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=ROOT, env={**os.environ, **ENV, **env,
                                                    **({"BIND": f"127.0.0.1:{port}"} if port else {})})


async def wait_until_up(base: str) -> None:
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            try:
                async with session.get(f"{base}/healthz") as answer:
                    if answer.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


def restart_database() -> float:
    started = time.perf_counter()
    subprocess.run(["bash", "-c", ". scripts/throwaway-postgres.sh && pg_restart"], cwd=ROOT, check=True)
    return time.perf_counter() - started


# ---------------------------------------------------------------------------------------------------
# Requests, timed by kind


@dataclass
class Answer:
    status: int
    headers: dict
    body: bytes
    seconds: float = 0.0

    def json(self):
        return json.loads(self.body)


@dataclass
class Log:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    unanswered: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # (seconds since the night began, the request's seconds) per kind: p95 per half minute
    timeline: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    began: float = field(default_factory=time.perf_counter)
    # When (seconds since the night began) each 503 was answered: allowed only around the database restart
    busy_at: list[float] = field(default_factory=list)

    def note(self, kind: str, seconds: float, status: int) -> None:
        self.latencies[kind].append(seconds)
        self.statuses[kind][status] += 1
        self.timeline[kind].append((time.perf_counter() - self.began, seconds))
        if status == 503:
            self.busy_at.append(time.perf_counter() - self.began)

    def forget(self, kind: str, seconds: float, status: int) -> None:
        self.latencies[kind].remove(seconds)
        self.statuses[kind][status] -= 1
        self.timeline[kind] = [(t, s) for t, s in self.timeline[kind] if s != seconds]


async def call(session: aiohttp.ClientSession, log: Log | None, kind: str, method: str, url: str, *,
               body=None, headers=None, timeout: float = CLIENT_TIMEOUT) -> Answer | None:
    """One request, timed; None when it was not answered within the client's time-out."""
    started = time.perf_counter()
    try:
        async with session.request(method, url, json=body, headers=headers,
                                   timeout=aiohttp.ClientTimeout(total=timeout)) as response:
            data = await response.read()
            answer = Answer(response.status, CIMultiDict(response.headers), data, time.perf_counter() - started)
    except (TimeoutError, aiohttp.ClientError):
        if log is not None:
            log.unanswered[kind] += 1
        return None
    if log is not None:
        log.note(kind, answer.seconds, answer.status)
    return answer


def retry_after(answer: Answer | None, attempt: int) -> float:
    told = float(answer.headers.get("Retry-After", 0) or 0) if answer is not None else 0.0
    return min(max(told, 0.5 * 2 ** min(attempt, 5)), 30.0) * random.uniform(0.8, 1.2)


async def until_answered(session, log, kind, method, url, *, body=None, headers=None, ok=(200, 201),
                         timeout: float = CLIENT_TIMEOUT) -> Answer:
    """A client that means it: the same request (and key) again until it is answered other than 5xx or 429."""
    attempt = 0
    while True:
        answer = await call(session, log, kind, method, url, body=body, headers=headers, timeout=timeout)
        if answer is not None and answer.status < 500 and answer.status != 429:
            if answer.status not in ok:
                raise RuntimeError(f"{kind}: {method} {url} answered {answer.status}: {answer.body[:300]!r}")
            return answer
        await asyncio.sleep(retry_after(answer, attempt))
        attempt += 1


# ---------------------------------------------------------------------------------------------------
# The event, set up through the API


@dataclass
class Table:
    number: int
    game: int
    token: str
    players: list[str]
    pins: dict[str, str]
    recorded: list[int] = field(default_factory=list)  # hand numbers the server said it stored
    done: bool = False


async def set_up(base: str, token: str, players: int, seed: int) -> tuple[int, dict[str, str]]:
    headers = {"Authorization": f"Token {token}"}
    club = f"Night {seed}-{int(time.time())}"
    names = [f"Player {i:04d}" for i in range(1, players + 1)]
    pins = {name: f"{1000 + i:04d}" for i, name in enumerate(names)}
    async with aiohttp.ClientSession(headers=headers) as session:
        async def make_player(name):
            await until_answered(session, None, "setup", "POST", f"{base}/api/v1/players/", ok=(201,),
                                 body={"display_name": name, "club": club, "pin": pins[name]})

        began = time.perf_counter()
        for start_at in range(0, len(names), 16):
            await asyncio.gather(*(make_player(n) for n in names[start_at:start_at + 16]))
        print(f"  set-up: {players} players with PINs through the API in {time.perf_counter() - began:.1f} s")

        def key(step: str) -> dict:
            return {"Idempotency-Key": f"night-{club}-{step}"}

        event = (await until_answered(session, None, "setup", "POST", f"{base}/api/v1/events/", ok=(201,), body={
            "name": f"Night of {players}", "format": "swiss", "conventions": "classic", "rounds": 4,
        }, headers=key("event"))).json()["id"]
        began = time.perf_counter()
        await until_answered(session, None, "setup", "POST", f"{base}/api/v1/events/{event}/entries/import/",
                             ok=(201,), body={"text": "\n".join(names), "club": club}, headers=key("entries"),
                             timeout=120)
        print(f"  set-up: {players} entries from a pasted list in {time.perf_counter() - began:.1f} s")
        began = time.perf_counter()
        await until_answered(session, None, "setup", "POST", f"{base}/api/v1/events/{event}/rounds/",
                             ok=(201,), body={"publish": False}, headers=key("round-1"), timeout=120)
        print(f"  set-up: round 1 paired as a draft in {time.perf_counter() - began:.1f} s")
    return event, pins


async def release(base: str, token: str, event: int, pins: dict[str, str], log: Log) -> list[Table]:
    """The director publishes round 1: its games and table links are made (the night's first request)."""
    async with aiohttp.ClientSession(headers={"Authorization": f"Token {token}"}) as session:
        opened = (await until_answered(session, log, "publish the round (director)", "POST",
                                       f"{base}/api/v1/events/{event}/rounds/1/publish/", timeout=120,
                                       headers={"Idempotency-Key": f"night-{event}-publish"})).json()
    tables = []
    for row in opened["matches"]:
        if len(row["players"]) == 2 and row.get("referee_url"):
            tables.append(Table(row["table"], row["games"][0], row["referee_url"].split("#", 1)[1],
                                row["players"], {p: pins[p] for p in row["players"]}))
    return tables


async def near_the_end(base: str, tables: list[Table], seed: int) -> None:
    """``--end``: each table plays one hand that leaves a side 80-95 points up, accepted (not measured)."""
    async def one(table: Table) -> None:
        rng = random.Random(seed * 7 + table.number)
        knocker, other = rng.sample(table.players, 2)
        async with aiohttp.ClientSession(headers={"Authorization": f"Referee {table.token}"}) as session:
            recorded = await until_answered(
                session, None, "setup", "POST", f"{base}/api/v1/games/{table.game}/hands/", ok=(201,),
                body={"result": "gin", "knocker": knocker, "opponent_deadwood": rng.randint(55, 70)},
                headers={"Idempotency-Key": f"t{table.game}-h1"})
            table.recorded.append(recorded.json()["hand"]["number"])
            await until_answered(session, None, "setup", "POST",
                                 f"{base}/api/v1/games/{table.game}/hands/1/confirm/",
                                 body={"player": other, "pin": table.pins[other]},
                                 headers={"Idempotency-Key": f"t{table.game}-a1"})

    began = time.perf_counter()
    for start_at in range(0, len(tables), 32):
        await asyncio.gather(*(one(t) for t in tables[start_at:start_at + 32]))
    print(f"  set-up (--end): a first hand at each of {len(tables)} tables in {time.perf_counter() - began:.1f} s")


def a_hand(rng: random.Random, players: list[str]) -> tuple[dict, str]:
    """A hand a table might play (a game to 100 lasts three to five of them), and who accepts it."""
    knocker, other = rng.sample(players, 2)
    if rng.random() < 0.35:
        return {"result": "gin", "knocker": knocker, "opponent_deadwood": rng.randint(8, 40)}, other
    kd = rng.randint(1, 10)
    return {"result": "knock", "knocker": knocker, "knocker_deadwood": kd,
            "opponent_deadwood": kd + rng.randint(6, 40)}, other


# ---------------------------------------------------------------------------------------------------
# The night


async def referee(base: str, table: Table, log: Log, every: tuple[float, float], until: float, seed: int) -> None:
    rng = random.Random(seed * 100_003 + table.number)
    headers = {"Authorization": f"Referee {table.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        await asyncio.sleep(rng.uniform(0, 5))  # the table's phone opens its game as the round is released
        await until_answered(session, log, "table's first read", "GET", f"{base}/api/v1/games/{table.game}/")
        await asyncio.sleep(rng.uniform(0, every[1]))
        hand_number = len(table.recorded)
        while time.perf_counter() < until and not table.done:
            hand, accepter = a_hand(rng, table.players)
            hand_number += 1
            recorded = await until_answered(
                session, log, "record a hand", "POST", f"{base}/api/v1/games/{table.game}/hands/", body=hand,
                headers={"Idempotency-Key": f"t{table.game}-h{hand_number}"}, ok=(201,))
            number = recorded.json()["hand"]["number"]
            table.recorded.append(number)
            await asyncio.sleep(rng.uniform(2, 6))  # the loser reads it back and types the PIN
            accepted = await until_answered(
                session, log, "accept (PIN)", "POST", f"{base}/api/v1/games/{table.game}/hands/{number}/confirm/",
                body={"player": accepter, "pin": table.pins[accepter]},
                headers={"Idempotency-Key": f"t{table.game}-a{number}"})
            if accepted.json()["sheet"]["complete"]:
                table.done = True  # this acceptance decided the match: counted under its own kind
                log.forget("accept (PIN)", accepted.seconds, accepted.status)
                log.note("accept that decides the match", accepted.seconds, accepted.status)
                break
            await asyncio.sleep(rng.uniform(*every))


async def phone(base: str, session, kind: str, url: str, log: Log, until: float, rng: random.Random,
                first: str | None = None, address: str | None = None) -> None:
    """A phone: its whole page opened within 5 s of the release (``first``), then its part refreshed every 5 s."""
    etag, backoff = None, 5.0
    own = None
    if address is not None:  # its own address on the loopback, its own connections
        own = session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
    try:
        await asyncio.sleep(rng.uniform(0, 5))
        if first is not None:
            await until_answered(session, log, f"first page: {kind.split()[0]}", "GET", first)
            await asyncio.sleep(5.0 + rng.uniform(0, 1.5))
        await _refresh(session, kind, url, log, until, rng, etag, backoff)
    finally:
        if own is not None:
            await own.close()


async def _refresh(session, kind, url, log, until, rng, etag, backoff) -> None:
    while time.perf_counter() < until:
        answer = await call(session, log, kind, "GET", url, headers={"If-None-Match": etag} if etag else None)
        wait = 5.0
        if answer is None or answer.status in (429, 503):
            backoff = min(backoff * 2, 60.0)
            told = float(answer.headers.get("Retry-After", 0) or 0) if answer is not None else 0.0
            wait = max(backoff, told)
        else:
            backoff = 5.0
            etag = answer.headers.get("ETag", etag)
        await asyncio.sleep(wait + rng.uniform(0, 1.5))


async def client_lag(log: Log, until: float) -> None:
    """How late this client's own event loop wakes (a 50 ms sleep that took longer): every request's time here
    includes it, so a lag as long as a request's time means the client, not the server, was the bottleneck."""
    while time.perf_counter() < until:
        started = time.perf_counter()
        await asyncio.sleep(0.05)
        log.note(LAG, time.perf_counter() - started - 0.05, 0)


LAG = "(the client's own lag: not a request)"


async def restart_midway(at: float, log: Log) -> None:
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    log.restart_seconds = await asyncio.to_thread(restart_database)


async def night(base: str, token: str, event: int, pins: dict[str, str], *, phones: int, readers: int,
                minutes: float, every: tuple[float, float], restart: bool, seed: int, end: bool,
                addresses: bool) -> tuple[Log, list[Table]]:
    log = Log()
    log.restart_seconds = None
    tables = await release(base, token, event, pins, log)
    if end:  # not measured: the night then starts near its end
        await near_the_end(base, tables, seed)
    started = log.began = time.perf_counter()
    until = started + minutes * 60
    rng = random.Random(seed)
    connector = aiohttp.TCPConnector(limit=0)
    jobs = [referee(base, t, log, every, until, seed) for t in tables]
    async with aiohttp.ClientSession(connector=connector) as hall, \
            aiohttp.ClientSession(headers={"Authorization": f"Token {token}"}) as programs:
        for i in range(phones):
            page = f"/events/{event}/standings/" if i % 2 == 0 else f"/events/{event}/pairings/"
            kind = "standings page refresh" if i % 2 == 0 else "pairings page refresh"
            address = f"127.0.{1 + i // 250}.{1 + i % 250}" if addresses else None
            jobs.append(phone(base, hall, kind, f"{base}{page}?fragment=1", log, until, random.Random(rng.random()),
                              first=f"{base}{page}", address=address))
        for _ in range(readers):
            jobs.append(phone(base, programs, "standings API (token)", f"{base}/api/v1/events/{event}/standings/",
                              log, until, random.Random(rng.random())))
        if restart:
            jobs.append(restart_midway(started + minutes * 60 / 3, log))
        jobs.append(client_lag(log, until))
        await asyncio.gather(*jobs)
    return log, tables


# ---------------------------------------------------------------------------------------------------
# The checks


async def settled_standings(base: str, token: str, event: int) -> list[dict]:
    """The stored standings once the job worker has caught up (no ``X-Updating``)."""
    async with aiohttp.ClientSession(headers={"Authorization": f"Token {token}"}) as session:
        for _ in range(600):
            answer = await until_answered(session, None, "check", "GET", f"{base}/api/v1/events/{event}/standings/")
            if "X-Updating" not in answer.headers:
                return answer.json()
            await asyncio.sleep(0.5)
    raise RuntimeError("the standings never caught up with the results")


async def check(base: str, token: str, event: int, tables: list[Table]) -> list[str]:
    problems = []
    async with aiohttp.ClientSession(headers={"Authorization": f"Token {token}"}) as session:
        for table in tables:
            versions = (await until_answered(session, None, "check", "GET",
                                             f"{base}/api/v1/games/{table.game}/history/")).json()
            firsts = sorted(v["number"] for v in versions if v["version"] == 1)
            if firsts != sorted(table.recorded) or len(set(firsts)) != len(firsts):
                problems.append(f"table {table.number}: the client recorded hands {sorted(table.recorded)}, "
                                f"the server holds {firsts}")
            pending = [v["number"] for v in versions if v.get("status") == "pending"]
            if pending:
                problems.append(f"table {table.number}: hands {pending} accepted by PIN are still pending")
        stored = await settled_standings(base, token, event)
        detail = (await until_answered(session, None, "check", "GET", f"{base}/api/v1/events/{event}/")).json()
        entries = (await until_answered(session, None, "check", "GET", f"{base}/api/v1/events/{event}/entries/")).json()
        matches = (await until_answered(session, None, "check", "GET",
                                        f"{base}/api/v1/events/{event}/matches/?limit=10000")).json()
        matches = matches["results"] if isinstance(matches, dict) else matches
        results = []
        for m in matches:
            if m["status"] == "bye":
                results.append({"round": m["round"], "bye": m["players"][0]})
            elif m["status"] == "decided":
                results.append({"round": m["round"], "players": m["players"], "winner": m["winner"],
                                "margin": m["margin"] or 0})
        document = {"format": "swiss", "rounds": detail["rounds"],
                    "entries": [{"name": e["name"], **({"seed": e["seed"]} if e["seed"] else {})} for e in entries],
                    "match_points": detail["match_points"], "tiebreaks": detail["tiebreaks"], "results": results}
        calculated = (await until_answered(session, None, "check", "POST", f"{base}/api/v1/event/",
                                           body=document)).json()["standings"]
    keep = ("rank", "name", "played", "wins", "draws", "losses", "byes", "match_points", "margin", "tiebreaks")
    if [{k: r[k] for k in keep} for r in stored] != [{k: r[k] for k in keep} for r in calculated]:
        problems.append("the stored standings differ from the calculator's for the stored results")
    return problems


# ---------------------------------------------------------------------------------------------------
# The reference, and the report


async def reference(base: str, token: str, seconds: float = 8.0, clients: int = 16) -> Log:
    log = Log()
    until = time.perf_counter() + seconds
    async with aiohttp.ClientSession(headers={"Authorization": f"Token {token}"}) as session:
        async def client():
            while time.perf_counter() < until:
                await call(session, log, "reference: POST /api/v1/ping/", "POST", f"{base}/api/v1/ping/")

        await asyncio.gather(*(client() for _ in range(clients)))
    log.seconds = seconds
    return log


def ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    values = sorted(values)
    return f"{1000 * values[min(len(values) - 1, int(q * len(values)))]:.0f}"


def report(ping: Log, log: Log, tables: list[Table], args, problems: list[str], elapsed: float) -> None:
    ping_values = ping.latencies["reference: POST /api/v1/ping/"]
    print(f"\nA night of {args.players} players ({len(tables)} tables, {args.phones} phones, {args.readers} API "
          f"readers), {args.minutes:g} min, a hand per table every {args.every[0]:g}-{args.every[1]:g} s"
          + (f", PostgreSQL restarted at {args.minutes / 3:.1f} min ({log.restart_seconds:.1f} s)"
             if log.restart_seconds else "")
          + (", at a round's end (each table a hand from deciding)" if args.end else "")
          + (", each phone its own address" if args.addresses else ", every phone behind one address"))
    print(f"  reference, POST /api/v1/ping/ alone, 16 clients: {len(ping_values) / ping.seconds:.0f} req/s, "
          f"p50 {ms(ping_values, .5)} ms, p95 {ms(ping_values, .95)} ms\n")
    print("| request | answered | p50 ms | p95 ms | max ms | answers | not answered |")
    print("|---|---|---|---|---|---|---|")
    for kind in sorted(log.latencies):
        values = log.latencies[kind]
        codes = ", ".join(f"{code}: {n}" for code, n in sorted(log.statuses[kind].items()) if n and kind != LAG)
        print(f"| {kind} | {len(values)} | {ms(values, .5)} | {ms(values, .95)} | {ms(values, 1.0)} | {codes} | "
              f"{log.unanswered.get(kind, 0)} |")
    every = [v for kind, values in log.latencies.items() for v in values if kind != LAG]
    print(f"| every request | {len(every)} | {ms(every, .5)} | {ms(every, .95)} | {ms(every, 1.0)} | | "
          f"{sum(log.unanswered.values())} |")
    windows = int(max((t for values in log.timeline.values() for t, _ in values), default=0) // 30) + 1
    print("\np95 ms per half minute (from the release; '-': no such request in that half minute)\n")
    print("| request | " + " | ".join(f"{30 * w // 60}:{30 * w % 60:02d}" for w in range(windows)) + " |")
    print("|---|" + "---|" * windows)
    for kind in sorted(log.timeline):
        cells = [ms([s for t, s in log.timeline[kind] if w * 30 <= max(t, 0) < (w + 1) * 30], .95)
                 for w in range(windows)]
        print(f"| {kind} | " + " | ".join(cells) + " |")
    if log.busy_at:
        print(f"\n  503 answered at (s from the release): {', '.join(f'{t:.0f}' for t in sorted(log.busy_at))}"
              + (f"; PostgreSQL restarted at {args.minutes * 20:.0f} s" if log.restart_seconds else ""))
    finished = sum(t.done for t in tables)
    hands = sum(len(t.recorded) for t in tables)
    print(f"\n  {hands} hands recorded and accepted; {finished} of {len(tables)} matches decided; "
          f"{sum(n for k in log.statuses for c, n in log.statuses[k].items() if c == 429)} answers 429 "
          f"({'each phone its own address' if args.addresses else 'every client behind one address'}); "
          f"{elapsed:.0f} s in all")
    print("  checks: " + ("every hand stored exactly once and accepted; the standings equal the calculator's"
                          if not problems else "FAILED\n    " + "\n    ".join(problems)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--every", default="20-40", help="seconds between a table's hands, as low-high")
    parser.add_argument("--phones", type=int, help="phones polling (default: one per player)")
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--no-restart", dest="restart", action="store_false")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--big", action="store_true", help="the 1,000-player night (the issue's shape)")
    parser.add_argument("--end", action="store_true", help="a round's end: most matches decided in the night")
    parser.add_argument("--addresses", action="store_true", help="each phone its own address, not one hall's")
    args = parser.parse_args()
    if args.big:
        args.players, args.minutes, args.every = 1000, 6.0, "60-120"
    args.every = tuple(float(x) for x in args.every.split("-"))
    args.phones = args.players if args.phones is None else args.phones
    if "DATABASE_URL" not in os.environ:
        print("bench/night.py needs DATABASE_URL (PostgreSQL): run it through bench/run_api.sh", file=sys.stderr)
        return 2
    django_setup()
    token = organiser_token()
    port = int(os.environ.get("NIGHT_PORT", "8765"))
    base = f"http://127.0.0.1:{port}"
    web = start([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "ginscore.wsgi"], port)
    worker = start([sys.executable, "manage.py", "run_jobs"])
    began = time.perf_counter()
    try:
        asyncio.run(wait_until_up(base))
        ping = asyncio.run(reference(base, token))
        event, pins = asyncio.run(set_up(base, token, args.players, args.seed))
        log, tables = asyncio.run(night(base, token, event, pins, phones=args.phones, readers=args.readers,
                                        minutes=args.minutes, every=args.every, restart=args.restart,
                                        seed=args.seed, end=args.end, addresses=args.addresses))
        problems = asyncio.run(check(base, token, event, tables))
    finally:
        for process in (web, worker):
            process.terminate()
        for process in (web, worker):
            process.wait(timeout=30)
    report(ping, log, tables, args, problems, time.perf_counter() - began)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
