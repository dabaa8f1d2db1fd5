"""Live content's version over HTTP, for any page's live part and the API alike: an ``ETag`` naming the
results (and tables) it shows, a 304 to a caller that already holds that version, and ``X-Updating``
while newer results are being worked out. Every phone in a hall polls every few seconds: an unchanged
answer then costs a 304 and no body.

It only speaks HTTP: what the version is, the selectors say.
"""

from __future__ import annotations

from django.http import HttpResponseNotModified


def live_etag(kind: str, version: str) -> str:
    """The ETag of a live page's part: which results (and tables) it shows."""
    return f'W/"{kind}-{version}"'


def not_modified(request, etag: str) -> HttpResponseNotModified | None:
    """304 when the caller already holds this version (``If-None-Match``): a phone's refresh then costs
    no rendering and no body."""
    held = request.headers.get("If-None-Match", "")
    if etag and etag in {tag.strip() for tag in held.split(",")}:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response
    return None


def live_response(response, key: str, *, etag: str = "", updating: bool = False):
    """A live page's fragment says which results it shows (``ETag``, ``X-Live-Version``) and whether newer
    ones are being worked out (``X-Updating``); the page swaps it in when that changes."""
    response["X-Live-Version"] = key
    if etag:
        response["ETag"] = etag
    if updating:
        response["X-Updating"] = "1"
    response["Cache-Control"] = "no-cache"
    return response
