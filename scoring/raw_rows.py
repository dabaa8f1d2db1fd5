"""Model rows read and written by one plain statement, for the few places on every request's path (a
token, a table link, a game locked with its hands, a hand inserted, a game's summary updated) where
building the ORM's query or running its save machinery costs more than the database does.

Rows come back as the ORM itself would give them (``instances``: each value through the backend's and
the field's converters) and go in as it would send them (``insert``, ``update``: each field's
``pre_save``, so ``auto_now`` holds, and ``get_db_prep_save``). The project's models have no ``save()``
of their own and no signal receivers on save; a model that gains one must not be written here. Nothing
here decides what to read or write: the callers do.
"""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models.base import ModelState


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


def width(model) -> int:
    return len(model._meta.concrete_fields)


@cache
def _read_plan(model, vendor: str) -> tuple[list[str], list[tuple[int, list]]]:
    """The model's attribute names, and for each field that has them its converters: as the ORM's
    compiler does, the database backend's (SQLite's text to datetime, say), then the field's own."""
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    converters = [(i, c) for i, f in enumerate(fields)
                  if (c := connection.ops.get_db_converters(f.get_col(model._meta.db_table))
                      + f.get_db_converters(connection))]
    return names, converters


def instances(model, rows, offset: int = 0) -> list:
    """Instances of ``model`` from rows whose columns (as ``columns`` names them) start at ``offset``.

    Built as ``Model.from_db`` leaves them (every field loaded, ``_state`` not adding, this database)
    but without ``Model.__init__``'s per-field descriptor work, the largest cost of a game's hands on
    the record path; so without its ``pre_init``/``post_init`` signals, which no model here has."""
    names, converters = _read_plan(model, connection.vendor)
    alias, width_, new = connection.alias, len(names), model.__new__
    found = []
    for row in rows:
        values = list(row[offset:offset + width_])
        for i, field_converters in converters:
            for convert in field_converters:
                values[i] = convert(values[i], None, connection)
        instance = new(model)
        instance.__dict__.update(zip(names, values, strict=True))
        state = instance._state = ModelState()
        state.adding, state.db = False, alias
        found.append(instance)
    return found


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
    statement, values = _update(instance, names)
    with connection.cursor() as cursor:
        cursor.execute(statement, values)


def insert_then_update(new, existing=None, names: list[str] = ()) -> None:
    """INSERT ``new`` (setting its key), then UPDATE ``existing``'s named fields: on PostgreSQL both go in
    one round trip (two statements in one query string, run in order)."""
    meta = new._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    statement = (f"INSERT INTO {table(type(new))} ({', '.join(quote(f.column) for f in fields)}) "
                 f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}")
    values = [f.get_db_prep_save(f.pre_save(new, True), connection) for f in fields]
    then = _update(existing, names) if existing is not None else None
    with connection.cursor() as cursor:
        if then is not None and connection.vendor == "postgresql":
            cursor.execute(f"{statement}; {then[0]}", [*values, *then[1]])
            new.pk = cursor.fetchone()[0]
        else:
            cursor.execute(statement, values)
            new.pk = cursor.fetchone()[0]
            if then is not None:
                cursor.execute(*then)
    new._state.adding = False
    new._state.db = connection.alias


def _update(instance, names) -> tuple[str, list]:
    fields = [instance._meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    return (f"UPDATE {table(type(instance))} SET {', '.join(f'{quote(f.column)} = %s' for f in fields)} "
            f"WHERE {quote(instance._meta.pk.column)} = %s", [*values, instance.pk])
