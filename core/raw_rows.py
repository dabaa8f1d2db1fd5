"""Model rows read and written by one plain statement, for the few places on every request's path (a
token, a table link, a game locked with its hands, a hand inserted, a game's summary updated) and the
one request that makes a whole round (its 500 games, seats and links), where building the ORM's query or
running its save machinery costs more than the database does.

Rows come back as the ORM itself would give them (``instances``: each value through the backend's and
the field's converters) and go in as it would send them (``insert``, ``update``: each field's
``pre_save``, so ``auto_now`` holds, and ``get_db_prep_save``; ``insert_many``: each field's ``pre_save``,
the values as a JSON document that stores what the ORM would, or the ORM's own ``bulk_create`` where it
might not). The project's models have no ``save()``
of their own and no signal receivers on save; a model that gains one must not be written here. Nothing
here decides what to read or write: the callers do.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models.base import ModelState

from core import fast_json, prepared


def columns(model, alias: str) -> str:
    """Every column of ``model``, in its fields' order, qualified by ``alias``."""
    return _columns(model, alias, connection.vendor)


def table(model) -> str:
    return _table(model, connection.vendor)


@cache
def _columns(model, alias: str, vendor: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


@cache
def _table(model, vendor: str) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def database():
    """The default database's connection itself, not the proxy every ``connection.x`` goes through
    (an attribute lookup in a thread-local store each time, on the path of every field)."""
    return connections[DEFAULT_DB_ALIAS]


@contextmanager
def statement_cursor(db):
    """A cursor for the statements every recorded hand runs (the game's lock, the hand's insert, the
    game's update), on ``db`` (``database()``).

    On PostgreSQL, while no query is being logged (``DEBUG``, a test counting queries) and no execute
    wrapper is installed, it is one psycopg cursor kept on the connection, with the checks and the error
    translation Django's own cursor makes (a broken transaction refused, ``django.db`` errors); Django
    making and wrapping a cursor for each statement was more than half of a short statement's CPU in the
    web process (a ``SELECT 1``: 50 µs through Django's cursor, 20 µs on a kept one). Otherwise, and
    elsewhere, it is Django's cursor, so what Django watches sees every statement. The cursor is the
    caller's until its block ends: no statement in between."""
    if db.vendor != "postgresql" or db.queries_logged or db.execute_wrappers:
        with db.cursor() as cursor:
            yield cursor
        return
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    db.validate_no_broken_transaction()
    kept = getattr(db, "_ginscore_statement_cursor", None)
    if kept is None or kept.connection is not db.connection or kept.closed:
        # On the wrapper (one per thread), not in a weak map keyed by the connection: a cursor holds its
        # connection, which would then never be let go.
        kept = db._ginscore_statement_cursor = db.create_cursor()
    with db.wrap_database_errors:
        yield kept


def width(model) -> int:
    return len(model._meta.concrete_fields)


@cache
def _read_plan(model, vendor: str) -> tuple[list[str], list[tuple[int, list]]]:
    """The model's attribute names, and for each field that has them its converters: as the ORM's
    compiler does, the database backend's (SQLite's text to datetime, say), then the field's own
    (a JSON field's read by ``fast_json``: the same values, a game's hands read several times faster)."""
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    converters = [(i, c) for i, f in enumerate(fields)
                  if (c := connection.ops.get_db_converters(f.get_col(model._meta.db_table))
                      + _field_converters(f))]
    return names, converters


def _field_converters(field) -> list:
    converters = field.get_db_converters(connection)
    if type(field) is models.JSONField and field.decoder is None and converters == [field.from_db_value]:
        return [_json_reader(field)]
    return converters


def _json_reader(field):
    """``field.from_db_value`` (a JSON field without a decoder of its own) with text read by ``fast_json``:
    the text's value, or the text itself when it is not JSON."""
    def from_db(value, expression, connection):
        if type(value) is not str:
            return field.from_db_value(value, expression, connection)
        try:
            return fast_json.loads(value)
        except json.JSONDecodeError:
            return value
    return from_db


def instances(model, rows, offset: int = 0, related: dict | None = None) -> list:
    """Instances of ``model`` from rows whose columns (as ``columns`` names them) start at ``offset``.

    Built as ``Model.from_db`` leaves them (every field loaded, ``_state`` not adding, this database)
    but without ``Model.__init__``'s per-field descriptor work, the largest cost of a game's hands on
    the record path; so without its ``pre_init``/``post_init`` signals, which no model here has.
    ``related``: objects their foreign keys point to, by field name, cached on each as the ORM does
    (the caller vouches that each is the row the key names)."""
    db = database()
    names, converters = _read_plan(model, db.vendor)
    alias, width_, new = db.alias, len(names), model.__new__
    found = []
    for row in rows:
        values = list(row[offset:offset + width_])
        for i, field_converters in converters:
            for convert in field_converters:
                values[i] = convert(values[i], None, db)
        instance = new(model)
        instance.__dict__.update(zip(names, values, strict=True))
        state = instance._state = ModelState()
        state.adding, state.db = False, alias
        if related:
            state.fields_cache = dict(related)
        found.append(instance)
    return found


def new(model, related: dict | None = None, /, **values):
    """A new unsaved ``model`` instance as ``model(**values)`` makes it, values named by attribute, every
    other field its default; ``related``: objects (or None) by foreign key name, their keys set and the
    objects cached on it as ``model(game=game)`` does. Without ``Model.__init__``'s descriptor and keyword
    work (more than the insert's own, in a hand's profile), so without its ``pre_init``/``post_init``
    signals, which no model here has."""
    if related:
        for name, obj in related.items():
            attname, key = _key_of(model, name)
            values[attname] = None if obj is None else getattr(obj, key)
    instance = model.__new__(model)
    state = instance._state = ModelState()
    fields = instance.__dict__
    for attname, default in _defaults(model):
        fields[attname] = values.pop(attname) if attname in values else default()
    if values:
        raise TypeError(f"{model.__name__} has no field {', '.join(sorted(values))}")
    if related:
        state.fields_cache = dict(related)
    return instance


@cache
def _defaults(model) -> tuple[tuple[str, object], ...]:
    return tuple((f.attname, f.get_default) for f in model._meta.concrete_fields)


@cache
def _key_of(model, name: str) -> tuple[str, str]:
    """A foreign key's attribute and the attribute of the object it points to that it holds."""
    field = model._meta.get_field(name)
    return field.attname, field.target_field.attname


def prefetched(instance, related_name: str, objects: list) -> None:
    """``instance.<related_name>.all()`` answers ``objects`` without a query, as after ``prefetch_related``."""
    queryset = getattr(instance, related_name).all()
    queryset._result_cache = objects
    queryset._prefetch_done = True
    instance._prefetched_objects_cache = {**getattr(instance, "_prefetched_objects_cache", {}),
                                          related_name: queryset}


def one_joined(model, relation: str, where: str, params: list):
    """The first ``model`` row (alias ``a``) matching ``where``, with the object its ``relation`` foreign
    key points to (alias ``b``) read in the same statement and set on it; None if no row matches."""
    related = model._meta.get_field(relation)
    target = related.related_model
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns(model, 'a')}, {columns(target, 'b')} FROM {table(model)} a JOIN {table(target)} b "
            f"ON b.{quote(target._meta.pk.column)} = a.{quote(related.column)} WHERE {where}",
            params,
        )
        rows = cursor.fetchmany(1)
    if not rows:
        return None
    found = instances(model, rows)[0]
    setattr(found, relation, instances(target, rows, offset=width(model))[0])
    return found


