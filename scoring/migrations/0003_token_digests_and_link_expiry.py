"""Tokens are kept only as digests, and referee links expire.

Existing referee-link tokens and DRF API tokens (``authtoken_token``) are replaced by their SHA-256
digests, so printed links and issued API keys keep working; the plain-text copies are deleted. An
existing link expires 24 hours after the day it was made, as a new one does.
"""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


def digest_links(apps, schema_editor):
    RefereeLink = apps.get_model("scoring", "RefereeLink")
    for link in RefereeLink.objects.all():
        day = timezone.localtime(link.created_at).replace(hour=0, minute=0, second=0, microsecond=0)
        link.token_digest = digest(link.token)
        link.expires_at = day + timedelta(days=2)
        link.save(update_fields=["token_digest", "expires_at"])


def digest_api_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("scoring", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id FROM authtoken_token")
        rows = cursor.fetchall()
        ApiToken.objects.bulk_create(ApiToken(digest=digest(key), user_id=user_id) for key, user_id in rows)
        cursor.execute("DELETE FROM authtoken_token")


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("scoring", "0002_frozen_games_two_person_rule_pin_failures"),
    ]

    operations = [
        migrations.AddField(
            model_name="refereelink", name="token_digest", field=models.CharField(max_length=64, null=True),
        ),
        migrations.AddField(model_name="refereelink", name="expires_at", field=models.DateTimeField(null=True)),
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("user", models.ForeignKey(on_delete=models.deletion.CASCADE, related_name="api_tokens",
                                           to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["-created_at"],
                "constraints": [models.CheckConstraint(condition=models.Q(digest__regex="^[0-9a-f]{64}$"),
                                                       name="api_token_digest_sha256")],
            },
        ),
        migrations.RunPython(digest_links, migrations.RunPython.noop),
        migrations.RunPython(digest_api_tokens, migrations.RunPython.noop),
    ]
