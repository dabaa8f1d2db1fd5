"""Each entry's page in an event: its place now (or final place) with match points and tiebreaks, the
match it plays now, and every match it played with its result and margin, each opponent linked to their
own page. Linked from the pairings, standings and bracket.

It only reads (``entry_record``): it must not write, pair or score. A private event's entry is a 404 to
whoever may not read the event, as is an entry of another event; why an entry dropped is for the event's
officials only."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from scoring.actors import actor_for
from tournaments import policy, selectors
from tournaments.entry_history import entry_record
from tournaments.models import Entry

from ..presentation import ordinal
from .common import event_or_404, page_context

RESULT_WORDS = {"won": "Won", "lost": "Lost", "drew": "Drew", "bye": "Bye", "forfeit_won": "Won by forfeit",
                "forfeit_lost": "Lost by forfeit"}


def entry_page(request, pk: int, entry_id: int):
    event = event_or_404(request, pk)
    official = policy.is_official(actor_for(request), event)
    try:
        record = entry_record(event, entry_id, reasons=official)
    except Entry.DoesNotExist:
        raise Http404("no such entry in this event") from None
    for m in record["matches"]:
        m["words"] = result_words(m)
    return render(request, "tournaments/entry.html", page_context(
        request, event, "standings", record=record, official=official,
        place_words=ordinal(record["place"]) if record["place"] else "",
        byes=selectors.requested_byes(entry_id) if event.format == event.Format.SWISS else [],
        paired=selectors.rounds_paired(event),
    ))


def result_words(m: dict) -> str:
    """"Won by 45", "Lost by forfeit", "Drew (director's result)", "Bye", "Playing", "Not started"."""
    if m["result"] is None:
        return "Playing" if m["status"] == "playing" else "Not started"
    words = RESULT_WORDS[m["result"]]
    if m["result"] in ("won", "lost") and m["margin"] is not None:
        words += f" by {m['margin']}"
    if m["decided_by"] == "director" and not m["result"].startswith("forfeit"):
        words += " (director's result)"
    return words
