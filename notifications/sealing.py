"""A sign-up's own link kept sealed for the email that must carry it again (a waitlist promotion): the token
XORed with a keystream of HMAC-SHA256 under a key derived from ``SECRET_KEY`` and the registration's id (each
registration its own keystream), with a MAC so a changed seal is refused. The database alone does not give
the link away; the registration itself keeps only the token's digest.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from django.conf import settings


def _stream(registration_id: int, length: int) -> bytes:
    key = hashlib.sha256(f"ginscore.signup-link:{settings.SECRET_KEY}".encode()).digest()
    out, counter = b"", 0
    while len(out) < length:
        out += hmac.new(key, f"{registration_id}:{counter}".encode(), hashlib.sha256).digest()
        counter += 1
    return out[:length]


def _mac(registration_id: int, data: bytes) -> bytes:
    key = hashlib.sha256(f"ginscore.signup-link-mac:{settings.SECRET_KEY}".encode()).digest()
    return hmac.new(key, str(registration_id).encode() + b":" + data, hashlib.sha256).digest()[:16]


def seal(registration_id: int, token: str) -> str:
    raw = token.encode()
    data = bytes(a ^ b for a, b in zip(raw, _stream(registration_id, len(raw)), strict=True))
    return base64.urlsafe_b64encode(_mac(registration_id, data) + data).decode()


def unseal(registration_id: int, sealed: str) -> str | None:
    """The token, or None if the seal was made for another registration, under another key, or changed."""
    try:
        blob = base64.urlsafe_b64decode(sealed.encode())
    except ValueError:
        return None
    mac, data = blob[:16], blob[16:]
    if not hmac.compare_digest(mac, _mac(registration_id, data)):
        return None
    return bytes(a ^ b for a, b in zip(data, _stream(registration_id, len(data)), strict=True)).decode()
