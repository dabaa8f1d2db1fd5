"""The one error type of the engine: a rejected score sheet, with every problem found in it.

Each problem names the hand (1-based, or None for the sheet itself), the field and what is wrong, in
words a referee understands. This is a *user* error: callers turn it into exit 2 or HTTP 400. A bug
in the engine must never be dressed up as one; let it raise whatever it raises.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    hand: int | None
    field: str | None
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "field": self.field, "message": self.message}


class SheetError(Exception):
    """A score sheet (or part of one) that the engine refuses, with the reasons."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("SheetError needs at least one problem")
        super().__init__("; ".join(self._describe(p) for p in self.problems))

    @classmethod
    def one(cls, hand: int | None, field: str | None, message: str) -> SheetError:
        return cls([Problem(hand, field, message)])

    @staticmethod
    def _describe(p: Problem) -> str:
        where = f"hand {p.hand}" if p.hand is not None else "sheet"
        return f"{where}, {p.field or 'request'}: {p.message}"

    def as_dict(self) -> dict[str, object]:
        return {"errors": [p.as_dict() for p in self.problems]}

    def at_hand(self, number: int, prefix: str = "") -> SheetError:
        """The same problems re-addressed to a hand (and a field prefix such as ``tables[1].``)."""
        return SheetError(
            Problem(number, prefix + p.field if p.field else p.field, p.message) for p in self.problems
        )
