"""Request-wide guards for every app: the body size limit, answered before anything reads the body, a
database that is busy or unavailable, answered "try again", and an API write sent to an address without
its trailing slash, sent on with its method and body.

A body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` gets 413 (the API's JSON error shape under /api/, a
short page elsewhere) without being read; a Content-Length that is not a number gets 400. A page whose
request met a database that could not be used (SQLite's "database is locked" when another write held
it longer than the busy timeout, or a lost connection) gets the 503 page saying nothing was changed and
to try again, with ``Retry-After``, in development (``DEBUG``) too, where Django would show a 500.
"""

from django.conf import settings
from django.http import HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.template import loader
from django.urls import get_urlconf, is_valid_path

from .api.errors import DATABASE_RETRY_SECONDS, database_outage_body
from .logging_filters import is_database_outage


def _answer(request, status: int, message: str):
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": [{"hand": None, "field": None, "message": message}]}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw)
        except ValueError:
            return _answer(request, 400, "Content-Length must be a number of bytes")
        if limit is not None and length > limit:
            return _answer(request, 413, f"the request body is {length} bytes; at most {limit} are accepted")
        return self.get_response(request)


class DatabaseBusyMiddleware:
    """A database that is busy or unavailable is a 503 "try again" (the transaction was rolled back:
    nothing was changed), on every page and route, never a 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_database_outage(exception):
            return None
        if request.path.startswith("/api/"):
            response = JsonResponse(database_outage_body(), status=503)
        else:
            response = HttpResponse(loader.get_template("503.html").render({}, request), status=503)
        response["Retry-After"] = str(DATABASE_RETRY_SECONDS)
        return response


class ApiTrailingSlashMiddleware:
    """A write to an API address without its trailing slash (``POST /api/v1/games/4/hands``) is answered
    308 to the address with it: a client repeats the same method with the same body there. Django's
    ``APPEND_SLASH`` answers 301, after which clients send a GET without the body, and under ``DEBUG`` it
    raises for a POST (a 500). Reads keep Django's 301; an address that exists as sent is left alone."""

    SAFE = ("GET", "HEAD", "OPTIONS")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if (request.method not in self.SAFE and path.startswith("/api/") and not path.endswith("/")
                and not is_valid_path(path, get_urlconf()) and is_valid_path(f"{path}/", get_urlconf())):
            to = request.get_full_path(force_append_slash=True)
            response = HttpResponsePermanentRedirect(to, preserve_request=True, content_type="application/json")
            response.content = JsonResponse({"errors": [{"hand": None, "field": None, "message": (
                f"this address ends with a slash: {to} (send the request there)")}]}).content
            return response
        return self.get_response(request)
