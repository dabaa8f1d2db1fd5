"""Table cards: a card per table with its links as QR codes and text (``table_cards``, for the round sheet
too), and the directors' "Cards to print" page: the tables still being played whose card was never
printed (a bracket match that opened by itself among them), a button that makes their links, and the
cards shown once, after a redirect, so a reload or Back never makes links again.

Views parse the form, call one service, render; they must not decide which tables need a card (the
selector and the service do) nor keep a token past the one page that shows it."""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import selectors, services

from .common import event_or_404, page_context, require_director, say, sent_once

SESSION_CARDS = "event_table_cards"


def table_cards(request, rows: list[dict[str, Any]], tokens: dict[str, str]) -> list[dict[str, Any]]:
    """A card per table still to play among ``rows`` (match rows): each game's link as text and QR code when
    its token is in ``tokens`` ({game id as text: token}, made for this page), else whether it has one."""
    cards = []
    for row in rows:
        if not row["games"] or row["status"] == "decided":
            continue  # a table card is for a table still to play
        links = []
        for game in row["game_details"]:
            token = tokens.get(str(game["id"]))
            url = request.build_absolute_uri(reverse("scoring:referee_link")) + "#" + token if token else ""
            links.append({"game": game, "url": url,
                          "working": any(link["active"] for link in game.get("referee_links", [])),
                          "qr": segno.make(url, error="m").svg_inline(scale=3, omitsize=True) if url else ""})
        cards.append({"row": row, "links": links})
    return cards


def cards_page(request, pk: int):
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "print table cards")) is not None:
        return refused
    if request.method == "POST":
        with sent_once(request) as fresh:
            if not fresh:
                return redirect("tournaments:cards", pk=pk)
            try:
                printed = services.print_table_cards(actor=actor_for(request), event=event,
                                                     started_too=bool(request.POST.get("started_too")))
            except Refusal as exc:
                messages.error(request, say(exc))
                return redirect("tournaments:cards", pk=pk)
            # The tokens exist only now (their digests are stored): the next page shows them once, then forgets them.
            request.session[SESSION_CARDS] = {"event": event.pk, "matches": [m.pk for m in printed.matches],
                                              "tokens": {str(k): v for k, v in printed.tokens.items()}}
            made = len(printed.matches)
            messages.success(request, f"{made} table card{'s' if made != 1 else ''} made: print this page now, their "
                                      "links are shown this once.")
            return redirect("tournaments:cards", pk=pk)
    saved = request.session.pop(SESSION_CARDS, None) or {}
    tokens = saved.get("tokens", {}) if saved.get("event") == event.pk else {}
    rows = selectors.matches(event, ids=saved.get("matches", [])) if tokens else []
    response = render(request, "tournaments/cards.html", page_context(
        request, event, "event", cards=table_cards(request, rows, tokens), to_print=selectors.cards_to_print(event),
        printed_at=timezone.now(),
    ))
    response["Cache-Control"] = "no-store"  # the QR codes are shown once: never from a cache, never by Back
    return response
