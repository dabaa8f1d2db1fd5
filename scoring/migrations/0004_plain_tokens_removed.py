"""Referee links keep only their token's digest, and always say when they expire."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_token_digests_and_link_expiry")]

    operations = [
        migrations.RemoveConstraint(model_name="refereelink", name="referee_link_token_long_enough"),
        migrations.RemoveField(model_name="refereelink", name="token"),
        migrations.AlterField(
            model_name="refereelink", name="token_digest", field=models.CharField(max_length=64, unique=True),
        ),
        migrations.AlterField(model_name="refereelink", name="expires_at", field=models.DateTimeField()),
        migrations.AddConstraint(
            model_name="refereelink",
            constraint=models.CheckConstraint(condition=models.Q(token_digest__regex="^[0-9a-f]{64}$"),
                                              name="referee_link_digest_sha256"),
        ),
    ]
