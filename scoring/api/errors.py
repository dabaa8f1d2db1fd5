"""The API's exception handler: the apps' refusals in the one error shape (``core.api.errors``). A score
sheet (or a hand, a game) refused is a 400 naming each problem's hand and field; a rule that says no is a 403
in words, or 429 with ``Retry-After`` for a PIN locked after too many wrong tries. Everything else is worded
by ``core.api.errors.exception_handler``.
"""

import math

from django.utils import timezone
from rest_framework.response import Response

from core.api import errors as core_errors
from core.api.errors import error_body
from scoring.engine import SheetError
from scoring.policy import NotAllowed


def sheet_error_response(error: SheetError) -> Response:
    return Response(error.as_dict(), status=400)


def exception_handler(exc, context):
    if isinstance(exc, SheetError):
        return sheet_error_response(exc)
    if isinstance(exc, NotAllowed):
        retry_at = getattr(exc, "retry_at", None)
        if retry_at is not None:
            seconds = max(1, math.ceil((retry_at - timezone.now()).total_seconds()))
            return Response(error_body(str(exc), "pin"), status=429, headers={"Retry-After": str(seconds)})
        return Response(error_body(str(exc)), status=403)
    return core_errors.exception_handler(exc, context)
