"""Work that must not hold up the request that caused it, in this process: a slow receiver or mail server
never slows the write that asked for it. Such work is handed off by ``core.jobs.off_request``: on PostgreSQL
a queued job; with jobs inline (SQLite: ``make run``, the tests) ``defer_on_commit`` here, to one worker thread
of the process that runs it once the transaction commits, or ``delay`` seconds later.

A thread's work is lost if the process stops before it runs: whoever defers must keep what is owed in its
own rows (and sweep them when it starts again). ``wait_idle`` lets a test wait for the work it caused.

With ``settings.BACKGROUND_THREAD`` off (the tests, whose in-memory SQLite lets one thread write at a time) no
thread is started: the work waits, still never inside the request, until ``wait_idle`` runs it in the caller.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import close_old_connections, connections, transaction

__all__ = ["defer_on_commit", "forget_waiting", "run_later", "wait_idle"]

log = logging.getLogger(__name__)

_lock = threading.Condition()
_heap: list[tuple[float, int, Callable[[], None]]] = []
_seq = itertools.count()
_running = 0
_thread: threading.Thread | None = None


def run_later(work: Callable[[], None], delay: float = 0.0) -> None:
    """Run ``work()`` in the worker thread ``delay`` seconds from now."""
    global _thread
    with _lock:
        heapq.heappush(_heap, (time.monotonic() + max(0.0, delay), next(_seq), work))
        if not settings.BACKGROUND_THREAD:
            return
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_work, name="background-work", daemon=True)
            _thread.start()
        _lock.notify_all()


def defer_on_commit(work: Callable[[], None], delay: float = 0.0) -> None:
    """Run ``work()`` in the worker thread once the current transaction commits (never if it rolls back)."""

    def hand_to_background_after_commit() -> None:
        run_later(work, delay)

    transaction.on_commit(hand_to_background_after_commit, robust=True)


def _work() -> None:
    global _running, _thread
    while True:
        with _lock:
            while not _heap or _heap[0][0] > time.monotonic():
                if not settings.BACKGROUND_THREAD:  # turned off (a test): the waiting work is run by wait_idle
                    _thread = None
                    return
                _lock.wait(None if not _heap else max(0.0, _heap[0][0] - time.monotonic()))
            _, _, work = heapq.heappop(_heap)
            _running += 1
        try:
            work()
        except Exception:
            log.exception("background work failed")
        finally:
            close_old_connections()
            for conn in connections.all(initialized_only=True):
                if not conn.in_atomic_block:
                    conn.close()
            with _lock:
                _running -= 1
                _lock.notify_all()


def wait_idle(timeout: float = 10.0, *, within: float | None = None) -> bool:
    """Wait until no work runs and none is due within ``within`` seconds (by default: none waits at all);
    False if ``timeout`` passed first."""
    end = time.monotonic() + timeout
    if not settings.BACKGROUND_THREAD:
        return _run_here(end, within)
    with _lock:
        while True:
            horizon = time.monotonic() + (within if within is not None else float("inf"))
            if _running == 0 and not any(due <= horizon for due, _, _ in _heap):
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            _lock.wait(min(left, 0.05))


def _run_here(end: float, within: float | None) -> bool:
    """No thread: run the work due within ``within`` seconds here, in order, waiting for each one's time."""
    while True:
        with _lock:
            horizon = time.monotonic() + (within if within is not None else float("inf"))
            if not _heap or _heap[0][0] > horizon:
                return True
            due = _heap[0][0]
        if due > end:
            return False
        if due > time.monotonic():
            time.sleep(due - time.monotonic())
        with _lock:
            _, _, work = heapq.heappop(_heap)
        try:
            work()
        except Exception:
            log.exception("background work failed")


def forget_waiting() -> int:
    """Drop the work still waiting (a test's retries due later, before the next test); how many were dropped."""
    with _lock:
        dropped = len(_heap)
        _heap.clear()
        _lock.notify_all()
        return dropped
