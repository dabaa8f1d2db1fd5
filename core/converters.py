"""URL converters of every app's pages and API, registered once (when a URL module imports this one).

``<id:...>``: a stored id, at most 18 ASCII digits (``core.reading.IdConverter``).
"""

from django.urls import register_converter

from core.reading import IdConverter

register_converter(IdConverter, "id")