def insert(instance) -> None:
    """INSERT the new ``instance`` (every concrete field but its auto primary key) and set its key."""
    insert_then_update(instance)


def update(instance, names: list[str]) -> None:
    """UPDATE the named fields of ``instance`` (as ``save(update_fields=names)`` would)."""
    db = database()
    statement = _update_statement(type(instance), tuple(names), db.vendor)
    with statement_cursor(db) as cursor:
        cursor.execute(prepared.text(db, [statement]), _update_values(db, instance, names))


def insert_then_update(new, existing=None, names: list[str] = ()) -> None:
    """INSERT ``new`` (setting its key), then UPDATE ``existing``'s named fields: on PostgreSQL in one
    statement (the insert a data-modifying ``WITH`` of the update), prepared once per connection."""
    db = database()
    model, vendor = type(new), db.vendor
    values = [_saved(db, f, f.pre_save(new, True)) for f in _insert_fields(model)]
    with statement_cursor(db) as cursor:
        if existing is not None and vendor == "postgresql":
            statement = _insert_then_update_statement(model, type(existing), tuple(names), vendor)
            cursor.execute(prepared.text(db, [statement]), [*values, *_update_values(db, existing, names)])
            new.pk = cursor.fetchone()[0]
        else:
            cursor.execute(prepared.text(db, [_insert_statement(model, vendor)]), values)
            new.pk = cursor.fetchone()[0]
            if existing is not None:
                update(existing, names)
    new._state.adding = False
    new._state.db = db.alias


