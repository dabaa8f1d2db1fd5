"""Once: a write sent twice (a double tap, Back then send, a client's retry) is done once. Every guard against a
duplicate submission claims a one-time key (``OnceKey``) in the same transaction as the write it came with, so
a write that fails (a 500, a 503 while the database restarts) leaves its key free and the retry does it once;
a copy sent at the same moment waits on the key's unique index for the first to commit, then finds it taken.

- ``claim``: a form's key (a hand entry form, a director's form), with what its first use made (a game and
  its hand), for the caller to say which hand is already there.
- ``store_answer`` / ``first_answer``: an API request's ``Idempotency-Key``, whose first answer is stored as
  the last statement of the request's transaction and replayed to every copy (``scoring.api.idempotency``).

Keys live 24 hours (``forget_expired``); an older one is ignored and its key used afresh. It knows nothing of
what the writes are.
"""

from __future__ import annotations

import json
import zlib
from datetime import timedelta

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.utils import timezone

from . import fast_json
from .models import OnceKey

Kind = OnceKey.Kind
REPLAY_WINDOW = timedelta(hours=24)
MAX_KEY = 200
API_COLUMNS = ("kind", "actor", "key", "method", "path", "fingerprint", "status_code", "answer", "object_id",
               "number", "created_at")


def claim(kind: str, *, actor: str, key: str, fingerprint: str = "", object_id: int | None = None,
          number: int | None = None) -> OnceKey | None:
    """Claim ``key`` for ``actor`` in the caller's transaction: None when it was free (it is now taken, and is
    freed again if that transaction rolls back), else the claim already made, to say what it did. A claim
    older than the replay window is dropped and the key claimed afresh."""
    record, created = OnceKey.objects.get_or_create(
        kind=kind, actor=actor, key=key[:MAX_KEY],
        defaults={"fingerprint": fingerprint, "object_id": object_id, "number": number},
    )
    if created:
        return None
    if record.created_at < timezone.now() - REPLAY_WINDOW:
        OnceKey.objects.filter(pk=record.pk).update(fingerprint=fingerprint, object_id=object_id, number=number,
                                                    created_at=timezone.now())
        return None
    return record


def compress(data) -> bytes:
    """An answer's body as compact JSON (orjson where it writes what the standard encoder would: a round of
    500 tables published is 400 kB), compressed."""
    text = fast_json.dumps_or_none(data, _ENCODER.default)
    if text is None:
        text = json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")).encode()
    return zlib.compress(text, 6)


_ENCODER = DjangoJSONEncoder()


def answer_of(record: OnceKey):
    """The stored answer's body (decoded), or None."""
    return json.loads(zlib.decompress(bytes(record.answer))) if record.answer else None


def store_answer(*, actor: str, key: str, method: str, path: str, fingerprint: str, status_code: int,
                 data) -> bool:
    """Keep an API request's answer under its key, as one statement of the request's transaction
    (``INSERT ... ON CONFLICT DO NOTHING``); False when another copy holds the key (having waited for it to
    commit)."""
    quote = connection.ops.quote_name
    raw = [Kind.API, actor, key, method, path[:300], fingerprint, status_code, compress(data), None, None,
           timezone.now()]
    # Each value as the ORM would write it (a datetime in the database's own form, say).
    values = [OnceKey._meta.get_field(name).get_db_prep_save(value, connection)
              for name, value in zip(API_COLUMNS, raw, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(OnceKey._meta.db_table)} ({', '.join(quote(c) for c in API_COLUMNS)}) "
            f"VALUES ({', '.join(['%s'] * len(API_COLUMNS))}) "
            f"ON CONFLICT ({quote('kind')}, {quote('actor')}, {quote('key')}) DO NOTHING RETURNING {quote('id')}",
            values,
        )
        return cursor.fetchone() is not None


def first_answer(*, actor: str, key: str) -> OnceKey | None:
    """The first copy's stored answer to an API request; None when the key may be used afresh (its answer is
    older than the replay window, or a claim was left without an answer), after freeing it."""
    existing = OnceKey.objects.filter(kind=Kind.API, actor=actor, key=key).first()
    if existing is None:
        return None
    if existing.created_at < timezone.now() - REPLAY_WINDOW or existing.status_code is None:
        OnceKey.objects.filter(pk=existing.pk, created_at=existing.created_at).delete()
        return None
    return existing


def forget_expired() -> int:
    """Delete the keys older than the replay window (``cleanup_expired``); returns how many."""
    deleted, _ = OnceKey.objects.filter(created_at__lt=timezone.now() - REPLAY_WINDOW).delete()
    return deleted
