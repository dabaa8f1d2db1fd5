"""The scoring services' refusals: ``refusal`` words one (its hand, if any, its field and why), and
``service`` marks a service's edge, where the score-sheet engine's ``SheetError`` leaves as a
``core.refusals.Refusal`` with the same problems (see ``core.refusals``)."""

from core.refusals import Refusal, service_edge

from ..engine import SheetError
from ..engine.errors import Problem

service = service_edge(SheetError)


def refusal(hand: int | None, field: str | None, message: str) -> Refusal:
    return Refusal([Problem(hand, field, message)])
