"""JSON bodies for any app's API, and nothing but JSON (the schema advertises what really works).

A body nested deeper than ``MAX_DEPTH`` is refused with a 400 naming the limit before anything reads
it: the contract's deepest shape (a partnership deal's cards) is 5 levels, and deep nesting only
serves to exhaust the interpreter's stack.
"""

import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 20


def depth_exceeds(data, limit: int) -> bool:
    """Is ``data`` nested deeper than ``limit`` levels? Iterative: no recursion to exhaust."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(stream.read().decode(encoding), parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_DEPTH} levels") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if depth_exceeds(data, MAX_DEPTH):
            raise ParseError(f"JSON nested deeper than {MAX_DEPTH} levels")
        return data


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")
