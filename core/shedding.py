"""Load shedding: past capacity, answer 503 at once instead of doing work whose client has gone.

When more requests arrive than the workers can serve, they wait in each worker's queue. A phone gives
up after a few seconds and asks again; serving its old request afterwards only delays every newer one,
and soon nothing useful gets through. gunicorn's worker (``core.gunicorn_worker``) notes how long
each request waited in the queue before a thread took it; this middleware, first in the chain (before
sessions or the database), answers such a request 503 with ``Retry-After`` when it waited longer than
its kind may: reads (a phone's refresh, which backs off) sooner than writes (a hand at a table).

It knows nothing of the views: only the request's method and how long it waited. Under ``runserver``
and the tests, no wait is noted and nothing is shed.
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.http import HttpResponse, JsonResponse

_waited = threading.local()
RETRY_AFTER_SECONDS = 2


def note_wait(seconds: float | None) -> None:
    """How long the request this thread is about to serve waited in the queue (None: not known)."""
    _waited.seconds = seconds


def waited() -> float | None:
    return getattr(_waited, "seconds", None)


class LoadSheddingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        seconds = waited()
        note_wait(None)  # a keep-alive connection's next request is timed afresh
        if seconds is not None:
            limit = settings.SHED_READS_AFTER if request.method in ("GET", "HEAD") else settings.SHED_WRITES_AFTER
            if seconds > limit:
                return _busy(request)
        return self.get_response(request)


def _busy(request):
    message = "the server is busy: nothing was done, try again in a moment"
    if request.path.startswith("/api/"):
        response = JsonResponse({"errors": [{"hand": None, "field": None, "message": message}]}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response
