"""One error shape for the whole API: ``{"errors": [{"hand", "field", "message"}]}``.

DRF's own errors (bad JSON, throttling, permissions, serializer validation) are reshaped into it, so a
client parses one format whatever went wrong. Unexpected exceptions are left alone: they are bugs.
"""

from django.core.exceptions import ObjectDoesNotExist
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.engine import SheetError
from scoring.policy import NotAllowed


def sheet_error_response(error: SheetError) -> Response:
    return Response(error.as_dict(), status=400)


def _flatten(detail, field=None):
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = key if key != "non_field_errors" else None
            yield from _flatten(value, f"{field}.{name}" if field and name else (name or field))
    elif isinstance(detail, list):
        for item in detail:
            yield from _flatten(item, field)
    else:
        yield {"hand": None, "field": field, "message": str(detail)}


def exception_handler(exc, context):
    if isinstance(exc, SheetError):
        return sheet_error_response(exc)
    if isinstance(exc, NotAllowed):
        return Response({"errors": [{"hand": None, "field": None, "message": str(exc)}]}, status=403)
    if isinstance(exc, ObjectDoesNotExist):
        return Response({"errors": [{"hand": None, "field": None, "message": "not found"}]}, status=404)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.APIException):
        response.data = {"errors": list(_flatten(exc.detail))}
    return response
