"""JSON read from the database and written to clients by orjson is what the standard library gives: the
same values read, the same bytes written (but for the two spellings the module names), and the
standard library itself wherever orjson would differ."""

import datetime
import decimal
import json
import math
import uuid

import pytest
from django.db import connection
from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from core import fast_json, raw_rows
from core.api.renderers import FastJSONRenderer
from scoring.models import Game

SETTINGS = settings(max_examples=300, deadline=None)

# Floats whose spelling is the same in both writers: zero, and magnitudes from 1e-4 up.
plain_floats = st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x == 0 or abs(x) >= 1e-4)
integers = st.integers(min_value=-(2**70), max_value=2**70)  # beyond 64 bits too
text = st.text(st.characters(exclude_categories=("Cs",)) | st.sampled_from("\u2028\u2029\"\\\n\x00\x7f"))
scalars = st.none() | st.booleans() | integers | plain_floats | text
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(text, inner, max_size=5), max_leaves=30)


def same(a, b, *, key_order: bool = True) -> bool:
    """Equal, and of the same types all the way down (1 and 1.0 are not the same reading); keys in the
    same order unless told otherwise."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        keys_match = list(a) == list(b) if key_order else sorted(a) == sorted(b)
        return keys_match and all(same(a[k], b[k], key_order=key_order) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y, key_order=key_order) for x, y in zip(a, b, strict=True))
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


@SETTINGS
@given(json_values)
def test_text_is_read_as_the_standard_library_reads_it(value):
    for written in (json.dumps(value), json.dumps(value, ensure_ascii=False), json.dumps(value, indent=1)):
        assert same(fast_json.loads(written), json.loads(written))


@pytest.mark.parametrize("written", [
    "18446744073709551616", "-9223372036854775809", '{"a": [123456789012345678901234567890]}',
    "NaN", "[Infinity, -Infinity]", "1e400", '"\\ud800"',
    # 19 digits that are not ASCII: text to both (the search for a huge integer looks at ASCII digits only)
    '["\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"]',
])
def test_what_orjson_would_read_otherwise_is_read_by_the_standard_library(written):
    assert same(fast_json.loads(written), json.loads(written))


def test_text_that_is_not_json_is_refused_as_the_standard_library_refuses_it():
    with pytest.raises(json.JSONDecodeError):
        fast_json.loads("{not json")


def render_both(value) -> tuple[bytes, bytes]:
    return FastJSONRenderer().render(value), JSONRenderer().render(value)


@SETTINGS
@given(json_values)
def test_an_answer_is_written_byte_for_byte_as_drf_writes_it(value):
    fast, standard = render_both(value)
    assert fast == standard


@pytest.mark.parametrize("value", [
    {"at": datetime.datetime(2026, 11, 27, 3, 4, 5, 123456, tzinfo=datetime.UTC)},
    {"at": datetime.datetime(2026, 11, 27, 3, 4, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))},
    {"at": datetime.datetime(2026, 11, 27, 3, 4, 5)},
    {"on": datetime.date(2026, 11, 27), "time": datetime.time(3, 4, 5), "took": datetime.timedelta(seconds=90)},
    {"amount": decimal.Decimal("12.50"), "id": uuid.UUID(int=7), "label": gettext_lazy("Hand")},
    {"status": Game.Status.IN_PROGRESS, "format": Game.Format.STANDARD},
    {"line": "a\u2028b\u2029c", "nested": [("tuple", 1), {"x": None}]},
    {1: "an integer key", "huge": 2**80, None: "a null key"},  # only the standard encoder writes these
    {"set": frozenset()},
])
def test_types_only_drfs_encoder_knows_are_written_as_drf_writes_them(value):
    fast, standard = render_both(value)
    assert fast == standard


def test_what_drf_refuses_to_write_is_still_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        FastJSONRenderer().render({"time": datetime.time(3, 4, tzinfo=datetime.UTC)})
    with pytest.raises(TypeError):
        FastJSONRenderer().render({"object": object()})


def test_the_two_spellings_that_differ_hold_the_same_numbers():
    assert render_both({"x": 1e-05}) == (b'{"x":0.00001}', b'{"x":1e-05}')
    assert json.loads(render_both({"x": 1e-05})[0]) == {"x": 1e-05}
    assert FastJSONRenderer().render({"x": math.nan}) == b'{"x":null}'  # DRF refuses NaN: no longer a 500


def test_indented_answers_are_the_standard_encoders():
    value = {"a": [1, 2], "b": "c"}
    fast = FastJSONRenderer().render(value, "application/json; indent=2")
    assert fast == JSONRenderer().render(value, "application/json; indent=2")
    assert b"\n  " in fast


@pytest.mark.django_db
def test_json_columns_read_raw_are_what_the_orm_reads():
    from ..factories import game, organiser

    g = game(by=organiser())
    stored = {"totals": {"Ann": 2**70, "Bob": -3}, "note": "a\u2028b", "ratio": 0.25, "deep": [[{"x": None}]]}
    Game.objects.filter(pk=g.pk).update(summary=stored)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {raw_rows.columns(Game, 'g')} FROM {raw_rows.table(Game)} g WHERE g.id = %s", [g.pk])
        (raw,) = raw_rows.instances(Game, cursor.fetchall())
    orm = Game.objects.get(pk=g.pk)
    assert same(raw.summary, orm.summary)
    assert same(raw.summary, stored, key_order=False)  # PostgreSQL's jsonb keeps its own key order
    assert same(raw.conventions, orm.conventions)
