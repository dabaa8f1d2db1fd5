"""The few statements every recorded hand runs, parsed and planned once per PostgreSQL connection.

PostgreSQL parses, analyses and plans every statement it is sent; on the path of every hand (the game
locked with its hands, the hand inserted and the game's summary updated) that is a good part of the
server's work. SQL's own ``PREPARE`` does it once per connection and ``EXECUTE name(...)`` runs the
stored plan. It is plain SQL text, so the statements still go several to one query string with
client-side parameter binding (one round trip, as ``game_lock`` and ``raw_rows`` need). psycopg's
protocol-level preparation was measured and costs the web process more than the server saves (the
README's API section).

A statement is prepared the first time a connection needs it, by a statement of its own. PostgreSQL
keeps it for the session whatever becomes of the transaction it was prepared in (a rollback does not
undo ``PREPARE``), so which statements a connection holds is known exactly; a new connection (a
database restart, ``CONN_MAX_AGE``) starts with none. ``DB_PREPARED_STATEMENTS=0`` turns this off, for
a transaction-pooling proxy (PgBouncer) that hands one server session to many clients.

It must not decide what is read or written: callers give the statements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from weakref import WeakKeyDictionary

from django.conf import settings

# Per psycopg connection: the names prepared on it. Weak: a closed connection takes its set with it.
_prepared_on: WeakKeyDictionary[object, set[str]] = WeakKeyDictionary()

Statement = tuple[str, str, int]  # a name, its SQL with parameters $1..$n, how many parameters


def text(wrapper, statements: Sequence[Statement]) -> str:
    """One query string running ``statements`` in order on the connection of ``wrapper`` (Django's
    ``connection``), their parameters ``%s`` in order: ``EXECUTE`` of each, prepared first where this
    connection does not hold it yet, on PostgreSQL with preparing on; the plain statements elsewhere."""
    statements = tuple(statements)
    if wrapper.vendor != "postgresql" or not settings.DB_PREPARED_STATEMENTS:
        return _plain(statements)
    wrapper.ensure_connection()
    held = _prepared_on.get(wrapper.connection)
    if held is None:
        held = _prepared_on[wrapper.connection] = set()
    for name, sql, _ in statements:
        if name not in held:
            with wrapper.cursor() as cursor:
                cursor.execute(f"PREPARE {name} AS {sql}")
            held.add(name)
    return _executed(statements)


@cache
def _executed(statements: tuple[Statement, ...]) -> str:
    return "; ".join(f"EXECUTE {name}({', '.join(['%s'] * count)})" for name, _, count in statements)


@cache
def _plain(statements: tuple[Statement, ...]) -> str:
    return "; ".join(re.sub(r"\$\d+", "%s", sql) for _, sql, _ in statements)
