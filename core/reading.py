"""Reading the whole numbers a request carries, in one place for the pages and both APIs: ids, round
and hand numbers, seeds, a page's ``?round=``.

- In JSON a whole number is a JSON integer: never a float (``1.5``, ``1.0``), a boolean or a string.
- In text (a URL, a query string, a form field) it is ASCII digits 0-9 only: ``str.isdigit()`` also
  takes "²" (which ``int()`` then refuses: a 500) and "١٢" (which ``int()`` reads as 12).
- Either way it is bounded (by default by what the database's ids hold), so nothing out of range ever
  reaches a lookup.

The form fields and the URL converter below are these readers at the doors where Django reads ids
itself. This module reads; it decides no rule and answers no request.
"""

from __future__ import annotations

import re

from django import forms

MAX_ID = 2**63 - 1  # what the database's ids hold
ID_DIGITS = 18  # an id in a URL: at most 18 digits, always below MAX_ID
_DIGITS = re.compile(r"[0-9]+")


class NotANumber(ValueError):
    """Not a whole number in range: the message says what was wanted, in words (and shows what was
    given in an ASCII-safe form, so that an error echoing it can always be sent)."""


def shown(value: object) -> str:
    """``value`` as an error message may show it: short, and escaped where it is not printable text."""
    text = ascii(value) if isinstance(value, str) and not value.isprintable() else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bounded(value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise NotANumber(f"a whole number from {low} to {high}; {value} given")
    return value


def json_number(value: object, *, low: int = 0, high: int = MAX_ID) -> int:
    """A JSON integer from ``low`` to ``high`` (``NotANumber`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotANumber(f"a whole number (a JSON integer, not {_kind(value)}); {shown(value)} given")
    return _bounded(value, low, high)


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, float):
        return "a decimal"
    if isinstance(value, str):
        return "text"
    return "null" if value is None else "a list or an object"


def text_number(text: str | None, *, low: int = 0, high: int = MAX_ID) -> int | None:
    """The ASCII digits of ``text`` (spaces around them allowed) as a number from ``low`` to ``high``;
    None when ``text`` is blank (``NotANumber`` when it is anything else)."""
    text = (text or "").strip()
    if not text:
        return None
    if _DIGITS.fullmatch(text) is None:
        raise NotANumber(f"a whole number written with the digits 0-9; {shown(text)} given")
    if len(text) > 40:  # never handed to int() whole: a megabyte of digits costs seconds to read
        raise NotANumber(f"a whole number from {low} to {high}; a {len(text)}-digit number given")
    return _bounded(int(text), low, high)


def text_id(text: str | None) -> int | None:
    """An id written in text (a URL part, a form's value): the number, or None when it cannot be one
    (blank, not ASCII digits, out of range). For lookups, where "not an id" means "not found"."""
    try:
        return text_number(text, low=0, high=MAX_ID)
    except NotANumber:
        return None


class IdConverter:
    """``<id:...>`` in URLs: a stored id, at most 18 ASCII digits, so a longer number is a 404 and never
    reaches a lookup that would overflow the database's 64-bit integers."""

    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class IdChoiceField(forms.ModelChoiceField):
    """A model chosen by id in a form: a value that is not an id (``²``, 30 digits) is an invalid choice,
    said on the form, never a lookup (Django's own field reads "١٢" as 12 and lets 30 digits reach the
    database)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not isinstance(value, self.queryset.model) and text_id(str(value)) is None:
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdsChoiceField(forms.ModelMultipleChoiceField):
    """Several models chosen by id in a form (checkboxes): each value an id, as ``IdChoiceField``."""

    def _check_values(self, value):
        for pk in value:
            if text_id(str(pk)) is None:
                raise forms.ValidationError(f"{shown(str(pk))} is not one of the choices: choose from the list",
                                            code="invalid_pk_value")
        return super()._check_values(value)


class WholeNumberFormField(forms.IntegerField):
    """A whole number typed in a form: ASCII digits, a minus sign first for a negative one (Django's own
    field reads "١٢" as 12 and "1.0" as 1); its ``min_value`` and ``max_value`` say the range."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip()
        negative = text.startswith("-")
        try:
            number = text_number(text[1:] if negative else text)
        except NotANumber:
            number = None
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return -number if negative else number
