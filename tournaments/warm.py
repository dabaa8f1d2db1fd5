"""The live pages made before any phone asks for them.

When a round is published, every phone in the hall opens its pairings or standings page within seconds; on
a night of 1,000 players the first request for a new version made the page while hundreds of others waited
behind it (issue 35: p95 4 s for those first pages). So once a new results version is stored (a round
published, a match decided: ``signals.answer_refreshed``) a job asks this server, through Django's own
request handler and exactly as a phone that is not signed in would, for the pages the hall opens: the
pairings and the standings (whole and as the part a refresh fetches), the projector and, in a bracket, the
bracket. The pages keep what they made under that version (``answers.memos``), in the shared cache, so
the first burst is served what is already made.

Only where jobs run in a worker of their own (PostgreSQL's queue): on SQLite the job would run in the
request that published the round, and the first phone making the page costs no more than that.
"""

from __future__ import annotations

import io
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.urls import reverse

from core import jobs
from tournaments.models import Event

log = logging.getLogger(__name__)

_handler: WSGIHandler | None = None


def live_page_paths(event: Event) -> list[str]:
    """What the hall's phones and the projector open first, whole and as a refresh's part."""
    paths = []
    for name in ("pairings", "standings", "display") + (("bracket",) if event.is_elimination else ()):
        path = reverse(f"tournaments:{name}", args=[event.pk])
        paths += [path, f"{path}?fragment=1"]
    return paths


def _host() -> str:
    hosts = [h for h in settings.ALLOWED_HOSTS if h and h != "*" and not h.startswith(".")]
    return hosts[0] if hosts else "localhost"


def get_as_a_phone(path: str) -> int:
    """GET ``path`` through the whole middleware stack as a phone with no session would; its status."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    url = urlsplit(path)
    secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))
    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": url.path, "QUERY_STRING": url.query, "SCRIPT_NAME": "",
        "SERVER_NAME": _host(), "SERVER_PORT": "443" if secure else "80", "HTTP_HOST": _host(),
        "REMOTE_ADDR": "127.0.0.1", "HTTP_ACCEPT_ENCODING": "gzip", "HTTP_USER_AGENT": "ginscore page warmer",
        "wsgi.input": io.BytesIO(b""), "wsgi.errors": io.StringIO(), "wsgi.url_scheme": "https" if secure else "http",
        "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }
    status: list[str] = []
    # The job's own database connection is not a request's: a page asked for inside it must not close it at
    # the request's start and end (as Django's test client, which does the same, keeps it open).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response = _handler(environ, lambda s, headers, exc_info=None: status.append(s))
        try:
            for _ in response:
                pass
        finally:
            if hasattr(response, "close"):
                response.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return int(status[0].split()[0]) if status else 0


def warm_live_pages_now(event_id: int) -> dict[str, int]:
    """Make the event's live pages for its current version; ``{path: status}`` (a page that fails is logged
    and left for the first phone to make, as without this job)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not event.is_public or event.status == Event.Status.CANCELLED:
        return {}
    made = {}
    for path in live_page_paths(event):
        made[path] = get_as_a_phone(path)
        if made[path] != 200:
            log.warning("warming %s answered %s", path, made[path])
    return made


@jobs.catch_up_task(name="tournaments.warm_live_pages", lock=lambda event_id: f"warm-pages:{event_id}", attempts=1)
def warm_live_pages(event_id: int) -> None:
    """The job: idempotent (a page already made for this version is only read back)."""
    warm_live_pages_now(event_id)


def warm_after_refresh(event: Event) -> None:
    """Queue the warming after a new answer was stored, where a worker of its own runs it (at most one
    waiting per event: the pages of the newest version are made when it runs)."""
    if not jobs.queued():
        return
    jobs.run_or_queue(warm_live_pages, event_id=event.pk)
