"""JSON read from the database and written to API clients by orjson, giving what the standard library
would have given.

On the path of every recorded hand, each of a game's hands is a JSON document read back from the
database, and the answer is the whole scored sheet: the standard ``json`` module's pure-Python
encoder and decoder were a tenth of that request's time. orjson does the same work in C. Where the two
could differ, the standard library still decides:

- reading: an integer beyond 64 bits (orjson would give a float) or text orjson refuses (``NaN``)
  goes to ``json.loads``;
- writing: anything orjson cannot write as ``json`` would (an integer beyond 64 bits, a key that is not
  a string, an unknown type) makes ``dumps_or_none`` answer None, and the caller writes it the standard
  way; dates, decimals, lazy strings and the rest go through the caller's ``default`` as before.

What remains different is only the spelling of a number, never its value: a float under 1e-4 is
written ``0.00001`` rather than ``1e-05``, and a float that is not finite is written ``null`` where
the standard writer refused it. The API's numbers are integers.

It must not decide what is read or written, only how the text is turned into values and back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import orjson

# 19 digits in a row may be an integer beyond 64 bits; orjson reads those as floats. ASCII digits only:
# a JSON number has no others (a run of other digits is text, read alike), and the search is twice as fast.
_MAYBE_HUGE_INTEGER = re.compile(r"[0-9]{19}", re.ASCII)

_RESPONSE_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def loads(text: str) -> Any:
    """The value ``json.loads(text)`` gives."""
    if _MAYBE_HUGE_INTEGER.search(text):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def dumps_or_none(value: Any, default: Callable[[Any], Any]) -> bytes | None:
    """``value`` as compact UTF-8 JSON (``separators=(",", ":")``, ``ensure_ascii=False``), types the
    standard encoder does not know given to ``default``; None when only the standard encoder can
    write it as it would."""
    try:
        return orjson.dumps(value, default=default, option=_RESPONSE_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return None