def insert_many(objs: Sequence[models.Model]) -> None:
    """INSERT new instances of one model (every concrete field but the auto key) and set their keys, as
    ``bulk_create`` does (a round of 500 tables published in one request, issue 35).

    On PostgreSQL the rows go as one JSON document, written by orjson, that the statement reads back
    into the table's row type (``jsonb_populate_recordset``), in the document's order; a column whose
    value every row shares (a round's frozen conventions, its creator) goes once beside it. Django's
    ``bulk_create`` sent 500 games as arrays of literals, each JSON field's text escaped character by
    character in Python: 0.3 s in the web process for one round. A value the document cannot hold as the
    field would store it (a naive datetime, a JSON field's None, a float that is not finite, an integer
    beyond 64 bits, any other kind of field) sends every row the ORM's way, as does any other database."""
    if not objs:
        return
    model, db = type(objs[0]), database()
    if strays := {type(obj).__name__ for obj in objs if type(obj) is not model}:
        raise TypeError(f"insert_many takes instances of one model: {', '.join(sorted(strays))} among {model.__name__}")
    documents = _rows_documents(model, objs, db.vendor) if db.vendor == "postgresql" else None
    if documents is None:
        model._default_manager.bulk_create(objs)
        return
    shared, rows, shared_columns = documents
    with statement_cursor(db) as cursor:
        cursor.execute(_insert_many_statement(model, shared_columns, db.vendor), [shared, rows])
        keys = [row[0] for row in cursor.fetchall()]
    for obj, key in zip(objs, keys, strict=True):
        obj.pk = key
        obj._state.adding, obj._state.db = False, db.alias


def _rows_documents(model, objs: Sequence[models.Model], vendor: str) -> tuple[str, str, tuple[str, ...]] | None:
    """The values every row shares ({column: value}) and the rows' other values ([{column: value}]), both
    as JSON text, and the shared columns; None if a value cannot go this way."""
    plan = _document_plan(model, vendor)
    if plan is None:
        return None
    shared, kind_of, apart = {}, {}, []
    for column, attname, sets_itself, kind in plan:
        column_values = []
        for obj in objs:
            # auto_now and auto_now_add as a save sets them; any other field's value is its attribute
            value = getattr(obj, attname) if sets_itself is None else sets_itself.pre_save(obj, True)
            if value is None:
                if kind == "json":
                    return None
            elif kind is datetime:
                if type(value) is not datetime or value.tzinfo is None:
                    return None
                value = value.isoformat()
            elif kind == "json":
                if isinstance(value, float) and not math.isfinite(value):
                    return None
            elif not (type(value) is kind or (kind is not bool and isinstance(value, kind)
                                              and not isinstance(value, bool))):
                return None  # a str or int subclass (a TextChoices member) is written as its plain value
            column_values.append(value)
        kind_of[column] = kind
        if len(column_values) > 1 and _all_alike(column_values, kind):
            shared[column] = column_values[0]
        else:
            apart.append((column, column_values))
    names = [column for column, _ in apart]
    rows = [dict(zip(names, row, strict=True)) for row in zip(*(v for _, v in apart), strict=True)]
    shared_text = fast_json.dumps_or_none(shared, _not_written)
    rows_text = fast_json.dumps_or_none(rows or [{} for _ in objs], _not_written)
    if shared_text is None or rows_text is None:
        return None
    if b"null" in shared_text or b"null" in rows_text:
        json_values = [v for c, v in shared.items() if kind_of[c] == "json"]
        json_values += [v for c, column_values in apart if kind_of[c] == "json" for v in column_values]
        if _holds_non_finite(json_values):
            return None  # orjson wrote it null; the ORM's way refuses it, as it must still be
    return shared_text.decode(), rows_text.decode(), tuple(shared)


