"""django-tables2 tables of tournament pages. Cells show the engine's standings rows as they are."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from .models import Event

TIEBREAK_LABELS = {
    "match_points": "MP",
    "wins": "Wins",
    "margin": "Margin",
    "buchholz": "Buchholz",
    "buchholz_cut1": "Buchholz cut-1",
    "median_buchholz": "Median Buchholz",
    "opponents_margin": "Opp. margin",
    "head_to_head": "Head to head",
    "seed": "Seed",
}
# Already columns of their own: listed once.
SHOWN_ANYWAY = {"match_points", "wins", "margin", "seed"}


class StandingsTable(tables.Table):
    """The engine's standings rows in rank order (never re-sorted: the order is the ranking)."""

    rank = tables.Column(verbose_name="#", orderable=False)
    name = tables.Column(verbose_name="Entry", orderable=False)
    played = tables.Column(verbose_name="Pl", orderable=False)
    record = tables.Column(verbose_name="W-D-L", empty_values=(), orderable=False)
    byes = tables.Column(verbose_name="Byes", orderable=False)
    match_points = tables.Column(verbose_name="MP", orderable=False)
    margin = tables.Column(verbose_name="Margin", orderable=False)

    class Meta:
        attrs = {"class": "sheet standings"}
        row_attrs = {"class": lambda record: "dropped" if record["dropped"] else ""}

    def render_name(self, record, value):
        if record["dropped"]:
            return format_html('{} <span class="badge">dropped</span>', value)
        return value

    def render_record(self, record):
        return f"{record['wins']}-{record['draws']}-{record['losses']}"

    def render_margin(self, value):
        return f"{value:+d}" if value else "0"


def _tiebreak_column(key: str) -> tables.Column:
    return tables.Column(
        verbose_name=TIEBREAK_LABELS.get(key, key),
        accessor=f"tiebreaks__{key}",
        default="–",
        orderable=False,
    )


def standings_table(rows: list[dict], tiebreaks: list[str]) -> StandingsTable:
    """The table with one more column per tiebreak key that is not a column already, in their order."""
    extra = [(f"tb_{key}", _tiebreak_column(key)) for key in tiebreaks if key not in SHOWN_ANYWAY]
    return StandingsTable(rows, extra_columns=extra)


class EventTable(tables.Table):
    """Stored events, newest first: a row links to the event's page."""

    name = tables.Column(verbose_name="Event")
    format = tables.Column()
    status = tables.Column()
    entry_count = tables.Column(verbose_name="Entries")
    created_at = tables.DateTimeColumn(verbose_name="Created", format="j M Y")

    class Meta:
        model = Event
        fields = ["name", "format", "status", "entry_count", "created_at"]
        order_by = "-created_at"
        attrs = {"class": "sheet events"}

    def render_name(self, record, value):
        return format_html('<a href="{}">{}</a>', reverse("tournaments:event", args=[record.pk]), value)
