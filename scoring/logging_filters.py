"""Log records of a database outage as one line each, not a traceback each.

While the database restarts, every request that needed it fails the same known way (it answers 503
with ``Retry-After``): a traceback per request would bury the log in copies of one stack. This filter,
on the handlers of ``settings.LOGGING``, turns such a record into a single line naming the exception;
every other record, tracebacks of real bugs included, passes unchanged.
"""

import logging

from django.db import DatabaseError, InterfaceError, OperationalError


def is_database_outage(exc: BaseException | None) -> bool:
    """The database could not be reached or dropped the connection (not a refused statement)."""
    return isinstance(exc, OperationalError | InterfaceError) or (
        isinstance(exc, DatabaseError) and "connection" in str(exc).lower()
    )


class DatabaseOutageOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and is_database_outage(exc):
            first_line = (str(exc).strip().splitlines() or [""])[0]
            record.msg = f"{record.getMessage()} (database unavailable: {type(exc).__name__}: {first_line})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True
