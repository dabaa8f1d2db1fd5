"""``make bench``: a slow webhook receiver does not slow recording a hand (issue 38).

A throwaway SQLite database (jobs inline, as ``make run``: deliveries go to the web process's background
thread), an event of two players paired, its game recorded through the API by one referee and each hand
accepted by a second (the record and the accept timed together, through Django's test client: the whole
request, its commit and its on-commit work). First with no webhook, then with a subscription to
``hand.confirmed`` whose receiver (on the loopback) takes 10 s to answer each delivery: every accepted hand
owes it a message. The figures: the median and the slowest of each phase's hands, and how many deliveries the
receiver had been sent by the end of the second phase (the rest still queued behind the slow ones).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HANDS = 15
SLOW_SECONDS = 10.0


class Slow(BaseHTTPRequestHandler):
    seen = 0

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Slow.seen += 1
        time.sleep(SLOW_SECONDS)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main() -> None:
    folder = tempfile.mkdtemp(prefix="ginscore-bench-webhooks-")
    os.environ.update({"DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3", "DJANGO_SETTINGS_MODULE":
                       "ginscore.settings", "DEBUG": "1", "JOBS": "inline", "WEBHOOK_ALLOW_PRIVATE": "1",
                       "WEBHOOK_RETRY_SCHEDULE": "0", "LOG_LEVEL": "ERROR"})
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from django.test import Client

    from notifications import services as notifications
    from scoring import services as scoring
    from scoring.policy import Actor
    from tournaments import services

    users = get_user_model().objects
    boss = users.create_user("boss", password="x", is_staff=True)
    recorder, confirmer = users.create_user("rec", password="x"), users.create_user("conf", password="x")
    event = services.create_event(actor=Actor(user=boss), name="Bench", format="swiss", rounds=1,
                                  conventions={"preset": "classic", "target": 500}, directors=[boss],
                                  referees=[recorder, confirmer])
    services.add_entries_from_text(actor=Actor(user=boss), event=event, text="Ann\nBob")
    opened = services.pair_next_round(actor=Actor(user=boss), event=event)
    game_id = opened.matches[0].match_games.get().game_id
    record, accept = Client(), Client()
    record.defaults["HTTP_AUTHORIZATION"] = f"Token {scoring.issue_api_token(user=recorder)}"
    accept.defaults["HTTP_AUTHORIZATION"] = f"Token {scoring.issue_api_token(user=confirmer)}"
    number = [0]

    def one_hand() -> float:
        number[0] += 1
        start = time.perf_counter()
        made = record.post(f"/api/v1/games/{game_id}/hands/", json.dumps(
            {"result": "knock", "knocker": "Ann", "knocker_deadwood": 5, "opponent_deadwood": 7}),
            content_type="application/json")
        assert made.status_code == 201, made.content
        done = accept.post(f"/api/v1/games/{game_id}/hands/{number[0]}/confirm/", "{}",
                           content_type="application/json")
        assert done.status_code == 200, done.content
        return time.perf_counter() - start

    for _ in range(3):  # warm up
        one_hand()
    alone = [one_hand() for _ in range(HANDS)]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    notifications.create_subscription(actor=Actor(user=boss), url=f"http://127.0.0.1:{server.server_address[1]}/",
                                      types=["hand.confirmed"], event=event)
    slow = [one_hand() for _ in range(HANDS)]
    time.sleep(0.5)
    print(f"Recording and accepting a hand through the API, {HANDS} hands each (SQLite, jobs inline):")
    for label, times in (("no webhook", alone), (f"a hand.confirmed receiver taking {SLOW_SECONDS:.0f} s", slow)):
        print(f"  {label:<40} median {statistics.median(times) * 1000:6.1f} ms   slowest {max(times) * 1000:6.1f} ms")
    print(f"  deliveries the slow receiver had been sent meanwhile: {Slow.seen} of {HANDS} "
          "(the rest waiting in the background thread, none in a request)")
    server.shutdown()
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
