"""The one error type of the event engine: a rejected event document, with every problem found in it.

Each problem names the result (its 1-based index in ``results``, or None for the event itself), the
field (a dotted path such as ``entries.2.name``, 0-based like a JSON path, or None) and what is wrong,
in words a tournament director understands. This is a *user* error: callers turn it into exit 2 or
HTTP 400. A bug in the engine must never be dressed up as one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    result: int | None
    field: str | None
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"result": self.result, "field": self.field, "message": self.message}


class EventError(Exception):
    """An event document (or part of one) that the engine refuses, with the reasons."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("EventError needs at least one problem")
        super().__init__("; ".join(self._describe(p) for p in self.problems))

    @classmethod
    def one(cls, result: int | None, field: str | None, message: str) -> EventError:
        return cls([Problem(result, field, message)])

    @staticmethod
    def _describe(p: Problem) -> str:
        where = f"result {p.result}" if p.result is not None else "event"
        return f"{where}, {p.field or 'request'}: {p.message}"

    def as_dict(self) -> dict[str, object]:
        return {"errors": [p.as_dict() for p in self.problems]}
