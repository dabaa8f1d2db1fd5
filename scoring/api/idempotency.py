"""``Idempotency-Key`` for every POST: a retry gets the first answer back and records nothing twice.

The first request with a key runs, and its answer is stored in the same transaction as its writes.
A retry (same actor, same key) gets the stored answer; the same key with a different body is refused.
Two copies racing: the second waits on the game lock, then its answer row collides with the first's
(a unique constraint), its transaction rolls back, and it replays the first answer.
"""

import hashlib
import json
from functools import wraps

from django.db import IntegrityError, transaction
from rest_framework.response import Response

from scoring.models import IdempotencyRecord

from .auth import actor_for

HEADER = "HTTP_IDEMPOTENCY_KEY"


def _fingerprint(request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        return Response({"errors": [{"hand": None, "field": "Idempotency-Key",
                                     "message": "this key was already used for a different request"}]}, status=422)
    response = Response(record.body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(handler):
    @wraps(handler)
    def wrapped(view, request, *args, **kwargs):
        key = request.META.get(HEADER)
        if not key:
            return handler(view, request, *args, **kwargs)
        if len(key) > 200:
            return Response({"errors": [{"hand": None, "field": "Idempotency-Key",
                                         "message": "keep the key under 200 characters"}]}, status=400)
        actor = actor_for(request).key
        fingerprint = _fingerprint(request)
        existing = IdempotencyRecord.objects.filter(actor=actor, key=key).first()
        if existing:
            return _replay(existing, fingerprint)
        try:
            with transaction.atomic():
                response = handler(view, request, *args, **kwargs)
                if response.status_code < 500:
                    IdempotencyRecord.objects.create(
                        actor=actor, key=key, method=request.method, path=request.path[:300],
                        fingerprint=fingerprint, status_code=response.status_code, body=response.data,
                    )
        except IntegrityError:
            existing = IdempotencyRecord.objects.filter(actor=actor, key=key).first()
            if existing is None:
                raise
            return _replay(existing, fingerprint)
        return response

    return wrapped
