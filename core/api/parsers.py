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
  no field can store it, and an error echoing it could not be sent; or a NUL character (``"\\u0000"``),
  which PostgreSQL's text refuses (and no name, card or note has any use for). The field is named by its
  path.

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


LONE_SURROGATE = ("this text holds a lone surrogate (such as \\ud800), which is no Unicode character: send "
                  "the text itself")
NUL = "this text holds a NUL character (\\u0000), which no text field can store: leave it out"


def _text_fault(value: str) -> str | None:
    """Why ``value`` cannot be stored as text, or None when it can."""
    if "\x00" in value:
        return NUL
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return LONE_SURROGATE
    return None


def unstorable_text_at(data) -> tuple[str, str] | None:
    """The path ("entries.2.name", counting from 0) of the first string in ``data``, value or key, that
    cannot be stored as text, and why; None when every string can. Iterative, in document order."""
    stack: list[tuple[object, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            fault = _text_fault(value)
            if fault:
                return path or "body", fault
            continue
        if isinstance(value, dict):
            items = list(value.items())
        elif isinstance(value, list):
            items = list(enumerate(value))
        else:
            continue
        for key, child in reversed(items):
            where = f"{path}.{key}" if path else str(key)
            fault = _text_fault(key) if isinstance(key, str) else None
            if fault:
                return path or "body", fault
            stack.append((child, where))
    return None


def validated(serializer_class, request, **kwargs) -> dict:
    """The body read by its serializer: a 400 naming each field it refuses (this parser has already refused a
    body that is not a JSON object)."""
    form = serializer_class(data=request.data, **kwargs)
    form.is_valid(raise_exception=True)
    return form.validated_data


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
        fault = unstorable_text_at(data)
        if fault is not None:
            raise refusal(*fault)
        return data


def _kind(data) -> str:
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "true or false"
    return {list: "a list", str: "a string", int: "a number", float: "a number"}.get(type(data), "something else")


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")
