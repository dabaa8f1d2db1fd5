"""The OpenAPI schema, made once per process for each audience: it depends on the code and on what the
caller may see (an organiser's answers carry personal fields that others' leave out), and making it (hundreds
of kilobytes) took seconds on every request of ``/api/schema/`` and so of every ``/api/docs/`` page. Which
audience a request belongs to is the project's to say (``settings.SCHEMA_AUDIENCE``, a function of the
request: a hashable key); without it, every caller is one audience."""

from __future__ import annotations

from threading import Lock
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

_made: dict[Any, dict] = {}
_lock = Lock()


class SchemaView(SpectacularAPIView):
    def _get_schema_response(self, request):
        version = self.api_version or request.version or self._get_version_parameter(request)
        audience = getattr(settings, "SCHEMA_AUDIENCE", "")
        key = (version, self.serve_public, id(self.urlconf), import_string(audience)(request) if audience else None)
        with _lock:
            if key not in _made:
                generator = self.generator_class(urlconf=self.urlconf, api_version=version, patterns=self.patterns)
                _made[key] = generator.get_schema(request=request, public=self.serve_public)
        return Response(data=_made[key],
                        headers={"Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'})
