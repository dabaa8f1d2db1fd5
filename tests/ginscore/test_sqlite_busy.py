"""The development database (SQLite) when two writers meet, e.g. two directors pairing at once: the second
waits for the first (a write transaction takes the write lock when it begins, with a busy timeout) and
then does its work; if the lock is held past the timeout it answers 503 "try again" on the page and the
API, in development (DEBUG) too, and nothing is changed. Never a 500.

It runs in a subprocess on a database file of its own: the suite's in-memory database is one connection's.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .test_settings import manage

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import sqlite3, threading, time
from django.core.management import call_command
from django.db import connection
from django.test import Client
from scoring.policy import Actor
from tournaments import services
from tournaments.models import Event, Round
from django.contrib.auth import get_user_model

call_command("migrate", verbosity=0)
users = get_user_model().objects
boss = users.create_user("boss", password="x", is_staff=True)
director = users.create_user("td", password="x")
event = services.create_event(actor=Actor(user=boss), name="Busy night", format="swiss", rounds=3,
                              directors=[director])
services.add_entries_from_text(actor=Actor(user=director), event=event, text="Ann\nBob\nCleo\nDev")
page, api = Client(), Client()
page.force_login(director)
api.force_login(director)
path = connection.settings_dict["NAME"]

# Another writer holds the write lock for a second: the pairing waits for it, then pairs.
other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
other.execute("BEGIN IMMEDIATE")
threading.Timer(1.0, lambda: other.execute("COMMIT")).start()
started = time.monotonic()
paired = page.post(f"/events/{event.pk}/pair/", {"once": "first"})
waited = time.monotonic() - started
print("waited", paired.status_code, Round.objects.filter(event=event).count(), waited >= 0.9)

# Held past the busy timeout (shortened here): "try again", 503, nothing changed, no 500 even with DEBUG.
time.sleep(0.2)
connection.close()
connection.settings_dict["OPTIONS"]["timeout"] = 0.3
other.execute("BEGIN IMMEDIATE")
busy_page = page.post(f"/events/{event.pk}/reset/", {"once": "second"})
busy_api = api.post(f"/api/v1/events/{event.pk}/entries/", {"name": "Eve"}, content_type="application/json")
other.execute("ROLLBACK")
print("page", busy_page.status_code, busy_page["Retry-After"], "try again" in busy_page.content.decode())
print("api", busy_api.status_code, busy_api.json()["errors"][0]["message"])
print("unchanged", Round.objects.filter(event=event).count(), event.entries.count())
'''


def test_sqlite_writers_wait_for_each_other_and_a_lock_held_too_long_answers_try_again(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"PYTEST_VERSION", "DJANGO_SETTINGS_MODULE"}}
    env.update(DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'busy.sqlite3'}")
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", SCRIPT], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.strip().splitlines()[-4:]
    assert lines == [
        "waited 302 1 True",
        "page 503 5 True",
        "api 503 the database is unavailable for a moment: nothing was changed, try again shortly",
        "unchanged 1 4",
    ], result.stdout + result.stderr[-2000:]


@pytest.mark.parametrize(("url", "expected"), [("sqlite:////tmp/x.sqlite3", "IMMEDIATE 20"),
                                               ("postgres://u@127.0.0.1:5432/g", "None None")])
def test_only_sqlite_gets_the_immediate_transactions_and_the_busy_timeout(url, expected):
    shown = manage("shell", "-c", "from django.conf import settings; o = settings.DATABASES['default']"
                   ".get('OPTIONS', {}); print(o.get('transaction_mode'), o.get('timeout'))",
                   DEBUG="1", DATABASE_URL=url)
    assert shown.stdout.strip().splitlines()[-1] == expected, shown.stderr
