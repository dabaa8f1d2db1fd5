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
meanwhile and its key used afresh) and stored zlib-compressed.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from datetime import timedelta
from functools import wraps

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone
from rest_framework.response import Response

from core.api.errors import error_body
from scoring.models import IdempotencyRecord

from ..actors import actor_for

HEADER = "HTTP_IDEMPOTENCY_KEY"
REPLAY_WINDOW = timedelta(hours=24)
MAX_KEY = 200
COLUMNS = ("actor", "key", "method", "path", "fingerprint", "status_code", "answer", "created_at")


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


def _store(*, actor: str, key: str, request, fingerprint: str, response) -> bool:
    """Keep the answer under the key, in the request's transaction; False when another copy holds the key
    (having waited for it to commit)."""
    table = connection.ops.quote_name(IdempotencyRecord._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in COLUMNS)
    raw = [actor, key, request.method, request.path[:300], fingerprint, response.status_code,
           compress(response.data), timezone.now()]
    # Each value as the ORM would write it (a datetime in the database's own form, say).
    values = [IdempotencyRecord._meta.get_field(name).get_db_prep_save(value, connection)
              for name, value in zip(COLUMNS, raw, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(COLUMNS))}) "
            f"ON CONFLICT ({connection.ops.quote_name('actor')}, {connection.ops.quote_name('key')}) DO NOTHING "
            f"RETURNING {connection.ops.quote_name('id')}",
            values,
        )
        return cursor.fetchone() is not None


class _KeyTaken(Exception):
    """Another copy of this request stored its answer first: roll back everything this copy did."""


class _Discard(Exception):
    def __init__(self, response):
        self.response = response


def _answer_of_the_first_copy(*, actor: str, key: str, fingerprint: str) -> Response | None:
    """What a copy gets once the key is taken; None when the key may be used afresh (its answer is older
    than the replay window, or an earlier release left a claim without an answer), after freeing it."""
    existing = IdempotencyRecord.objects.filter(actor=actor, key=key).first()
    if existing is None:
        return None
    if existing.created_at < timezone.now() - REPLAY_WINDOW or existing.status_code is None:
        IdempotencyRecord.objects.filter(pk=existing.pk, created_at=existing.created_at).delete()
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
                    if not _store(actor=actor, key=key, request=request, fingerprint=fingerprint, response=response):
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
