"""The one reader of request bodies for any app's API: JSON, and nothing but JSON (the schema advertises
what really works), and always a JSON object.

Every body is refused with a 400 before any view reads it when:

- it is not a JSON object (``[]``, ``"x"``, ``1``, ``null``): the message says "the request body must
  be a JSON object" (``field`` is null: the request as a whole, as both contracts name such an error).
  Views once read such a body as ``{}`` and acted on it (dropped an entry, paired a round, removed every
  official);
- it is nested deeper than ``MAX_DEPTH``: the contract's deepest shape (a partnership deal's cards) is
  5 levels, and deep nesting only serves to exhaust the interpreter's stack;
- a string in it (a value or a key) holds a lone surrogate (``"\\ud800"``): that is no Unicode text,
  no field can store it, and an error echoing it could not be sent. The field is named by its path.

A request without a body reads as an empty object, as DRF reads it.
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


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def lone_surrogate_at(data) -> str | None:
    """The path ("entries.2.name", counting from 0) of the first string in ``data``, value or key, that
    holds a lone surrogate; None when every string is Unicode text. Iterative, in document order."""
    stack: list[tuple[object, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if not _is_text(value):
                return path or "body"
            continue
        if isinstance(value, dict):
            items = list(value.items())
        elif isinstance(value, list):
            items = list(enumerate(value))
        else:
            continue
        for key, child in reversed(items):
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and not _is_text(key):
                return path or "body"
            stack.append((child, where))
    return None


def refusal(field: str, message: str) -> ParseError:
    """A refused body: the error names the field (its path in the body)."""
    return ParseError({field: [message]})


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
        if not isinstance(data, dict):
            # A problem of the request as a whole: no field (``null``), as both contracts name such errors.
            raise ParseError(f"the request body must be a JSON object ({{...}}); {_kind(data)} was sent, and "
                             "nothing was done with it")
        where = lone_surrogate_at(data)
        if where is not None:
            raise refusal(where, "this text holds a lone surrogate (such as \\ud800), which is no Unicode "
                                 "character: send the text itself")
        return data


def _kind(data) -> str:
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "true or false"
    return {list: "a list", str: "a string", int: "a number", float: "a number"}.get(type(data), "something else")


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")
