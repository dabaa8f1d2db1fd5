"""The shared cache's table (throttle counters), so that ``migrate`` alone prepares a database.
Nothing to do when the cache is Redis (``REDIS_URL``)."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_idempotency_claims_compact_answers")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
