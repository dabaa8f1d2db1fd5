"""Idempotency keys are claimed before the request runs (no status yet: still in progress), and
answers are stored zlib-compressed; existing answers are converted."""

import json
import zlib

from django.db import migrations, models
from django.utils import timezone


def compress_answers(apps, schema_editor):
    Record = apps.get_model("scoring", "IdempotencyRecord")
    for record in Record.objects.all():
        record.answer = zlib.compress(json.dumps(record.body, separators=(",", ":")).encode())
        record.save(update_fields=["answer"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0004_plain_tokens_removed")]

    operations = [
        migrations.AddField(
            model_name="idempotencyrecord", name="answer", field=models.BinaryField(blank=True, default=b""),
        ),
        migrations.RunPython(compress_answers, migrations.RunPython.noop),
        migrations.RemoveField(model_name="idempotencyrecord", name="body"),
        migrations.AlterField(
            model_name="idempotencyrecord", name="status_code",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="idempotencyrecord", name="created_at", field=models.DateTimeField(default=timezone.now),
        ),
        migrations.AddIndex(
            model_name="idempotencyrecord", index=models.Index(fields=["created_at"], name="idempotency_by_age"),
        ),
    ]
