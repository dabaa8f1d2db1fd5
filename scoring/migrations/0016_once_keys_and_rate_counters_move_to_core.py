"""The one-time keys and rate counters move to ``core`` (they know nothing of gin). The keys still within their
24 hours are copied with typed columns (an API request's key; a hand form's game and hand, which were written
into ``path`` as "game:7/hand:3"; a director's form's), so a form sent again just after the upgrade is still
recorded once; the rate counters start afresh (a window lasts minutes)."""

import re

from django.db import migrations

HAND_PATH = re.compile(r"game:(\d+)/hand:(\d+)")


def copy_keys(apps, schema_editor):
    IdempotencyRecord = apps.get_model("scoring", "IdempotencyRecord")
    OnceKey = apps.get_model("core", "OnceKey")
    kept = []
    for record in IdempotencyRecord.objects.iterator():
        kind, key, object_id, number = "api", record.key, None, None
        if record.key.startswith("form:"):
            kind, key = "hand_form", record.key[len("form:"):]
            found = HAND_PATH.fullmatch(record.path)
            if found:
                object_id, number = int(found[1]), int(found[2])
        elif record.key.startswith("event-form:"):
            kind, key = "director_form", record.key[len("event-form:"):]
        api = kind == "api"
        kept.append(OnceKey(kind=kind, actor=record.actor, key=key, fingerprint=record.fingerprint,
                            method=record.method if api else "", path=record.path if api else "",
                            status_code=record.status_code if api else None,
                            answer=record.answer if api else b"", object_id=object_id, number=number,
                            created_at=record.created_at))
    OnceKey.objects.bulk_create(kept, batch_size=500, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_hand_slots_without_pattern_indexes"),
        ("core", "0001_once_keys_and_rate_counters"),
    ]

    operations = [
        migrations.RunPython(copy_keys, migrations.RunPython.noop),
        migrations.DeleteModel(name="IdempotencyRecord"),
        migrations.DeleteModel(name="RateCounter"),
    ]
