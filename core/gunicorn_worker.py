"""gunicorn's threaded worker, noting how long each request waited for a thread, and taking new
connections only while it has a thread free.

``gunicorn.conf.py`` names it as the worker class. Two changes to gunicorn's own ``gthread`` worker:

- A connection is stamped when it is queued for a thread (a new connection, or a keep-alive one with a
  new request), and the thread that takes it tells ``core.shedding`` how long that was, so that a
  request whose client has likely gone is answered 503 at once (``LoadSheddingMiddleware``).
- Every worker process waits on the same listening socket. gthread accepts whenever it holds fewer
  than ``worker_connections`` (1,000): the first worker to wake took most of a burst of keep-alive
  connections (phones, tables) and served them all on its one interpreter lock while the other
  processes idled. Here a worker accepts only while one of its threads is free, so connections spread
  over the processes; idle keep-alive connections cost no thread and are not counted.
"""

from __future__ import annotations

import time

from gunicorn.workers.gthread import ThreadWorker

from core.shedding import note_wait


class SheddingThreadWorker(ThreadWorker):
    def __init__(self, *args, **kwargs):
        self.in_flight = 0  # connections queued for or held by a thread
        super().__init__(*args, **kwargs)

    @property
    def worker_connections(self) -> int:
        # Read by gthread's loop as "accept while nr_conns < worker_connections".
        if self.in_flight >= self.cfg.threads:
            return self.nr_conns
        return min(self._most_connections, self.nr_conns + 1)

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._most_connections = value

    def enqueue_req(self, conn):
        conn.queued_at = time.monotonic()
        self.in_flight += 1
        super().enqueue_req(conn)

    def finish_request(self, conn, fs):
        self.in_flight -= 1
        super().finish_request(conn, fs)

    def handle(self, conn):
        queued_at = getattr(conn, "queued_at", None)
        note_wait(None if queued_at is None else time.monotonic() - queued_at)
        try:
            return super().handle(conn)
        finally:
            note_wait(None)
