"""schemathesis hooks for scripts/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS): besides the cases the
schema describes, every operation also gets

- bodies that are not JSON objects: [], "x", 1, 1.5, true, null, [{}] (each must be a 400, never acted on);
- its generated bodies with a lone surrogate ("\\ud800") put into every string, and as a key of its own
  (hypothesis never generates surrogates itself): a 400 naming the field, never a 500 from an error
  that echoes it;
- Unicode digits ("²", "¹²", "١٢", "１２"), 30 digits, "1.0" and "-1" in its path parameters and query
  strings, where ids, match ids and round numbers go: refused or not found, never a 500.

The checks (no server error, documented status codes and shapes) are the script's.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import strategies as st
from schemathesis.generation.value import GeneratedValue

NOT_OBJECTS = st.sampled_from([[], "x", 1, 1.5, True, None, [{}], [{"reason": "r"}]])
SURROGATES = st.sampled_from(["\ud800", "a\udfffb", "\udc00", "Ann\ud83d"])
NOT_NUMBERS = st.sampled_from(["²", "¹²", "١٢", "１２", "1" * 30, "1.0", "-1", "9" * 19])


def with_surrogate(value: Any, bad: str) -> Any:
    """``value`` with ``bad`` appended to every string value in it (so each field meets one) and, in every
    object, a key of its own: a body without strings carries one too."""
    if isinstance(value, str):
        return value + bad
    if isinstance(value, list):
        return [with_surrogate(item, bad) for item in value]
    if isinstance(value, dict):
        poisoned = {k: with_surrogate(v, bad) for k, v in value.items()}
        poisoned[bad] = bad
        return poisoned
    return value


def _mapped(strategy, bad_values, change):
    """``strategy`` drawn with one of ``bad_values`` put in by ``change`` (a negative-mode draw is a
    ``GeneratedValue`` wrapping the value: its provenance is kept)."""

    def apply(pair):
        drawn, bad = pair
        if isinstance(drawn, GeneratedValue):
            return drawn.map_value(lambda value: change(value, bad))
        return change(drawn, bad)

    return st.tuples(strategy, bad_values).map(apply)


def _replace_values(values: dict[str, Any] | None, bad: str) -> dict[str, Any] | None:
    if not isinstance(values, dict) or not values:
        return values
    return dict.fromkeys(values, bad)


@schemathesis.hook
def before_generate_body(context, strategy):
    return st.one_of(strategy, NOT_OBJECTS, _mapped(strategy, SURROGATES, with_surrogate))


@schemathesis.hook
def before_generate_query(context, strategy):
    return st.one_of(strategy, _mapped(strategy, NOT_NUMBERS, _replace_values))


@schemathesis.hook
def before_generate_path_parameters(context, strategy):
    return st.one_of(strategy, _mapped(strategy, NOT_NUMBERS, _replace_values))
