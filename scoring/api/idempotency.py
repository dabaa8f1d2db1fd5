"""``Idempotency-Key`` for any API POST (``@idempotent``): every copy of a request gets the first answer.

Any app's API view may use it. The request runs, and its answer is stored under (actor, key) as the
last statement of the same transaction as its writes (``INSERT ... ON CONFLICT DO NOTHING``): a hand
is never recorded without its answer, nor an answer kept for a hand that was rolled back, and a request
that fails (a 5xx, a crash, the database going away) leaves nothing behind, so its retry runs at once.
A copy arriving while the first runs waits at that insert for the first to commit (the database's
unique index), then finds the key taken: everything the copy did is rolled back and it gets the first
answer (``Idempotent-Replayed: true``); the same key with another body, 422. User errors (a refused
hand, a wrong PIN) are answers too: they are stored and replayed, and whatever the request wrote (a
wrong PIN's count) is kept.

Answers are kept 24 hours (``manage.py cleanup_expired`` deletes older ones; an older one is ignored
meanwhile and its key used afresh) and stored zlib-compressed, as one kind of ``core.once``'s keys.
"""

from __future__ import annotations

import hashlib
import json
from functools import wraps

from django.db import transaction
from rest_framework.response import Response

from core import once
from core.api.errors import error_body
from core.models import OnceKey

from ..actors import actor_for

HEADER = "HTTP_IDEMPOTENCY_KEY"
REPLAY_WINDOW = once.REPLAY_WINDOW
MAX_KEY = once.MAX_KEY


def _fingerprint(request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _replay(record: OnceKey) -> Response:
    response = Response(once.answer_of(record), status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def _refusal(status: int, message: str, **headers) -> Response:
    return Response(error_body(message, "Idempotency-Key"), status=status, headers=headers)


class _KeyTaken(Exception):
    """Another copy of this request stored its answer first: roll back everything this copy did."""


class _Discard(Exception):
    def __init__(self, response):
        self.response = response


def _answer_of_the_first_copy(*, actor: str, key: str, fingerprint: str) -> Response | None:
    """What a copy gets once the key is taken; None when the key may be used afresh."""
    existing = once.first_answer(actor=actor, key=key)
    if existing is None:
        return None
    if existing.fingerprint != fingerprint:
        return _refusal(422, "this key was already used for a different request")
    return _replay(existing)


def idempotent(handler):
    """Decorate an APIView's ``post`` (or other unsafe method) with Idempotency-Key handling."""

    @wraps(handler)
    def wrapped(view, request, *args, **kwargs):
        key = request.META.get(HEADER)
        if not key:
            return handler(view, request, *args, **kwargs)
        if len(key) > MAX_KEY or not key.isprintable():
            return _refusal(400, f"a key is printable text of at most {MAX_KEY} characters")
        actor, fingerprint = actor_for(request).key, _fingerprint(request)
        for _ in range(3):
            try:
                with transaction.atomic():
                    try:
                        response = handler(view, request, *args, **kwargs)
                    except Exception as exc:  # user errors become answers; bugs are re-raised
                        response = view.handle_exception(exc)
                    if response.status_code >= 500:
                        raise _Discard(response)
                    if not once.store_answer(actor=actor, key=key, method=request.method, path=request.path,
                                             fingerprint=fingerprint, status_code=response.status_code,
                                             data=response.data):
                        raise _KeyTaken
                return response
            except _Discard as discarded:
                return discarded.response
            except _KeyTaken:
                first = _answer_of_the_first_copy(actor=actor, key=key, fingerprint=fingerprint)
                if first is not None:
                    return first
        return _refusal(409, "this key is being used by other requests at this moment: retry shortly",
                        **{"Retry-After": "1"})

    return wrapped
