"""An event can be cancelled (status ``cancelled``, with its reason, when and by whom; a cancelled event
must have a reason), and a director's acknowledgement of a warning is kept, once per warning key."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0003_match_games_link_back_to_their_event'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='WarningAcknowledgement',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=100)),
                ('message', models.TextField()),
                ('note', models.TextField(blank=True)),
                ('acknowledged_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['event', 'acknowledged_at', 'id'],
            },
        ),
        migrations.RemoveConstraint(
            model_name='event',
            name='event_status_known',
        ),
        migrations.AddField(
            model_name='event',
            name='cancel_reason',
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name='event',
            name='cancelled_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='event',
            name='cancelled_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='event',
            name='status',
            field=models.CharField(choices=[('registration', 'Registration'), ('running', 'Running'), ('complete', 'Complete'), ('cancelled', 'Cancelled')], default='registration', max_length=20),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['registration', 'running', 'complete', 'cancelled'])), name='event_status_known'),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'cancelled'), _negated=True), models.Q(models.Q(('cancel_reason', ''), _negated=True), ('cancelled_at__isnull', False)), _connector='OR'), name='event_cancelled_has_reason'),
        ),
        migrations.AddField(
            model_name='warningacknowledgement',
            name='acknowledged_by',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='warningacknowledgement',
            name='event',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='acknowledgements', to='tournaments.event'),
        ),
        migrations.AddConstraint(
            model_name='warningacknowledgement',
            constraint=models.UniqueConstraint(fields=('event', 'key'), name='warning_acknowledged_once_per_event'),
        ),
        migrations.AddConstraint(
            model_name='warningacknowledgement',
            constraint=models.CheckConstraint(condition=models.Q(('key', ''), _negated=True), name='warning_acknowledgement_has_key'),
        ),
    ]
