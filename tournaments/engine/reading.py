"""Reading an event document's JSON: typed fields out of one object with every problem collected, short
descriptions of wrong values for the messages, and entries found by name. ``document`` and ``asks`` read with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Problem
from .records import Entry


class Reader:
    """Reads typed fields out of one JSON object, collecting problems instead of stopping at the first."""

    def __init__(self, data: object, problems: list[Problem], *, result: int | None, prefix: str, what: str):
        self.result = result
        self.prefix = prefix
        self.problems = problems
        self.ok = isinstance(data, Mapping)
        self.data: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        if not self.ok:
            self.problem(None, f"{what} must be a JSON object, not {json_type(data)}")

    def problem(self, field: str | None, message: str) -> None:
        name = f"{self.prefix}{field}" if field else (self.prefix.rstrip(".") or None)
        self.problems.append(Problem(self.result, name, message))

    def reject_unknown(self, allowed: tuple[str, ...]) -> None:
        for name in self.data:
            if name not in allowed:
                self.problem(str(name), f"unknown field {name!r} (expected one of {', '.join(allowed)})")

    def integer(self, name: str, *, low: int, high: int, default: int | None = None) -> int | None:
        raw = self.data.get(name)
        if raw is None:
            return default
        if type(raw) is not int:
            self.problem(name, f"must be a whole number, not {describe(raw)}")
            return default
        if raw < low:
            self.problem(name, f"must be at least {low}; {raw} given")
            return default
        if raw > high:
            self.problem(name, f"must be at most {high}; {raw} given")
            return default
        return raw

    def boolean(self, name: str, *, default: bool) -> bool:
        raw = self.data.get(name)
        if raw is None:
            return default
        if type(raw) is not bool:
            self.problem(name, f"must be true or false, not {describe(raw)}")
            return default
        return raw


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def describe(value: object) -> str:
    """A short description of a JSON value for an error message (never the whole of a big value)."""
    if isinstance(value, bool | int | float | str) or value is None:
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return json_type(value)


class EntryNames:
    def __init__(self, entries: tuple[Entry, ...]):
        self.index = {e.name: e.index for e in entries}

    def find(self, r: Reader, field: str, raw: object) -> int | None:
        if not isinstance(raw, str):
            r.problem(field, f"must be an entry's name, not {describe(raw)}")
            return None
        found = self.index.get(raw)
        if found is None:
            r.problem(field, f"{describe(raw)} is not an entry of this event")
        return found
