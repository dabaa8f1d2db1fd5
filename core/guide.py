"""The guide (``docs/``, built by ``make docs``) served by the app itself at ``/help/``, so a director in a
hall with no internet reads it from the same server as the pages. Before it is built, ``/help/`` says how
to build it. It serves only files under the built site."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.static import serve


def guide_root() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "_build" / "html"


def guide(request, path: str = ""):
    root = guide_root()
    if not (root / "index.html").exists():
        return HttpResponse("<!doctype html><title>The guide</title><h1>The guide is not built here</h1>"
                            "<p>Run <code>make docs</code> (or <code>make run</code>), then reload.</p>",
                            status=404)
    if path == "" or path.endswith("/"):
        path += "index.html"
    try:
        response = serve(request, path, document_root=root)
    except Http404:
        raise Http404("no such page in the guide") from None
    response["Cache-Control"] = "public, max-age=300"
    return response
