"""Past capacity, a request that waited too long in gunicorn's queue is answered 503 at once (no session,
no database): reads sooner than writes. The worker class notes the wait; the middleware decides."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import RequestFactory

from core import shedding

ROOT = Path(__file__).resolve().parents[2]


def served(method, path, waited):
    shedding.note_wait(waited)
    request = getattr(RequestFactory(), method.lower())(path)
    return shedding.LoadSheddingMiddleware(lambda r: "served")(request)


@pytest.mark.django_db
def test_a_read_that_waited_longer_than_its_limit_is_answered_503_at_once(django_assert_num_queries):
    with django_assert_num_queries(0):
        busy = served("GET", "/api/v1/events/1/standings/", 1.5)
    assert (busy.status_code, busy["Retry-After"]) == (503, "2")
    assert json.loads(busy.content)["errors"][0]["message"].startswith("the server is busy: nothing was done")
    page = served("GET", "/events/1/pairings/", 1.5)
    assert (page.status_code, page["Content-Type"]) == (503, "text/plain; charset=utf-8")


def test_a_write_waits_longer_before_it_is_shed_and_nothing_is_shed_when_no_wait_was_noted():
    assert served("POST", "/api/v1/games/1/hands/", 1.5) == "served"
    assert served("POST", "/api/v1/games/1/hands/", 3.5).status_code == 503
    assert served("GET", "/events/1/pairings/", 0.2) == "served"
    assert served("GET", "/events/1/pairings/", None) == "served"  # runserver, tests: never shed


def test_the_wait_noted_is_for_one_request_only():
    shedding.note_wait(5.0)
    assert served("GET", "/", None) == "served"
    shedding.note_wait(5.0)
    assert served("GET", "/", 5.0).status_code == 503
    assert shedding.waited() is None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(("reads_after", "status"), [("0", 503), ("60", 200)])
def test_gunicorn_with_the_projects_settings_notes_each_requests_wait(tmp_path, reads_after, status):
    port = _free_port()
    env = {**{k: v for k, v in os.environ.items() if k != "PYTEST_VERSION"}, "DEBUG": "1", "BIND": f"127.0.0.1:{port}",
           "WEB_CONCURRENCY": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "SHED_READS_AFTER": reads_after}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "ginscore.wsgi"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        answer = None
        for _ in range(100):
            try:
                answer = urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
                break
            except urllib.error.HTTPError as refused:
                answer = refused
                break
            except OSError:
                time.sleep(0.1)
        assert answer is not None, server.stderr.read1().decode() if server.poll() is not None else "no answer"
        assert answer.status == status  # 0 s: any wait at all is too long; 60 s: served
        if status == 503:
            assert answer.headers["Retry-After"] == "2"
    finally:
        server.terminate()
        server.wait(timeout=20)
