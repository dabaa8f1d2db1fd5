"""gunicorn's settings for ginscore (``gunicorn -c gunicorn.conf.py ginscore.wsgi``; the Procfile's ``web``).

Threaded workers (``core.gunicorn_worker``: gunicorn's gthread, noting how long each request
waited, so that past capacity it is answered 503 at once: ``core.shedding``). A request mostly waits
on the database, so a few threads per process keep the cores busy; keep-alive lets a phone or a table
reuse its connection. Each value can be set from the environment.
"""

import multiprocessing
import os

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", str(multiprocessing.cpu_count() * 2)))
worker_class = "core.gunicorn_worker.SheddingThreadWorker"
threads = int(os.environ.get("WEB_THREADS", "4"))
# Connections held open per worker (idle keep-alive ones cost no thread).
worker_connections = int(os.environ.get("WEB_CONNECTIONS", "1000"))
keepalive = int(os.environ.get("WEB_KEEPALIVE", "20"))
# A request still running after this is a bug (every view answers in milliseconds): the worker is restarted.
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT", "20"))
# The kernel's queue of connections not yet accepted.
backlog = int(os.environ.get("WEB_BACKLOG", "2048"))
# The longest request line read (gunicorn's default); longer ones are answered 414 before the application
# sees them, as the OpenAPI schema says (scoring.api.schema.REQUEST_LINE_LIMIT).
limit_request_line = 4094
accesslog = os.environ.get("WEB_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("WEB_LOG_LEVEL", "warning")
# The application is loaded in each worker after the fork: each has its own database connection.
preload_app = False


def post_worker_init(worker):
    """Once the worker has loaded the application: its modules, URL map (both ways) and views (imported
    now rather than by the first request) are moved out of the garbage collector's sight (``gc.freeze``), and the
    youngest generation may hold 10,000 objects rather than 700 before it is collected, so that most of
    a request's objects are gone before a collection looks at them. Measured behind gunicorn (the API
    benchmark's phases, each worker's collections timed): 0.80 to 0.93 s of 9 to 10 s of a worker's CPU
    went to collecting; frozen, 0.64 to 0.73 s; frozen with the larger young generation, 0.44 to 0.51 s
    (about 40 collections rather than 550). Memory hardly moves: what is frozen lives as long as the
    process anyway."""
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (imports every view, serializer and form)
    # The map from names back to paths, which the first reverse() of each worker built (12 ms, inside a
    # director's publish of a round in the night's measurement).
    get_resolver().reverse_dict  # noqa: B018
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
