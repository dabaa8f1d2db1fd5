"""A season's ladder as CSV: one row per player, the columns of the JSON rows. A name a spreadsheet would run
as a formula gets a leading apostrophe, as the standings CSV does (``tournaments.match_rows``).

It must not work out the ladder: it writes the rows it is given.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from tournaments.match_rows import FORMULA_START

COLUMNS = ["place", "player", "name", "points", "placement_points", "night_points", "events", "nights"]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return str(value)


def ladder_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in COLUMNS])
    return out.getvalue()
