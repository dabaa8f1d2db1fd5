"""The shared cache's database backend, with an increment that is exact across processes.

Django's database cache increments by reading and writing the value back, so two workers counting
the same throttle window at once can both write the same number and let a request through uncounted.
Here the row is locked (``SELECT ... FOR UPDATE``; SQLite serialises writers anyway) and its expiry
kept, so a fixed-window counter counts every request exactly, whatever the number of workers.
"""

import base64
import pickle

from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router, transaction
from django.utils.timezone import now as tz_now


class AtomicDatabaseCache(DatabaseCache):
    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table, key_column = quote(self._table), quote("cache_key")
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        now = connection.ops.adapt_datetimefield_value(tz_now().replace(microsecond=0, tzinfo=None))
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {quote('value')} FROM {table} WHERE {key_column} = %s AND {quote('expires')} > %s{lock}",
                [key, now],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]).encode())) + delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET {quote('value')} = %s WHERE {key_column} = %s", [encoded, key])
        return value
