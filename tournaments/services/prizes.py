"""An event's prize list, as its directors type it: read from the API's list (``[{"place": 1, "prize": "50 €
voucher"}]``) or from the event page's text (one "place: prize" a line), every problem named by its field
(``prizes.2.place``) or line (``lines.3``). ``changes.update_event`` stores it (any time, by the event's
directors; a cancelled event refuses it as every write).

It must not write, nor decide who wins a prize: the engine's standings order does (``presentation.prize_placings``).
"""

from __future__ import annotations

import re
from typing import Any

from core.refusals import Refusal
from tournaments.engine.errors import Problem
from tournaments.engine.records import MAX_ENTRIES
from tournaments.services.base import error, refusing

from .base import MAX_TEXT_LINES

MAX_PRIZES = 64
MAX_PRIZE_TEXT = 120
MAX_PLACE = MAX_ENTRIES
LINE = re.compile(r"^\s*(?P<place>[^:]*?)\s*:\s*(?P<prize>.*?)\s*$")
PLACE = re.compile(r"^(?P<number>[0-9]+)\s*(?:st|nd|rd|th|\.)?$", re.IGNORECASE)


@refusing
def read_prizes(value: Any, problems: list[Problem]) -> list[dict[str, Any]]:
    """The prize list checked (a list of at most 64 ``{"place", "prize"}``: a place a whole number from 1,
    each place once, a prize of 1 to 120 characters), sorted by place; each problem added to ``problems``
    naming ``prizes``, ``prizes.N`` or ``prizes.N.place`` / ``prizes.N.prize`` (N from 0, as in the list)."""
    if not isinstance(value, list):
        problems.append(Problem(None, "prizes", 'a list of {"place": 1, "prize": "..."}; '
                                                f"{type(value).__name__} given"))
        return []
    if len(value) > MAX_PRIZES:
        problems.append(Problem(None, "prizes", f"at most {MAX_PRIZES} prizes; {len(value)} given"))
        return []
    read: list[dict[str, Any]] = []
    seen: dict[int, int] = {}
    for i, item in enumerate(value):
        where = f"prizes.{i}"
        if not isinstance(item, dict):
            problems.append(Problem(None, where, 'each prize is {"place": 1, "prize": "..."}'))
            continue
        unknown = sorted(set(item) - {"place", "prize"})
        if unknown:
            problems.append(Problem(None, where, f"only place and prize; {', '.join(map(str, unknown))} given"))
        place, prize = item.get("place"), item.get("prize")
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= MAX_PLACE:
            problems.append(Problem(None, f"{where}.place", f"a place is a whole number from 1 to {MAX_PLACE}; "
                                                           f"{place!r} given"))
            place = None
        elif place in seen:
            problems.append(Problem(None, f"{where}.place", f"place {place} is given twice (prizes.{seen[place]} "
                                                           "has it)"))
            place = None
        else:
            seen[place] = i
        text = prize.strip() if isinstance(prize, str) else None
        if not text:
            problems.append(Problem(None, f"{where}.prize", "say what the prize is (text)"))
        elif len(text) > MAX_PRIZE_TEXT:
            problems.append(Problem(None, f"{where}.prize", f"at most {MAX_PRIZE_TEXT} characters; "
                                                           f"{len(text)} given"))
        elif place is not None:
            read.append({"place": place, "prize": text})
    return sorted(read, key=lambda p: p["place"])


@refusing
def prizes_from_text(text: str) -> list[dict[str, Any]]:
    """The event page's prize text, one "place: prize" a line ("1: 50 € voucher", "2nd: a bottle"; blank
    lines skipped), as the list ``read_prizes`` takes. Raises ``EventError`` naming each line (``lines.N``,
    from 1) that is not "place: prize"; an empty text clears the list."""
    lines = (text or "").splitlines()
    if len(lines) > MAX_TEXT_LINES:
        raise error("prizes", f"at most {MAX_TEXT_LINES} lines")
    problems: list[Problem] = []
    listed: list[dict[str, Any]] = []
    seen: dict[int, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        found = LINE.match(line)
        place = PLACE.match(found["place"]) if found else None
        if found is None or place is None:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: write the place, a colon and the "
                                                             f"prize, like “1: 50 € voucher”; “{line.strip()[:40]}” "
                                                             "given"))
            continue
        value = int(place["number"])
        prize = found["prize"]
        if not 1 <= value <= MAX_PLACE:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: a place is a whole number from 1 to "
                                                             f"{MAX_PLACE}"))
        elif value in seen:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: place {value} is already on line "
                                                             f"{seen[value]}"))
        elif not prize:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: say what the prize for place {value} "
                                                             "is"))
        elif len(prize) > MAX_PRIZE_TEXT:
            problems.append(Problem(None, f"lines.{number}", f"line {number}: a prize has at most {MAX_PRIZE_TEXT} "
                                                             f"characters; {len(prize)} given"))
        else:
            seen[value] = number
            listed.append({"place": value, "prize": prize})
    if len(listed) > MAX_PRIZES and not problems:
        problems.append(Problem(None, "prizes", f"at most {MAX_PRIZES} prizes; {len(listed)} given"))
    if problems:
        raise Refusal(problems)
    return listed


@refusing
def prizes_as_text(prizes: list[dict[str, Any]]) -> str:
    """The stored list as the event page's text, one "place: prize" a line (what ``prizes_from_text`` reads)."""
    return "\n".join(f"{p['place']}: {p['prize']}" for p in prizes)

