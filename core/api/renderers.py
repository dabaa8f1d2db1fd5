"""The API's JSON writer: DRF's ``JSONRenderer`` with the same output, written by orjson.

A recorded hand's answer is the whole score sheet, and writing it with the standard library's encoder
cost as much as a trivial request. ``core.fast_json`` says what stays the same (everything but the
spelling of a few floats) and when the standard encoder still writes (whatever orjson could not write
as it would). Indented output (the ``indent`` media-type parameter) is the standard encoder's.

It must not change what a response says, only how fast it is written.
"""

from functools import cache

from rest_framework.renderers import JSONRenderer

from core import fast_json

# DRF escapes these two so that its JSON is also valid JavaScript; orjson writes them as they are.
_LINE_SEPARATOR, _PARAGRAPH_SEPARATOR = "\u2028".encode(), "\u2029".encode()


class FastJSONRenderer(JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None or not self.compact or self.ensure_ascii or \
                self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        written = fast_json.dumps_or_none(data, default=_default_of(self.encoder_class))
        if written is None:
            return super().render(data, accepted_media_type, renderer_context)
        if b"\xe2\x80" in written:
            written = written.replace(_LINE_SEPARATOR, b"\\u2028").replace(_PARAGRAPH_SEPARATOR, b"\\u2029")
        return written


@cache
def _default_of(encoder_class):
    """The encoder's ``default`` (what it makes of dates, decimals, lazy strings...): one encoder per
    class, not one per answer."""
    return encoder_class().default
