"""One error shape for the whole API: ``{"errors": [{"hand", "field", "message"}]}``, and what answers in it
whatever the app: DRF's own errors (bad JSON, throttling, permissions, serializer validation) reshaped into
it, a database that cannot be reached (503 with ``Retry-After``: the request changed nothing; try again), and
the project's ``handler400/403/404/500``, so whatever escapes every view and middleware still answers in this
shape under /api/. Other unexpected exceptions are bugs: they are logged and answer 500.

A service's refusal (``core.refusals.Refusal``: bad input, a rule that says no, too many tries) answers here
with its own status, problems and ``Retry-After``; an engine's error met outside a service (a calculator
answering a document) is worded by the API's exception handler (``scoring.api.errors``), which hands
everything else to ``exception_handler`` here.
"""

import sys

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.logging_filters import is_database_outage
from core.refusals import Refusal

DATABASE_RETRY_SECONDS = 5


def error_body(message: str, field: str | None = None, hand: int | None = None) -> dict:
    return {"errors": [{"hand": hand, "field": field, "message": message}]}


def _flatten(detail, field=None):
    if isinstance(detail, dict):
        for key, value in detail.items():
            # A list's items are numbered from 0 ("order.0"): item 0 is named too.
            name = None if key == "non_field_errors" else str(key)
            yield from _flatten(value, f"{field}.{name}" if field and name is not None else (name or field))
    elif isinstance(detail, list):
        for item in detail:
            yield from _flatten(item, field)
    else:
        yield {"hand": None, "field": field, "message": str(detail)}


def database_outage_body() -> dict:
    return error_body("the database is unavailable for a moment: nothing was changed, try again shortly")


def exception_handler(exc, context):
    """A service's refusal, and everything but the engines' errors, in the one error shape."""
    if isinstance(exc, Refusal):
        return Response(exc.as_dict(), status=exc.status, headers=exc.headers())
    if isinstance(exc, ObjectDoesNotExist):
        return Response(error_body("not found"), status=404)
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(str(exc)), status=413)
    if is_database_outage(exc):
        return Response(database_outage_body(), status=503, headers={"Retry-After": str(DATABASE_RETRY_SECONDS)})
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("not found")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.APIException):
        response.data = {"errors": list(_flatten(exc.detail))}
    return response


def _json_or_page(default_view, status: int, message: str):
    """An error handler: the API's JSON error under /api/, Django's page (the project's template) elsewhere."""

    def handler(request, exception=None, *args, **kwargs):
        if request.path.startswith("/api/"):
            return JsonResponse(error_body(message), status=status)
        return default_view(request, exception, *args, **kwargs)

    return handler


bad_request = _json_or_page(defaults.bad_request, 400, "bad request")
permission_denied = _json_or_page(defaults.permission_denied, 403, "this caller's role may not do this")
page_not_found = _json_or_page(defaults.page_not_found, 404, "not found")


def server_error(request, *args, **kwargs):
    """handler500: a database outage answers 503, anything else 500; JSON under /api/, a page elsewhere."""
    exc = sys.exc_info()[1]
    outage = exc is not None and is_database_outage(exc)
    status = 503 if outage else 500
    if request.path.startswith("/api/"):
        body = database_outage_body() if outage else error_body("internal error: it has been logged")
        response = JsonResponse(body, status=status)
    else:
        template = loader.get_template("503.html" if outage else "500.html")
        response = HttpResponse(template.render({}), status=status)
    if outage:
        response["Retry-After"] = str(DATABASE_RETRY_SECONDS)
    return response
