"""The standings as CSV: one row per entry, the columns of the JSON rows (``tiebreaks`` spread out as
``tiebreaks.<key>``), values written as the JSON has them (null empty, booleans true/false), then the
``prize`` of the place (final standings only).

A name (or prize) a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return) is
written with a leading apostrophe, as OWASP advises for CSV exports; nothing else is changed.
"""

from __future__ import annotations

import csv
import io
from typing import Any

COLUMNS = ["rank", "name", "entry", "seed", "played", "wins", "draws", "losses", "byes", "match_points", "margin",
           "dropped"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return str(value)


def standings_csv(rows: list[dict[str, Any]], tiebreaks: list[str], prizes: list[dict[str, Any]] | None = None) -> str:
    """The CSV text of the engine's standings rows, in their order (the ranking), and last the ``prize`` of
    each place (``prizes``: the event's list, given only for final standings; the Nth row has place N's
    prize, the engine's order deciding a shared rank)."""
    by_place = {p["place"]: p["prize"] for p in prizes or []}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS + [f"tiebreaks.{key}" for key in tiebreaks] + ["prize"])
    for place, row in enumerate(rows, start=1):
        writer.writerow([_cell(row.get(c)) for c in COLUMNS] + [_cell(row["tiebreaks"].get(k)) for k in tiebreaks]
                        + [_cell(by_place.get(place))])
    return out.getvalue()
