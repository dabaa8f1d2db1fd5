"""``Idempotency-Key`` for any API POST (``@idempotent``): every copy of a request gets the first answer.

Any app's API view may use it. The key (per actor) is *claimed* in its own committed row before the
request runs, so copies arriving together find it at once: while the first copy runs they get
409 "still in progress" (with ``Retry-After``), as the IETF draft says; afterwards the stored first
answer (``Idempotent-Replayed: true``); the same key with another body, 422. The first copy's answer
is stored in the same transaction as its writes, so a hand is never recorded without its answer,
nor an answer kept for a hand that was rolled back. User errors (a refused hand, a wrong PIN) are
answers too: they are stored and replayed, and whatever the request wrote (a wrong PIN's count)
is kept. A 5xx or a crash releases the claim: nothing was written, the client may retry.

Answers are kept 24 hours (``manage.py cleanup_expired`` deletes older ones; an older one is ignored
meanwhile) and stored zlib-compressed. A claim whose request died without releasing it (a killed
worker) is taken over after ``STALE_CLAIM``, longer than any request may run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import zlib
from datetime import timedelta
from functools import wraps

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.response import Response

from scoring.models import IdempotencyRecord

from .auth import actor_for
from .errors import error_body

HEADER = "HTTP_IDEMPOTENCY_KEY"
REPLAY_WINDOW = timedelta(hours=24)
STALE_CLAIM = timedelta(minutes=2)
MAX_KEY = 200


def _fingerprint(request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def compress(data) -> bytes:
    return zlib.compress(json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")).encode(), 6)


def _replay(record: IdempotencyRecord) -> Response:
    data = json.loads(zlib.decompress(bytes(record.answer))) if record.answer else None
    response = Response(data, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def _refusal(status: int, message: str, **headers) -> Response:
    return Response(error_body(message, "Idempotency-Key"), status=status, headers=headers)


def _claim(*, actor: str, key: str, request, fingerprint: str) -> tuple[IdempotencyRecord | None, Response | None]:
    """Claim ``key`` for this request (the record), or say what this copy gets instead (the response)."""
    for _ in range(3):
        now = timezone.now()
        try:
            with transaction.atomic():
                return IdempotencyRecord.objects.create(
                    actor=actor, key=key, method=request.method, path=request.path[:300], fingerprint=fingerprint,
                    created_at=now,
                ), None
        except IntegrityError:
            pass
        existing = IdempotencyRecord.objects.filter(actor=actor, key=key).first()
        if existing is None:
            continue  # released in the meantime: claim it again
        expired = existing.created_at < now - REPLAY_WINDOW
        abandoned = existing.status_code is None and existing.created_at < now - STALE_CLAIM
        if expired or abandoned:
            # One of the copies taking it over wins: the row still has the creation time it read.
            taken = IdempotencyRecord.objects.filter(pk=existing.pk, created_at=existing.created_at).update(
                created_at=now, status_code=None, answer=b"", fingerprint=fingerprint, method=request.method,
                path=request.path[:300],
            )
            if taken:
                existing.created_at = now
                return existing, None
            continue
        if existing.fingerprint != fingerprint:
            return None, _refusal(422, "this key was already used for a different request")
        if existing.status_code is None:
            return None, _refusal(409, "a request with this key is still in progress: retry shortly",
                                  **{"Retry-After": "1"})
        return None, _replay(existing)
    return None, _refusal(409, "a request with this key is still in progress: retry shortly", **{"Retry-After": "1"})


def _release(record: IdempotencyRecord) -> None:
    # The database may be the reason we are here: then the claim goes stale and is taken over later.
    with contextlib.suppress(Exception):
        IdempotencyRecord.objects.filter(pk=record.pk, status_code__isnull=True).delete()


class _Discard(Exception):
    def __init__(self, response):
        self.response = response


def idempotent(handler):
    """Decorate an APIView's ``post`` (or other unsafe method) with Idempotency-Key handling."""

    @wraps(handler)
    def wrapped(view, request, *args, **kwargs):
        key = request.META.get(HEADER)
        if not key:
            return handler(view, request, *args, **kwargs)
        if len(key) > MAX_KEY or not key.isprintable():
            return _refusal(400, f"a key is printable text of at most {MAX_KEY} characters")
        record, answer = _claim(actor=actor_for(request).key, key=key, request=request,
                                fingerprint=_fingerprint(request))
        if answer is not None:
            return answer
        try:
            with transaction.atomic():
                try:
                    response = handler(view, request, *args, **kwargs)
                except Exception as exc:  # user errors become answers; bugs are re-raised
                    response = view.handle_exception(exc)
                if response.status_code >= 500:
                    raise _Discard(response)
                IdempotencyRecord.objects.filter(pk=record.pk).update(
                    status_code=response.status_code, answer=compress(response.data),
                )
        except _Discard as discarded:
            _release(record)
            return discarded.response
        except BaseException:
            _release(record)
            raise
        return response

    return wrapped
