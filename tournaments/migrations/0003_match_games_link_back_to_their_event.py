"""The games made for matches before games knew where they come from: each gets its event's name and
page and its match's page (the sheet links back), and a game a director's result froze says so
instead of "Abandoned", as games made from now on do (``services.games.game_origin``,
``services.director_results``)."""

from django.db import migrations
from django.urls import reverse

DECIDED_BY_DIRECTOR = "the match was decided by a director"
BRACKET_RESET = "bracket match reset"


def link_back(apps, schema_editor):
    MatchGame = apps.get_model("tournaments", "MatchGame")
    Game = apps.get_model("scoring", "Game")
    GameStatusChange = apps.get_model("scoring", "GameStatusChange")
    for mg in MatchGame.objects.select_related("match__event").iterator():
        event = mg.match.event
        Game.objects.filter(pk=mg.game_id, origin_label="").update(
            origin_label=event.name[:120], origin_url=reverse("tournaments:event", args=[event.pk]),
            origin_match_url=reverse("tournaments:match", args=[event.pk, mg.match_id]))
        game = Game.objects.get(pk=mg.game_id)
        if game.status != "abandoned" or game.frozen_as:
            continue
        last = GameStatusChange.objects.filter(game_id=game.pk).order_by("-changed_at", "-pk").first()
        if last is not None and last.reason.startswith(DECIDED_BY_DIRECTOR):
            Game.objects.filter(pk=game.pk).update(frozen_as="Settled by the director")
        elif last is not None and last.reason.startswith(BRACKET_RESET):
            Game.objects.filter(pk=game.pk).update(frozen_as="Closed: its bracket match was reset")


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0002_result_changes_and_stored_standings"),
        ("scoring", "0008_games_know_where_they_come_from_and_what_froze_them"),
    ]

    operations = [migrations.RunPython(link_back, migrations.RunPython.noop)]
