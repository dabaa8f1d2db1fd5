"""A sign-up's own link kept sealed for the email that must carry it again (a waitlist promotion): the token
encrypted and authenticated with Fernet (``cryptography``: AES-128-CBC and HMAC-SHA256) under a key derived
from ``SECRET_KEY``, bound to its registration (the id sealed with it and checked on opening). The database
alone does not give the link away; the registration itself keeps only the token's digest.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings


def _fernet() -> Fernet:
    key = hashlib.sha256(f"ginscore.signup-link:{settings.SECRET_KEY}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(registration_id: int, token: str) -> str:
    return _fernet().encrypt(f"{registration_id}:{token}".encode()).decode()


def unseal(registration_id: int, sealed: str) -> str | None:
    """The token, or None if the seal was made for another registration, under another key, or changed."""
    try:
        opened = _fernet().decrypt(sealed.encode()).decode()
    except (InvalidToken, ValueError):
        return None
    sealed_for, _, token = opened.partition(":")
    return token if sealed_for == str(registration_id) else None
