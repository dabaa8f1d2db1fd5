"""Model instances from one raw statement, for the few reads on every request's path (a token, a table
link, a game locked with its hands) where building the ORM's query costs more than the database does.

The statements name every column of their models (``columns``) and the rows come back as the ORM itself
would give them (``instances``: each value through its field's converters). Nothing here decides what
to read: the callers do.
"""

from __future__ import annotations

from django.db import connection


def columns(model, alias: str) -> str:
    """Every column of ``model``, in its fields' order, qualified by ``alias``."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def width(model) -> int:
    return len(model._meta.concrete_fields)


def instances(model, rows, offset: int = 0) -> list:
    """Instances of ``model`` from rows whose columns (as ``columns`` names them) start at ``offset``."""
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    # As the ORM's compiler does: the database backend's converters (SQLite's text to datetime, say), then
    # the field's own (JSON text to Python).
    converters = [(i, c) for i, f in enumerate(fields)
                  if (c := connection.ops.get_db_converters(f.get_col(model._meta.db_table))
                      + f.get_db_converters(connection))]
    found = []
    for row in rows:
        values = list(row[offset:offset + len(fields)])
        for i, field_converters in converters:
            for convert in field_converters:
                values[i] = convert(values[i], None, connection)
        found.append(model.from_db(connection.alias, names, values))
    return found
