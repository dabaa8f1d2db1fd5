"""The phone pages that refresh themselves: pairings ("Table 7: Ann v Bob"), standings, the bracket,
and a referee's "my tables". Parts are rendered once per results version and kept; a phone that is not
signed in is shown a whole page kept the same way.

They only read (selectors, the stored answer): they must not write, pair or score."""

from __future__ import annotations

import gzip
import hashlib
import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe

from scoring.api.auth import actor_for
from scoring.models import Game
from scoring.reading import text_id
from tournaments import selectors
from tournaments.engine import EventError
from tournaments.models import Event

from ..caching import keep, peek, versioned
from ..presentation import bracket_sections, event_status_line
from ..tables import TIEBREAK_LABELS, standings_table
from .common import event_or_404, live_response, page_context, say

STANDINGS_PER_PAGE = 100
WHITESPACE = re.compile(r"\s+")


# ---------------------------------------------------------------------------------------------------
# Phone pages: pairings, standings, bracket, my tables (live: they refresh themselves)


def pairings(request, pk: int):
    """The current round's tables ("Table 7: Ann v Bob") and each player's table, for phones.

    The tables show scores as they are played: the part is kept in the cache under a version that moves
    with any result, pairing or hand of the round (two small queries), and rendered again only then."""
    event = event_or_404(request, pk)
    number = selectors.current_round(event)
    version = selectors.tables_version(event, None if event.is_elimination else number)
    cache_key = f"event-pairings:{event.pk}:{number}:{version}"
    whole = _whole_page_key(request, cache_key)
    if whole is not None and (kept := peek(whole)) is not None:
        return _whole_page(request, kept)

    def tables() -> str:
        if event.is_elimination:
            rows = [r for r in selectors.matches(event) if r["status"] in ("waiting", "playing")]
        else:
            rows = [r for r in selectors.matches(event, round=number) if r["status"] != "draft"] if number else []
        lookup = sorted(((name, row) for row in rows for name in row["players"]),
                        key=lambda item: item[0].casefold())
        return compact(render_to_string("tournaments/_pairings.html", {
            "event": event, "rows": rows, "lookup": lookup, "number": number,
            "draft": bool(number) and not rows and not event.is_elimination}, request=request))

    fragment = versioned(cache_key, tables)
    if request.GET.get("fragment"):
        return live_response(HttpResponse(fragment), version)
    # The fragment was rendered (and escaped) by our own template; the cache only kept it.
    return _keep_whole_page(whole, render(request, "tournaments/pairings.html", page_context(
        request, event, "pairings", fragment=mark_safe(fragment), live_key=version, number=number)))


def _whole_page_key(request, part_key: str) -> str | None:
    """A phone that is not signed in (no session, no message waiting) is shown the same page as every
    other such phone: the whole page is kept under the version of what it shows. None for anyone else."""
    if request.GET.get("fragment") or request.COOKIES.get(settings.SESSION_COOKIE_NAME) \
            or request.COOKIES.get("messages"):
        return None
    return f"{part_key}:page"


def _keep_whole_page(key: str | None, response):
    if key is not None and response.status_code == 200:
        keep(key, {"html": response.content, "gzip": gzip.compress(response.content, 6, mtime=0)})
    return response


def _whole_page(request, kept: dict):
    """A kept page as it is, gzipped (once, when it was kept) for a browser that takes gzip."""
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(kept["gzip"])
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(kept["html"])
    patch_vary_headers(response, ["Accept-Encoding", "Cookie"])
    return response


def compact(html: str) -> str:
    """Whitespace runs as one space: a page part's indentation is most of its size (these parts hold
    no <pre> or <textarea>, where whitespace would matter)."""
    return WHITESPACE.sub(" ", html)


