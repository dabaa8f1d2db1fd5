"""Creating and changing a season (organisers only): its name, days, what counts and its points table, each
value checked here and refused naming its field; nothing is stored from a refused request.

It must not work out a ladder (``seasons.selectors`` does, with the engine) nor touch games or events.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import IntegrityError, transaction

from core.refusals import Refusal, service_edge
from scoring import policy
from scoring.engine import Problem, SheetError
from scoring.policy import Actor

from ..models import Season, default_placement_points

MAX_POINTS = 1000
MAX_PLACES = 64
MAX_NAME = 80
FIELDS = ("name", "starts_on", "ends_on", "counts", "placement_points", "finisher_points", "night_points",
          "best_nights")


# A season's days must be days the ladder can be read for: each is turned into moments in the site's time
# zone (and the day after the last one), which Python cannot do near the calendar's ends. Any club season
# lies well inside these years.
FIRST_YEAR, LAST_YEAR = 1900, 2999


service = service_edge(SheetError)


def error(field: str, message: str) -> Refusal:
    return Refusal.one(field, message)


def _points(problems: list[Problem], field: str, value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        problems.append(Problem(None, field, f"a whole number of points from 0 to {MAX_POINTS}"))
        return None
    return value


def _day(problems: list[Problem], field: str, value: Any, what: str) -> date | None:
    if not isinstance(value, date):
        problems.append(Problem(None, field, f"{what} (YYYY-MM-DD)"))
        return None
    if not FIRST_YEAR <= value.year <= LAST_YEAR:
        problems.append(Problem(None, field, f"{what} must be in the years {FIRST_YEAR} to {LAST_YEAR}; "
                                             f"{value.isoformat()} given"))
        return None
    return value


@service
def season_problems(values: dict[str, Any]) -> list[Problem]:
    """Every problem of the season's values (those given: a form checks what it could read), each naming its
    field; the values are checked together (the last day against the first, the table against the finisher's
    points)."""
    problems: list[Problem] = []
    if "name" in values:
        name = (values.get("name") or "").strip()
        if not name:
            problems.append(Problem(None, "name", "a season needs a name"))
        elif len(name) > MAX_NAME:
            problems.append(Problem(None, "name", f"keep the name under {MAX_NAME} characters"))
    starts_on = _day(problems, "starts_on", values.get("starts_on"), "the season's first day") \
        if "starts_on" in values else None
    ends_on = _day(problems, "ends_on", values.get("ends_on"), "the season's last day") \
        if "ends_on" in values else None
    if starts_on is not None and ends_on is not None and ends_on < starts_on:
        problems.append(Problem(None, "ends_on", f"the last day ({ends_on:%d %b %Y}) is before the first "
                                                 f"({starts_on:%d %b %Y})"))
    if "counts" in values and values.get("counts") not in Season.Counts.values:
        problems.append(Problem(None, "counts", "club, events or both"))
    table: list[int | None] | None = None
    if "placement_points" in values:
        given = values.get("placement_points")
        if not isinstance(given, list | tuple) or not 1 <= len(given) <= MAX_PLACES:
            problems.append(Problem(None, "placement_points",
                                    f"the points for 1st, 2nd, ... (1 to {MAX_PLACES} places)"))
        else:
            table = [_points(problems, f"placement_points.{i}", p) for i, p in enumerate(given)]
            for i in range(1, len(table)):
                if table[i] is not None and table[i - 1] is not None and table[i] > table[i - 1]:
                    problems.append(Problem(None, f"placement_points.{i}", f"place {i + 1} would earn more than "
                                            f"place {i} ({table[i]} against {table[i - 1]}): a better place "
                                            "never earns less"))
    finisher = _points(problems, "finisher_points", values.get("finisher_points")) \
        if "finisher_points" in values else None
    if finisher is not None and table and table[-1] is not None and finisher > table[-1]:
        problems.append(Problem(None, "finisher_points", f"every finisher's {finisher} would be more than place "
                                f"{len(table)}'s {table[-1]}: a better place never earns less"))
    if "night_points" in values:
        _points(problems, "night_points", values.get("night_points"))
    best = values.get("best_nights")
    if best is not None and (isinstance(best, bool) or not isinstance(best, int) or not 1 <= best <= 366):
        problems.append(Problem(None, "best_nights",
                                "how many club nights count, 1 to 366 (leave it empty: every night)"))
    return problems


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """The season's values, every one of them checked: all the problems are refused at once, each naming its
    field."""
    problems = season_problems({field: values.get(field) for field in FIELDS})
    if problems:
        raise Refusal(problems)
    return {**values, "name": values["name"].strip(), "placement_points": list(values["placement_points"])}


def _name_taken(name: str, but: int | None = None) -> bool:
    return Season.objects.filter(name__iexact=name).exclude(pk=but).exists()


@service
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


@service
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
