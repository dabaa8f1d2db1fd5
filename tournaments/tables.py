"""django-tables2 tables of tournament pages. Cells show the engine's standings rows as they are."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from .models import Event
from .presentation import entry_urls_of

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
class StandingsTable(tables.Table):
    """The engine's standings rows in rank order (never re-sorted: the order is the ranking). The first
    columns are what a player looks for on a phone: the place, the name, the match points; then the
    tiebreaks in the event's order; then the record."""

    rank = tables.Column(verbose_name="#", orderable=False)
    name = tables.Column(verbose_name="Entry", orderable=False)
    match_points = tables.Column(verbose_name="MP", orderable=False)
    played = tables.Column(verbose_name="Pl", orderable=False)
    record = tables.Column(verbose_name="W-D-L", empty_values=(), orderable=False)
    byes = tables.Column(verbose_name="Byes", orderable=False)
    margin = tables.Column(verbose_name="Margin", orderable=False)

    class Meta:
        attrs = {"class": "sheet standings"}
        row_attrs = {"class": lambda record: "dropped" if record["dropped"] else ""}

    def __init__(self, *args, event: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # A stored event's id: each name links to its entry's page.
        self.entry_url = entry_urls_of(event) if event is not None else None

    def render_name(self, record, value):
        if self.entry_url is not None and record.get("entry") is not None:
            value = format_html('<a href="{}">{}</a>', self.entry_url(record["entry"]), value)
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


def standings_table(rows: list[dict], tiebreaks: list[str], *, event: int | None = None) -> StandingsTable:
    """Rank, entry, match points, then a column per tiebreak key in the event's order (match points and
    the margin are columns already: the margin moves to its place), then the rest of the record. ``event``:
    a stored event's id, to link each name to its entry's page."""
    keys = [key for key in tiebreaks if key != "match_points"]
    extra = [(f"tb_{key}", _tiebreak_column(key)) for key in keys if key != "margin"]
    order = ["rank", "name", "match_points", *("margin" if key == "margin" else f"tb_{key}" for key in keys),
             "played", "record", "byes"]
    if "margin" not in keys:
        order.append("margin")
    return StandingsTable(rows, extra_columns=extra, sequence=order, event=event)


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
