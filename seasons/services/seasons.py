"""Creating and changing a season (organisers only): its name, days, what counts and its points table, each
value checked here and refused naming its field; nothing is stored from a refused request.

It must not work out a ladder (``seasons.selectors`` does, with the engine) nor touch games or events.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import IntegrityError, transaction

from scoring import policy
from scoring.engine import SheetError
from scoring.policy import Actor

from ..models import Season, default_placement_points

MAX_POINTS = 1000
MAX_PLACES = 64
MAX_NAME = 80
FIELDS = ("name", "starts_on", "ends_on", "counts", "placement_points", "finisher_points", "night_points",
          "best_nights")


def error(field: str, message: str) -> SheetError:
    return SheetError.one(None, field, message)


def _points(field: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise error(field, f"a whole number of points from 0 to {MAX_POINTS}")
    return value


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """The season's values checked together (the last day against the first, the table against the
    finisher's points); the first problem found is refused, naming its field."""
    name = (values.get("name") or "").strip()
    if not name:
        raise error("name", "a season needs a name")
    if len(name) > MAX_NAME:
        raise error("name", f"keep the name under {MAX_NAME} characters")
    starts_on, ends_on = values.get("starts_on"), values.get("ends_on")
    if not isinstance(starts_on, date):
        raise error("starts_on", "the season's first day (YYYY-MM-DD)")
    if not isinstance(ends_on, date):
        raise error("ends_on", "the season's last day (YYYY-MM-DD)")
    if ends_on < starts_on:
        raise error("ends_on", f"the last day ({ends_on:%d %b %Y}) is before the first ({starts_on:%d %b %Y})")
    if values.get("counts") not in Season.Counts.values:
        raise error("counts", "club, events or both")
    table = values.get("placement_points")
    if not isinstance(table, list | tuple) or not 1 <= len(table) <= MAX_PLACES:
        raise error("placement_points", f"the points for 1st, 2nd, ... (1 to {MAX_PLACES} places)")
    table = [_points(f"placement_points.{i}", p) for i, p in enumerate(table)]
    finisher = _points("finisher_points", values.get("finisher_points"))
    for i in range(1, len(table)):
        if table[i] > table[i - 1]:
            raise error(f"placement_points.{i}", f"place {i + 1} would earn more than place {i} ({table[i]} "
                                                 f"against {table[i - 1]}): a better place never earns less")
    if finisher > table[-1]:
        raise error("finisher_points", f"every finisher's {finisher} would be more than place {len(table)}'s "
                                       f"{table[-1]}: a better place never earns less")
    best = values.get("best_nights")
    if best is not None and (isinstance(best, bool) or not isinstance(best, int) or not 1 <= best <= 366):
        raise error("best_nights", "how many club nights count, 1 to 366 (leave it empty: every night)")
    return {**values, "name": name, "placement_points": table, "finisher_points": finisher,
            "night_points": _points("night_points", values.get("night_points")), "best_nights": best}


def _name_taken(name: str, but: int | None = None) -> bool:
    return Season.objects.filter(name__iexact=name).exclude(pk=but).exists()


@transaction.atomic
def create_season(*, actor: Actor, name: str, starts_on: date, ends_on: date, counts: str = Season.Counts.BOTH,
                  placement_points: list[int] | None = None, finisher_points: int = 1, night_points: int = 1,
                  best_nights: int | None = None) -> Season:
    policy.require_organiser(actor, "create seasons")
    values = _checked({
        "name": name, "starts_on": starts_on, "ends_on": ends_on, "counts": counts,
        "placement_points": default_placement_points() if placement_points is None else placement_points,
        "finisher_points": finisher_points, "night_points": night_points, "best_nights": best_nights,
    })
    if _name_taken(values["name"]):
        raise error("name", f"there is already a season called {values['name']}")
    try:
        with transaction.atomic():
            return Season.objects.create(created_by=actor.user, **values)
    except IntegrityError:  # the same name created at the same moment: the constraint decides
        raise error("name", f"there is already a season called {values['name']}") from None


@transaction.atomic
def update_season(*, actor: Actor, season: Season, changes: dict[str, Any]) -> Season:
    """Change any of the season's values (the ladder is worked out again from them on the next read)."""
    policy.require_organiser(actor, "change seasons")
    season = Season.objects.select_for_update().get(pk=season.pk)
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise error(unknown[0], "not a season's value")
    values = _checked({**{f: getattr(season, f) for f in FIELDS}, **changes})
    if _name_taken(values["name"], but=season.pk):
        raise error("name", f"there is already a season called {values['name']}")
    changed = [f for f in FIELDS if getattr(season, f) != values[f]]
    for f in changed:
        setattr(season, f, values[f])
    if changed:
        season.save(update_fields=changed)
    return season
