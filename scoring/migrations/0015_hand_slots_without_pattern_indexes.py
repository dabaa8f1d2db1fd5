"""A hand's slot and previous slot are only ever matched whole (their uniqueness, the foreign key between
them): on PostgreSQL the ``varchar_pattern_ops`` indexes Django adds beside a unique text column, for
``LIKE`` queries, are dropped. Every recorded hand wrote both (7 indexes were 5)."""

from django.db import migrations

PATTERN_INDEXES = ("SELECT indexname FROM pg_indexes WHERE tablename = 'scoring_hand' "
                   "AND indexdef LIKE '%varchar_pattern_ops%'")


def drop_pattern_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(PATTERN_INDEXES)
        for (name,) in cursor.fetchall():
            schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def create_pattern_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in ("slot", "previous_slot_id"):
        schema_editor.execute(f'CREATE INDEX "scoring_hand_{column}_like" ON "scoring_hand" '
                              f'("{column}" varchar_pattern_ops)')


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0014_games_stopped_at_time"),
    ]

    operations = [
        migrations.RunPython(drop_pattern_indexes, create_pattern_indexes),
    ]
