"""Request-wide guards for every app: the body size limit, answered before anything reads the body.

A body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` gets 413 (the API's JSON error shape under /api/, a
short page elsewhere) without being read; a Content-Length that is not a number gets 400.
"""

from django.conf import settings
from django.http import HttpResponse, JsonResponse


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
