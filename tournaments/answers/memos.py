"""Content made from one version of an event's results, kept so that every phone does not make it again.

A key here always names the version it was made from (the results fingerprint, the tables' version),
so what is under a key never changes: it is read first from this worker's memory (no query at all),
then from the shared cache (one query), and made once only when neither has it. A new version is a new
key; old ones simply fall out. ``latest`` goes further for content that moves often (a round's tables
while hands are accepted): one worker makes a new version at a time, at most every few seconds, while
the others serve the last one made. Nothing here decides what the content is: the selectors and pages do.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache, caches

T = TypeVar("T")
KEEP_SECONDS = 6 * 3600
# Part of every key: raise it when what is kept changes shape, so that workers of a new release never
# read what an older release kept in the shared cache.
SHAPE = 2


def _key(key: str) -> str:
    return f"v{SHAPE}:{key}"


def versioned(key: str, make: Callable[[], T | None], *, shared: bool = True) -> T | None:
    """What is kept under ``key``, or ``make()`` kept there (a None from ``make`` is not kept).
    ``shared=False`` keeps it in this worker's memory only (content the database already holds)."""
    key = _key(key)
    local = caches["versioned"]
    found = local.get(key)
    if found is not None:
        return found
    if shared:
        found = cache.get(key)
    if found is None:
        found = make()
        if found is None:
            return None
        if shared:
            cache.set(key, found, KEEP_SECONDS)
    local.set(key, found, KEEP_SECONDS)
    return found


def peek(key: str) -> object | None:
    """What is kept under ``key`` (this worker's memory, then the shared cache), or None."""
    key = _key(key)
    found = caches["versioned"].get(key)
    if found is None:
        found = cache.get(key)
        if found is not None:
            caches["versioned"].set(key, found, KEEP_SECONDS)
    return found


def keep(key: str, value: object) -> None:
    key = _key(key)
    cache.set(key, value, KEEP_SECONDS)
    caches["versioned"].set(key, value, KEEP_SECONDS)


# A page part that moves often is made again at most this often, by one worker at a time.
MAKE_AT_MOST_EVERY_SECONDS = 3


def _waited(look: Callable[[], T | None], seconds: float) -> T | None:
    """What ``look`` finds within ``seconds``, looked for ever less often (the shared cache may be the
    database); None if nothing came."""
    waited, pause = 0.0, 0.02
    while waited < seconds:
        time.sleep(pause)
        waited += pause
        if (found := look()) is not None:
            return found
        pause = min(pause * 2, 0.25)
    return None


def _made_here(making: str, make: Callable[[], T]) -> T:
    """``make()`` by the request holding the ``making`` marker; if it fails, the marker goes with it, so that
    the others make it themselves rather than wait for what will not come."""
    try:
        return make()
    except BaseException:
        cache.delete(making)
        raise


def made_once(key: str, make: Callable[[], T | None]) -> T | None:
    """What is kept under ``key``, or ``make()`` kept there, made by one worker at a time: while another is
    making it, this one waits for that (at most ``MAKE_AT_MOST_EVERY_SECONDS``) rather than make it too.
    A None from ``make`` is not kept."""
    if (found := peek(key)) is not None:
        return found
    every, making = MAKE_AT_MOST_EVERY_SECONDS, _key(f"making:{key}")
    if every > 0 and not cache.add(making, 1, every) and (found := _waited(lambda: peek(key), every)) is not None:
        return found
    content = _made_here(making, make)
    if content is not None:
        keep(key, content)
    return content


def latest(name: str, version: str, make: Callable[[], Any], *, every: int | None = None) -> tuple[Any, str]:
    """``name``'s content at ``version`` and that version; or, while another worker is making it (or one
    was made less than ``every`` seconds ago), the last content made and its version. When none was ever
    made, a request waits (at most ``every`` seconds) for the one another worker is making."""
    every = MAKE_AT_MOST_EVERY_SECONDS if every is None else every
    exact = peek(f"{name}@{version}")
    if exact is not None:
        return exact, version
    last_key = _key(f"{name}@last")
    last = cache.get(last_key) or caches["versioned"].get(last_key)
    making = _key(f"making:{name}")
    if last is not None and every > 0 and not cache.add(making, version, every):
        return last[1], last[0]
    if last is None and every > 0 and not cache.add(making, version, every):
        # Nothing was ever made for ``name`` and another worker is making it: wait for that one rather than
        # make it too. At a round's release every phone's first page came at once, and every thread of every
        # worker rendered the same 500 tables side by side (issue 35).
        def made() -> tuple[Any, str] | None:
            if (exact := peek(f"{name}@{version}")) is not None:
                return exact, version
            made_meanwhile = cache.get(last_key)  # another version, made meanwhile and kept since
            return None if made_meanwhile is None else (made_meanwhile[1], made_meanwhile[0])

        if (found := _waited(made, every)) is not None:
            return found
    content = _made_here(making, make)
    keep(f"{name}@{version}", content)
    cache.set(last_key, (version, content), KEEP_SECONDS)
    caches["versioned"].set(last_key, (version, content), KEEP_SECONDS)
    return content, version
