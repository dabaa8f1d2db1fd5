"""Standard Webhooks signing (https://www.standardwebhooks.com, the spec's symmetric scheme): a secret is
``whsec_`` and base64 of at least 24 random bytes; a message is signed with HMAC-SHA256 over
``"{webhook-id}.{webhook-timestamp}.{body}"`` and sent as ``webhook-signature: v1,<base64 of the digest>``.
``verify`` is what a receiver does (the integrators' page shows the same in a few lines).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time

PREFIX = "whsec_"
SECRET_BYTES = 32
TOLERANCE_SECONDS = 5 * 60


class BadSignature(Exception):
    """A delivery that does not verify: a missing header, a timestamp too far off, no signature matching."""


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def new_message_id() -> str:
    return "msg_" + secrets.token_urlsafe(18)


def _key(secret: str) -> bytes:
    raw = secret[len(PREFIX):] if secret.startswith(PREFIX) else secret
    return base64.b64decode(raw + "=" * (-len(raw) % 4))


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    """The ``webhook-signature`` header's value for this message."""
    digest = hmac.new(_key(secret), f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(secret: str, msg_id: str, timestamp: int, body: str) -> dict[str, str]:
    return {"webhook-id": msg_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(secret, msg_id, timestamp, body)}


def verify(secret: str, body: str, received: dict[str, str], *, now: float | None = None) -> None:
    """Raise ``BadSignature`` unless one of the signatures received is this body's, sent within 5 minutes."""
    lowered = {k.lower(): v for k, v in received.items()}
    try:
        msg_id, stamp, given = (lowered["webhook-id"], lowered["webhook-timestamp"], lowered["webhook-signature"])
        timestamp = int(stamp)
    except (KeyError, ValueError):
        raise BadSignature("missing or malformed webhook headers") from None
    if abs((time.time() if now is None else now) - timestamp) > TOLERANCE_SECONDS:
        raise BadSignature("the timestamp is too far from now")
    expected = sign(secret, msg_id, timestamp, body).partition(",")[2]
    for candidate in given.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return
    raise BadSignature("no signature matches")
