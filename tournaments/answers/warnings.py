"""Each warning about pairings made from results that have since changed gets one stable key: its kind,
the round and match it names, and a digest of everything it says (the message, the matches that
changed and their results now, the players the bracket puts there now). The same warning keeps its key
however often the answer is computed again; a new change gives it a new key, so an acknowledgement
(``WarningAcknowledgement``) never covers a change made after it.

Plain values in and out: it must not read or write the database, nor decide who sees a warning
(``selectors.shown_warnings`` does).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

KEY_FIELDS_LEFT_OUT = frozenset({"key", "acknowledged"})


def warning_key(warning: dict[str, Any]) -> str:
    """``"round_paired_from_changed_results:r2:m-:3f9a…"``: at most 100 characters."""
    said = {k: v for k, v in warning.items() if k not in KEY_FIELDS_LEFT_OUT}
    digest = hashlib.sha256(json.dumps(said, sort_keys=True, default=str).encode()).hexdigest()[:16]
    where = f"r{warning.get('round') or '-'}:m{warning.get('match_pk') or '-'}"
    return f"{str(warning.get('kind', 'warning'))[:40]}:{where}:{digest}"


def keyed(warnings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The warnings, each a copy with its ``key``."""
    return [{**w, "key": warning_key(w)} for w in warnings]