def _all_alike(values: list, kind) -> bool:
    """Does every row hold the same value (so that it may go once)? For a JSON field, the same JSON
    text: Python takes ``1`` and ``True`` (or ``1.0``) for equal, the document does not."""
    first = values[0]
    if kind != "json":
        return all(v is first or (type(v) is type(first) and v == first) for v in values)
    if not all(v is first or v == first for v in values):
        return False
    text = fast_json.dumps_or_none(first, _not_written)
    return text is not None and all(v is first or fast_json.dumps_or_none(v, _not_written) == text for v in values)


@cache
def _document_plan(model, vendor: str) -> tuple[tuple[str, str, object, object], ...] | None:
    """For each field written: its column, its attribute, the field itself where its ``pre_save`` sets
    the value (auto_now, auto_now_add; a field of its own kind) or None where the value is the attribute
    as it stands, and how it goes in the document (``_document_kind``); None if a field must go the
    ORM's way."""
    plan = []
    for field in _insert_fields(model):
        kind = _document_kind(field, vendor)
        if kind is None:
            return None
        stock = type(field).pre_save in (models.Field.pre_save, models.DateField.pre_save,
                                         models.DateTimeField.pre_save)
        sets_itself = not stock or getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        plan.append((field.column, field.attname, field if sets_itself else None, kind))
    return tuple(plan)


@cache
def _document_kind(field, vendor: str):
    """How a field's value goes in the JSON document: its plain type (``_plain_conversion``), "json" for a
    plain JSON field, None for a field that must go the ORM's way."""
    plain = _plain_conversion(field, vendor)
    if plain is not None:
        return plain[0]  # the auto key itself is not among the fields written; a foreign key to one is an int
    return "json" if _json_as_text(field, vendor) else None


@cache
def _insert_many_statement(model, shared: tuple[str, ...], vendor: str) -> str:
    """The rows in the document's order (its ordinality), each column from the shared values or the row's."""
    quote, name = connection.ops.quote_name, table(model)
    fields = _insert_fields(model)
    picked = ", ".join(f"{'s' if f.column in shared else 'r'}.{quote(f.column)}" for f in fields)
    return (f"INSERT INTO {name} ({', '.join(quote(f.column) for f in fields)}) SELECT {picked} "
            f"FROM jsonb_populate_record(NULL::{name}, %s::jsonb) AS s, "
            f"jsonb_populate_recordset(NULL::{name}, %s::jsonb) WITH ORDINALITY AS r ORDER BY r.ordinality "
            f"RETURNING {quote(model._meta.pk.column)}")


@cache
def _insert_fields(model) -> list:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@cache
def _insert_statement(model, vendor: str) -> prepared.Statement:
    """The INSERT of a new ``model`` row (every field but its auto key), returning the key."""
    fields = _insert_fields(model)
    quote = connection.ops.quote_name
    return (f"ginscore_insert_{model._meta.db_table}",
            f"INSERT INTO {table(model)} ({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES ({', '.join(f'${i}' for i in range(1, len(fields) + 1))}) "
            f"RETURNING {quote(model._meta.pk.column)}", len(fields))


def _update_values(db, instance, names) -> list:
    values = [_saved(db, f, f.pre_save(instance, False)) for f in (instance._meta.get_field(name) for name in names)]
    values.append(instance.pk)
    return values


