"""Each match keeps when its table card was printed (``Match.card_printed_at``): the "Cards to print" page
lists the tables still being played whose card never was (a bracket match that opened by itself has
no link until a director prints it). A match made before this whose games have a referee link had it
made by a pairing, a publishing or a sheet, which showed it to be printed then: it counts as printed
when it was made. A bye has no table and never a card."""

from django.db import migrations, models


def printed_when_their_links_were_made(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    MatchGame = apps.get_model("tournaments", "MatchGame")
    RefereeLink = apps.get_model("scoring", "RefereeLink")
    linked = MatchGame.objects.filter(game_id__in=RefereeLink.objects.values("game_id")).values("match_id")
    Match.objects.filter(is_bye=False, pk__in=linked).update(card_printed_at=models.F("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0004_cancelled_events_and_acknowledged_warnings"),
        ("scoring", "0008_games_know_where_they_come_from_and_what_froze_them"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="card_printed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("is_bye", False), ("card_printed_at__isnull", True), _connector="OR"),
                name="match_bye_has_no_table_card",
            ),
        ),
        migrations.RunPython(printed_when_their_links_were_made, migrations.RunPython.noop),
    ]
