"""URL converters of the tournaments app's pages and API."""

from django.urls import register_converter


class IdConverter:
    """A stored id: at most 18 digits, so a longer number in a URL is a 404 and never reaches a database
    lookup that would overflow its 64-bit integers."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