def standings(request, pk: int):
    """The live standings (a django-tables2 table), as of any round, 100 to a page, a name to find.

    The table part is rendered once per results version (and page, and name searched) and kept in the
    cache, and so is the whole page as a phone that is not signed in sees it: every phone refreshing it
    costs two small queries, not a table rendered again."""
    event = event_or_404(request, pk)
    # A round that is no number ("²", "x") shows the live standings, as no round at all does.
    as_of = text_id(request.GET.get("round")) if not event.is_elimination else None
    find = (request.GET.get("q") or "").strip()[:60]
    page_number = request.GET.get("page") or "1"
    key = selectors.answer_key(event)
    where = hashlib.sha256(f"{as_of}|{page_number}|{find}".encode()).hexdigest()[:24]
    cache_key = f"event-standings:{event.pk}:{key}:{where}"
    whole = _whole_page_key(request, cache_key)
    if whole is not None and (kept := peek(whole)) is not None:
        return _whole_page(request, kept)
    try:
        part = versioned(cache_key, lambda: _standings_part(request, event, as_of, find, page_number, key))
    except EventError as exc:
        messages.error(request, say(exc))
        return redirect("tournaments:standings", pk=pk)
    if request.GET.get("fragment"):
        return live_response(HttpResponse(part["html"]), key)
    # The part was rendered (and escaped) by our own template above; the cache only kept it.
    response = render(request, "tournaments/standings.html", page_context(
        request, event, "standings", part=mark_safe(part["html"]), find=find, as_of=as_of, live_key=key,
        rounds_choice=list(range(1, part["rounds_played"] + 1)),
        csv_url=reverse("tournaments-api:standings", args=[event.pk]) + "?format=csv"
        + (f"&round={as_of}" if as_of is not None else ""),
    ))
    return _keep_whole_page(whole, response)


def _standings_part(request, event: Event, as_of: int | None, find: str, page_number: str, key: str) -> dict:
    """The standings' live part (status, table, pages) as HTML, and the rounds it can be shown as of."""
    live = selectors.event_answer(event)
    answer = live if as_of is None else selectors.event_answer_as_of(event, as_of)
    current = selectors.current_round(event)
    rows = answer["standings"]
    if find:
        rows = [r for r in rows if find.casefold() in r["name"].casefold()]
    paginator = Paginator(rows, STANDINGS_PER_PAGE)
    try:
        page = paginator.page(page_number)
    except (EmptyPage, PageNotAnInteger):
        page = paginator.page(1)
    table = standings_table(list(page.object_list), list(event.tiebreaks))
    html = compact(render_to_string("tournaments/_standings.html", {
        "event": event, "answer": answer, "table": table, "page": page, "find": find, "as_of": as_of,
        "status_line": event_status_line(event, answer, current),
        "tiebreak_words": ", ".join(TIEBREAK_LABELS.get(k, k) for k in event.tiebreaks),
    }, request=request))
    return {"html": html, "rounds_played": live["rounds_played"]}


def bracket(request, pk: int):
    event = event_or_404(request, pk)
    if not event.is_elimination:
        return redirect("tournaments:standings", pk=pk)
    key = selectors.answer_key(event)
    answer = selectors.event_answer(event)
    live = [r for r in selectors.matches(event) if r["match"]]
    tables = {r["match"]: r for r in live if r["status"] in ("waiting", "playing")}
    urls = {r["match"]: reverse("tournaments:match", args=[event.pk, r["id"]]) for r in live}
    context = page_context(
        request, event, "bracket", answer=answer, live_key=key, status_line=event_status_line(event, answer),
        sections=bracket_sections(answer["bracket"], double=event.format == Event.Format.DOUBLE_ELIMINATION,
                                  urls=urls),
        next_matches=[{"id": p["match"], "players": p["players"], "table": tables.get(p["match"], {}).get("table")}
                      for p in answer["pending"]],
    )
    if request.GET.get("fragment"):
        return live_response(render(request, "tournaments/_bracket_live.html", context), key)
    return render(request, "tournaments/bracket.html", context)


@login_required
def my_tables(request):
    """A referee's (or director's) tables: the undecided matches of the current rounds they officiate,
    each one tap from the entry page of the game being played."""
    rows = selectors.my_tables(actor_for(request))
    for row in rows:
        playing = next((g for g in row["game_details"] if g["status"] == Game.Status.IN_PROGRESS), None)
        row["playing"] = playing
    return render(request, "tournaments/my_tables.html", {"rows": rows})
