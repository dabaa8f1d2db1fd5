"""The API's exception handler: the score-sheet engine's error, met where a route asks the engine itself (the
calculator, a hand read before any service), is a 400 naming each problem's hand and field. A service's
refusal (``core.refusals.Refusal``, a rule that says no among them) and everything else are worded by
``core.api.errors.exception_handler``.
"""

from rest_framework.response import Response

from core.api import errors as core_errors
from scoring.engine import SheetError


def sheet_error_response(error: SheetError) -> Response:
    return Response(error.as_dict(), status=400)


def exception_handler(exc, context):
    if isinstance(exc, SheetError):
        return sheet_error_response(exc)
    return core_errors.exception_handler(exc, context)
