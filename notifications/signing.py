"""Standard Webhooks signing (https://www.standardwebhooks.com, the spec's symmetric scheme), by the spec's own
Python library (``standardwebhooks``): a secret is ``whsec_`` and base64 of random bytes; a message is signed
with HMAC-SHA256 over ``"{webhook-id}.{webhook-timestamp}.{body}"`` and sent as ``webhook-signature: v1,<base64
of the digest>``. A receiver verifies with the same library (``Webhook(secret).verify(body, headers)``), or
with the few lines the integrators' page shows. What is ginscore's own: the secrets' and messages' ids.
"""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

PREFIX = "whsec_"
SECRET_BYTES = 32


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def new_message_id() -> str:
    return "msg_" + secrets.token_urlsafe(18)


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    """The ``webhook-signature`` header's value for this message."""
    return Webhook(secret).sign(msg_id, datetime.fromtimestamp(timestamp, UTC), body)


def headers(secret: str, msg_id: str, timestamp: int, body: str) -> dict[str, str]:
    return {"webhook-id": msg_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(secret, msg_id, timestamp, body)}
