"""The projector page (``/events/<id>/display/``): an event on the hall's screen (1920x1080, read from the
back of the room), with no site navigation. Its screens cycle: the round's pairings in columns (paged by
the page's script from the real row height), the top of the standings, the bracket; before round 1 "Round 1
starts soon", once complete the champion.

Its part (``?fragment=1``) is refreshed like the live pages' (``live.js``: ETag, 304, jitter, back-off),
made once per version of what it shows and kept. It only reads (selectors, the stored answer): it must not
write, pair or score, nor decide a result (``live_tables`` and the engine's answer did).
"""

from __future__ import annotations

from typing import Any

import segno
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from core.conditional import live_etag, live_response, not_modified
from core.reading import text_id
from tournaments import selectors, services
from tournaments.models import Event

from ..answers.memos import versioned
from ..live_tables import live_tables
from ..presentation import bracket_sections
from .common import event_or_404, may_direct
from .live import compact

SECONDS = 15  # each screen (each page of the pairings) is shown this long: ``?seconds=N`` within the bounds
FEWEST_SECONDS, MOST_SECONDS = 5, 300
STANDINGS_SHOWN = 16  # the top of the standings; the page's script shows as many of them as fit


def display(request, pk: int):
    """The projector page, or with ``?fragment=1`` its screens alone for the page's refresh (a 304 when the
    screen already holds that version). Four queries when the part is kept, however many tables."""
    event = event_or_404(request, pk)
    current = selectors.current_round(event)
    served = selectors.served_version(event)
    number = None if event.is_elimination else current
    version = f"{event.status}.{current}.{selectors.tables_version(event, number, results=served.key)}"
    etag = live_etag("display", version)
    if request.GET.get("fragment") and (unchanged := not_modified(request, etag)):
        return live_response(unchanged, version, updating=served.updating)
    part = versioned(f"event-display:{event.pk}:{version}",
                     lambda: compact(render_to_string("tournaments/_display_screens.html",
                                                      _screens(event, current), request=request)))
    if request.GET.get("fragment"):
        return live_response(HttpResponse(part), version, etag=etag, updating=served.updating)
    # The part was rendered (and escaped) by our own template; the cache only kept it.
    return render(request, "tournaments/display.html", {
        "event": event, "part": mark_safe(part), "live_key": version, "live_etag": etag,
        "venue_qr": _venue_qr(request, event),
        "clock": _clock(event, current),
        "seconds": _seconds(request.GET.get("seconds")),
        "live": event.status not in (Event.Status.COMPLETE, Event.Status.CANCELLED),
    })


def _venue_qr(request, event: Event) -> str:
    """The venue's check-in QR code (its link holds the venue's code) on a director's projector before round 1,
    for players to scan as they arrive; "" for anyone else (the page every phone reads never shows it)."""
    if not event.check_in or event.status != Event.Status.REGISTRATION or not may_direct(request, event):
        return ""
    url = request.build_absolute_uri(reverse("tournaments:self_check_in", args=[event.pk, services.venue_code(event)]))
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, omitsize=True))  # our own SVG


def _clock(event: Event, current: int | None) -> dict[str, Any] | None:
    """The round's clock at the top of the page; the screens' part carries it too, so a clock started or
    paused after the page was opened reaches it with the next refresh (display.js moves it up)."""
    if event.is_elimination or event.status != Event.Status.RUNNING:
        return None
    clock = selectors.round_clock(event, current)
    return {**clock, "label": f"Round {current}:"} if clock else None


def _seconds(asked: str | None) -> int:
    """How long each screen stays: ``?seconds=N`` held within 5 s to 5 minutes; 15 s when not a number."""
    number = text_id(asked)
    return SECONDS if number is None else min(max(number, FEWEST_SECONDS), MOST_SECONDS)


def _screens(event: Event, current: int | None) -> dict[str, Any]:
    """What the screens show, by the event's state: registration (round 1 starts soon, and who is checked in),
    running (the round's tables, the standings, the bracket), complete (the champion, the final standings),
    cancelled."""
    answer = selectors.event_answer(event)
    context: dict[str, Any] = {"event": event, "answer": answer,
                               "standings": answer["standings"][:STANDINGS_SHOWN], "current": current}
    if event.status == Event.Status.REGISTRATION:
        context["check_in"] = selectors.check_in_state(event)
        return context
    if event.is_elimination:
        rows = [r for r in live_tables(event, None) if r["status"] in ("waiting", "playing")]
        context["pairings_title"] = "Matches to play"
        double = event.format == Event.Format.DOUBLE_ELIMINATION
        context["sections"] = bracket_sections(answer["bracket"], double=double)
    else:
        rows = [r for r in live_tables(event, current) if r["status"] != "draft"] if current else []
        of = f" of {event.rounds}" if event.rounds else ""
        context["pairings_title"] = f"Round {current}{of}" if current else ""
        context["draft"] = bool(current) and not rows
        clock = selectors.round_clock(event, current) if event.status == Event.Status.RUNNING else None
        context["clock"] = {**clock, "label": f"Round {current}:"} if clock else None
    context["tables"] = [_table(row) for row in rows]
    if any(row["played"] for row in answer["standings"]):  # once a match has a result
        played = answer["rounds_played"]
        context["standings_title"] = "Standings" if event.is_elimination else (
            f"Standings after round {played}" if current is None or played >= current
            else f"Standings during round {current}")
    return context


def _table(row: dict[str, Any]) -> dict[str, Any]:
    """A table as the screen shows it: where ("12", or the bracket match's name before it has a table), and a
    line per player with what is said beside the name (who won and by how much, the score being played)."""
    players = row["players"]
    notes = [""] * len(players)
    if row["status"] == "decided":
        if row["winner"] is None:
            notes = ["draw"] * len(players)
        else:
            games = row["games_won"]
            how = "by forfeit" if row["forfeit"] else (
                f"{max(games)}–{min(games)}" if len(row["game_details"]) > 1 and games else f"by {row['margin']}")
            notes = [f"won {how}" if name == row["winner"] else "" for name in players]
    elif row["status"] == "playing":
        totals = next((g["toward"] for g in row["game_details"] if g["status"] == "in_progress" and g["toward"]), {})
        notes = [str(totals[name]) if name in totals else "" for name in players]
    lines = [{"name": name, "note": note, "won": row["status"] == "decided" and name == row["winner"]}
             for name, note in zip(players, notes, strict=True)]
    if row["status"] == "bye":
        lines.append({"name": "", "note": "bye: no table", "won": False})
    return {"where": str(row["table"]) if row["table"] else (row["match"] or ""), "match": row["match"],
            "status": row["status"], "lines": lines}
