"""PostgreSQL's timestamps read with ``datetime.fromisoformat``, on every connection Django opens.

Django reads every ``timestamptz`` through a loader of its own in Python (psycopg's general one,
which handles every ``DateStyle`` by regular expression, then the time zone swapped): about 4 µs a
value, and a game's hands bring two each on the path of every recorded hand. PostgreSQL writes them
in ISO form to Django's connections (``DateStyle`` ISO, the session in Django's time zone), which
``fromisoformat`` reads in a twentieth of that. Anything it does not read as a UTC time (a time BC,
``infinity``, another offset) goes to Django's own loader, so every value is what Django would give.

It must not change what is read: only how fast.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

from psycopg.adapt import Loader
from psycopg.pq import Format

_UTC_OFFSET = timedelta(0)


def use_iso_timestamps(sender, connection, **kwargs) -> None:
    """``connection_created``: put the ISO reader in front of the connection's own timestamp loader."""
    if connection.vendor != "postgresql":
        return
    adapters = connection.connection.adapters
    oid = adapters.types["timestamptz"].oid
    adapters.register_loader(oid, _iso_first(adapters.get_loader(oid, Format.TEXT)))


@cache
def _iso_first(djangos: type[Loader]) -> type[Loader]:
    if getattr(djangos, "iso_first", False):
        return djangos

    class IsoFirst(djangos):
        """Django's loader (its ``timezone`` included, which Django checks on every cursor), ISO first."""

        iso_first = True

        def load(self, data):
            try:
                value = datetime.fromisoformat(bytes(data).decode())
            except ValueError:
                return super().load(data)
            if value.tzinfo is self.timezone:
                # UTC read as UTC (``fromisoformat`` gives the ``timezone.utc`` Django's connections use):
                # ``replace`` would only put the same object back, at most of the cost of a value.
                return value
            if value.utcoffset() != _UTC_OFFSET:
                return super().load(data)
            return value.replace(tzinfo=self.timezone)

    return IsoFirst
