"""Players' PINs, stored as a keyed hash: HMAC-SHA256 under a server key, with a salt of the player's own.

A PIN is 4 to 8 digits: at most 10^8 values, so no hash, however slow, keeps a PIN from someone who
holds its hash and may try every value (PBKDF2 at a million rounds only made each acceptance cost a
quarter of a second of CPU at the table). What protects a PIN here:

- the server key (``PIN_KEYS``, from the environment; never in the database or its backups): a copy
  of the database alone gives hashes that cannot be tried offline;
- the lockout (five wrong PINs per player per 15 minutes, counted in the database): guessing at the
  table, or through the API, is slow whoever you are.

Stored as ``hmac-sha256$<key id>$<salt>$<digest>``. The key id names the key a hash was made with, so
keys can be rotated: the first of ``PIN_KEYS`` makes new hashes, every listed key still checks its
own, and a PIN checked under an older key (or as an old PBKDF2 hash) is stored again under the
current one. A hash naming a key that is no longer listed is a configuration error, said loudly.

Nothing here decides who may type a PIN or counts wrong ones: that is ``services`` and ``policy``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.core.exceptions import ImproperlyConfigured

SCHEME = "hmac-sha256"


@dataclass(frozen=True)
class PinCheck:
    """A PIN checked against a stored hash: whether it matched, and the hash to store instead (an older
    key or scheme was used), if any."""

    matches: bool
    rehashed: str = ""


def _keys() -> dict[str, bytes]:
    keys = settings.PIN_KEYS
    if not keys:
        raise ImproperlyConfigured("PIN_KEYS is empty: set it (README: production) to hash players' PINs")
    return keys


def _current_key_id() -> str:
    return next(iter(_keys()))


def _digest(key: bytes, salt: str, pin: str) -> str:
    return hmac.new(key, f"{salt}${pin}".encode(), hashlib.sha256).hexdigest()


def hash_pin(pin: str) -> str:
    """The stored form of ``pin`` under the current key, with a new random salt."""
    key_id = _current_key_id()
    salt = secrets.token_hex(8)
    return f"{SCHEME}${key_id}${salt}${_digest(_keys()[key_id], salt, pin)}"


def check_pin(pin: str, stored: str) -> PinCheck:
    """Does ``pin`` match ``stored``? Compared in constant time; an empty ``stored`` (no PIN) never matches."""
    if not stored:
        return PinCheck(False)
    if not stored.startswith(f"{SCHEME}$"):
        # A PIN set before keyed hashing (Django's PBKDF2): checked the slow way once, then upgraded.
        matches = check_password(pin, stored)
        return PinCheck(matches, hash_pin(pin) if matches else "")
    try:
        _, key_id, salt, digest = stored.split("$")
    except ValueError:
        raise ImproperlyConfigured("a stored PIN hash is malformed") from None
    key = _keys().get(key_id)
    if key is None:
        raise ImproperlyConfigured(f"PIN key {key_id!r} is no longer in PIN_KEYS, but PINs hashed with it remain: "
                                   "list it again (after the current key) until they are all upgraded")
    matches = hmac.compare_digest(_digest(key, salt, pin), digest)
    return PinCheck(matches, hash_pin(pin) if matches and key_id != _current_key_id() else "")



# Wrong PINs: at most this many per player in this window; then the PIN waits (every worker, every device).
PIN_FAILURES_ALLOWED = 5
PIN_LOCKOUT = timedelta(minutes=15)


def locked_until(recent_failures: Sequence[datetime]) -> datetime | None:
    """When a player's PIN works again, given their wrong PINs within the last ``PIN_LOCKOUT``, newest first;
    None while it is not locked."""
    if len(recent_failures) < PIN_FAILURES_ALLOWED:
        return None
    return recent_failures[PIN_FAILURES_ALLOWED - 1] + PIN_LOCKOUT
