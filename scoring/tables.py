"""django-tables2 tables for the web pages. Cells read the game's stored summary: no scoring here."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from .models import Game


class GameTable(tables.Table):
    """The club's games: the table (or the game's number) links to its sheet, then who plays and the score."""

    table_label = tables.Column(verbose_name="Table", empty_values=())
    players = tables.Column(empty_values=(), orderable=False)
    score = tables.Column(empty_values=(), orderable=False, verbose_name="Score")
    status = tables.Column()
    format = tables.Column()
    updated_at = tables.DateTimeColumn(verbose_name="Updated", format="j M H:i")

    class Meta:
        model = Game
        fields = ["table_label", "players", "score", "status", "format", "updated_at"]
        order_by = "-updated_at"
        attrs = {"class": "sheet games"}

    def render_table_label(self, record):
        label = record.table_label or f"Game {record.pk}"
        return format_html('<a href="{}">{}</a>', reverse("scoring:game_detail", args=[record.pk]), label)

    def render_players(self, record):
        return record.players_title

    def render_status(self, record):
        return record.status_words

    def render_score(self, record):
        """Who won and by how much once the game is settled; while it is played, each side's total so far
        (and the hands still waiting to be accepted)."""
        summary = record.summary or {}
        if summary.get("complete") and not summary.get("pending_hands"):
            if summary.get("winner") is None:
                return "a draw"
            return f"{summary['winner']} won by {summary.get('margin') or 0}"
        text = " – ".join(f"{name} {total}" for name, total in (summary.get("totals") or {}).items())
        pending = summary.get("pending_hands")
        return f"{text} (+{pending} pending)" if pending else text


class TournamentGameTable(GameTable):
    """Games made for tournament matches, each under its event (as the event named it when it made the
    game): "Round 3 · Table 2" is told apart by the event it belongs to."""

    origin_label = tables.Column(verbose_name="Event")

    class Meta(GameTable.Meta):
        fields = ["origin_label", "table_label", "players", "score", "status", "format", "updated_at"]
        sequence = ["origin_label", "table_label", "players", "score", "status", "format", "updated_at"]
        order_by = ("-updated_at",)
        attrs = {"class": "sheet games tournament-tables"}

    def render_origin_label(self, record, value):
        return format_html('<a href="{}">{}</a>', record.origin_url, value)