def _saved(db, field, value):
    """What ``field.get_db_prep_save(value)`` binds, for a plain JSON field's object or list on PostgreSQL
    as its text written by ``fast_json`` (orjson, in C) rather than a ``Jsonb`` whose standard encoder runs
    as the statement is bound (a game's summary and a hand's data, on the path of every hand). ``jsonb``
    stores the same document from either text. What orjson does not write as the standard encoder would
    goes the standard way, and so does a float that is not finite: orjson writes it ``null``, where the
    standard text (``NaN``) is refused by the database, as it must still be."""
    plain = _plain_conversion(field, db.vendor)
    if plain is not None:
        kind, internal_type, auto = plain
        if value is None:
            return None
        if type(value) is kind:
            if kind is int:
                if auto:  # an auto key's value is checked, not adapted
                    return db.ops.validate_autopk_value(value)
                return db.ops.adapt_integerfield_value(value, internal_type)
            if kind is datetime:
                if value.tzinfo is not None:  # a naive one goes the standard way (its warning, its zone)
                    return db.ops.adapt_datetimefield_value(value)
            elif value != "" or not field.is_relation:  # a key of "" may be saved as NULL
                return value
    elif type(value) in (dict, list) and _json_as_text(field, db.vendor):
        text = fast_json.dumps_or_none(value, _not_written)
        if text is not None and not (b"null" in text and _holds_non_finite(value)):
            return text.decode()
    return field.get_db_prep_save(value, db)


_INTEGER_FIELDS = (models.IntegerField, models.BigIntegerField, models.SmallIntegerField, models.PositiveIntegerField,
                   models.PositiveSmallIntegerField, models.PositiveBigIntegerField)
_AUTO_FIELDS = (models.AutoField, models.BigAutoField, models.SmallAutoField)
_PLAIN_KINDS = {**dict.fromkeys(_INTEGER_FIELDS + _AUTO_FIELDS, int),
                models.CharField: str, models.TextField: str, models.BooleanField: bool, models.DateTimeField: datetime}


@cache
def _plain_conversion(field, vendor: str) -> tuple[type, str, bool] | None:
    """For a field of Django's own (or a foreign key to one) that saves a value of one plain type by its
    stock conversions alone (an ``int`` adapted as its column's integer type or checked as an auto key,
    a ``str`` or ``bool`` as it is, an aware ``datetime`` adapted by the backend): that type and the
    internal type adapted, and whether it is an auto key; None for any other field. ``_saved`` then skips
    the chain of calls that hands such a value through unchanged; the tests check every field's plain
    values against ``get_db_prep_save``."""
    if type(field) in (models.ForeignKey, models.OneToOneField):
        field = field.target_field
    kind = _PLAIN_KINDS.get(type(field))
    return None if kind is None else (kind, field.get_internal_type(), type(field) in _AUTO_FIELDS)


def _holds_non_finite(value) -> bool:
    """Does decoded JSON ``value`` hold a float that is not finite (NaN, an infinity)? Iterative."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is float and not math.isfinite(item):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


@cache
def _json_as_text(field, vendor: str) -> bool:
    return vendor == "postgresql" and type(field) is models.JSONField and field.encoder is None


def _not_written(value):
    raise TypeError(f"{type(value).__name__} is written by the field's own encoder")


def _set_clause(model, names: tuple[str, ...], first: int) -> str:
    quote = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in names]
    return (f"UPDATE {table(model)} SET {', '.join(f'{quote(f.column)} = ${i}' for i, f in enumerate(fields, first))} "
            f"WHERE {quote(model._meta.pk.column)} = ${first + len(fields)}")


def _fields_digest(names: tuple[str, ...]) -> str:
    # Statement names are identifiers of at most 63 bytes; the field list goes in as a short digest.
    return hashlib.sha1(",".join(names).encode()).hexdigest()[:10]


@cache
def _update_statement(model, names: tuple[str, ...], vendor: str) -> prepared.Statement:
    return (f"ginscore_update_{model._meta.db_table}_{_fields_digest(names)}", _set_clause(model, names, 1),
            len(names) + 1)


@cache
def _insert_then_update_statement(new_model, model, names: tuple[str, ...], vendor: str) -> prepared.Statement:
    _, insert_sql, count = _insert_statement(new_model, vendor)
    key = connection.ops.quote_name(new_model._meta.pk.column)
    return (f"ginscore_{new_model._meta.db_table}_then_{model._meta.db_table}_{_fields_digest(names)}",
            f"WITH inserted AS ({insert_sql}) {_set_clause(model, names, count + 1)} "
            f"RETURNING (SELECT {key} FROM inserted)", count + len(names) + 1)
