"""The one refusal type of the service layer: a write the service will not do, with every reason, in the
words of the person who asked.

Every app's services raise ``Refusal`` (or a subclass that says more: a rule that says no, a form already
sent) and nothing else for a user's mistake; the engines keep their own errors (the score sheet's, the
event document's), and a service translates them once, at its edge (``translating``), so that a page and
the API each word a refusal in one place: the API's exception handler (``core.api.errors``) and a page's one
helper. An engine's problems keep their own address (a hand, a result) in the API's error body.

A bug is never dressed up as a refusal: only the engine errors an app names at its edge are translated.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from django.utils import timezone


class Reason(Protocol):
    field: str | None
    message: str

    def as_dict(self) -> dict[str, object]: ...


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason of a refusal that is about no hand or result: the field it names (or None) and why."""

    field: str | None
    message: str

    def as_dict(self) -> dict[str, object]:
        # The API's one error shape names a hand in every problem (None here): see core.api.errors.
        return {"hand": None, "field": self.field, "message": self.message}


class Refusal(Exception):
    """A write refused, with its reasons. ``status`` is the HTTP status the API answers it with: 400, or a
    subclass's (403 for a rule that says no); 429 with ``Retry-After`` when ``retry_at`` says when to try
    again (too many wrong PINs, too many sign-ups)."""

    default_status = 400
    retry_at: datetime | None = None

    def __init__(self, problems: Iterable[Reason], *, text: str | None = None):
        self.problems: tuple[Reason, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("a Refusal needs at least one reason")
        super().__init__(text if text is not None else "; ".join(p.message for p in self.problems))

    @classmethod
    def one(cls, field: str | None, message: str) -> Refusal:
        return cls([Problem(field, message)])

    @property
    def status(self) -> int:
        return 429 if self.retry_at is not None else self.default_status

    @classmethod
    def of(cls, error: Exception) -> Refusal:
        """An engine's error as a refusal: the same problems (with their hands or results), the same words."""
        return cls(error.problems, text=str(error))  # type: ignore[attr-defined]

    @property
    def messages(self) -> list[str]:
        return [p.message for p in self.problems]

    def as_dict(self) -> dict[str, object]:
        return {"errors": [p.as_dict() for p in self.problems]}

    def headers(self) -> dict[str, str]:
        if self.retry_at is None:
            return {}
        return {"Retry-After": str(max(1, math.ceil((self.retry_at - timezone.now()).total_seconds())))}


F = TypeVar("F", bound=Callable[..., Any])


def service_edge(*engine_errors: type[Exception]) -> Callable[[F], F]:
    """A decorator for an app's services: an ``engine_errors`` raised anywhere inside leaves the service as
    a ``Refusal`` with the same problems and words (translated once: a refusal passes through unchanged, and
    so does any other exception, a bug included)."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def edge(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except Refusal:
                raise
            except engine_errors as exc:
                raise Refusal.of(exc) from exc

        edge.service_edge = True  # type: ignore[attr-defined]
        return edge  # type: ignore[return-value]

    return decorate
