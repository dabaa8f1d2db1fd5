"""gunicorn's threaded worker, noting how long each request waited in the queue for a thread.

``gunicorn.conf.py`` names it as the worker class. A connection is stamped when it is queued for a
thread (a new connection, or a keep-alive one with a new request), and the thread that takes it tells
``ginscore.shedding`` how long that was, so that a request whose client has likely gone is answered 503
at once (``LoadSheddingMiddleware``). Everything else is gunicorn's own ``gthread`` worker.
"""

from __future__ import annotations

import time

from gunicorn.workers.gthread import ThreadWorker

from .shedding import note_wait


class SheddingThreadWorker(ThreadWorker):
    def enqueue_req(self, conn):
        conn.queued_at = time.monotonic()
        super().enqueue_req(conn)

    def handle(self, conn):
        queued_at = getattr(conn, "queued_at", None)
        note_wait(None if queued_at is None else time.monotonic() - queued_at)
        try:
            return super().handle(conn)
        finally:
            note_wait(None)
