"""Log records of a database outage as one line each, not a traceback each.

While the database restarts, every request that needed it fails the same known way (it answers 503
with ``Retry-After``): a traceback per request would bury the log in copies of one stack. This filter,
on the handlers of ``settings.LOGGING``, turns such a record into a single line naming the exception;
every other record, tracebacks of real bugs included, passes unchanged.

The job worker meets the same outage through procrastinate, which wraps psycopg's own error (not
Django's) in its ``ConnectorException``: that is an outage too, and only that wrapper is looked
through, so an error of ours raised while handling an outage still logs its whole traceback.
"""

import logging

import psycopg
from django.db import DatabaseError, InterfaceError, OperationalError
from procrastinate.exceptions import ConnectorException

# An outage as raised by Django's database layer, or by psycopg itself under procrastinate.
OUTAGE_ERRORS = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)


def is_database_outage(exc: BaseException | None) -> bool:
    """The database could not be reached or dropped the connection (not a refused statement)."""
    while isinstance(exc, ConnectorException) and exc.__cause__ is not None:
        exc = exc.__cause__
    return isinstance(exc, OUTAGE_ERRORS) or (
        isinstance(exc, DatabaseError) and "connection" in str(exc).lower()
    )


class DatabaseOutageOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and is_database_outage(exc):
            first_line = (str(exc).strip().splitlines() or [""])[0]
            # One line indeed: procrastinate's own messages carry its exception's indented text.
            said = " ".join(record.getMessage().split())
            record.msg = f"{said} (database unavailable: {type(exc).__name__}: {first_line})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True
