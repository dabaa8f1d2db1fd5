"""A refused request to the notifications app: every problem with the field it concerns (the API answers
400 in the one error shape, a page shows each message by its field)."""

from __future__ import annotations


class Refused(Exception):
    def __init__(self, problems: list[tuple[str | None, str]]):
        super().__init__("; ".join(m for _, m in problems))
        self.problems = problems

    @classmethod
    def one(cls, field: str | None, message: str) -> Refused:
        return cls([(field, message)])

    def as_dict(self) -> dict:
        return {"errors": [{"hand": None, "field": f, "message": m} for f, m in self.problems]}
