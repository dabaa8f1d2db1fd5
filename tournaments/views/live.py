"""The phone pages that refresh themselves: pairings ("Table 7: Ann v Bob"), standings, the bracket,
and a referee's "my tables". Parts are rendered once per results version and kept; a phone that is not
signed in is shown a whole page kept the same way.

They only read (selectors, the stored answer): they must not write, pair or score."""

from __future__ import annotations

import gzip
import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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

from core.conditional import live_etag, live_response, not_modified
from core.reading import text_id
from core.text import name_matches
from scoring.actors import actor_for
from scoring.models import Game
from tournaments import selectors
from tournaments.engine import EventError
from tournaments.models import Event

from ..answers.memos import latest, made_once, peek
from ..live_tables import live_tables
from ..presentation import bracket_sections, entry_urls_of, event_status_line, prize_placings
from ..tables import TIEBREAK_LABELS, standings_table
from .common import event_or_404, may_direct, page_context, say

STANDINGS_PER_PAGE = 100
WHITESPACE = re.compile(r"\s+")


# ---------------------------------------------------------------------------------------------------
# Phone pages: pairings, standings, bracket, my tables (live: they refresh themselves)


def pairings(request, pk: int):
    """A round's tables ("Table 7: Ann v Bob") and each player's table, for phones: the current round, or
    with ``?round=N`` an earlier one paired so far.

    The tables show scores as they are played: the part is versioned by what it shows (results,
    pairings, each game's counted score and status: one query), made again by one worker at a time and
    at most every few seconds while the others serve the last one made (``answers.memos.latest``), and a
    phone that already holds the version it would get is answered 304. A hall of phones refreshing is
    answered from this worker's memory, checked against the database at most once a second."""
    memo = f"pairings:{pk}:{request.GET.get('round', '')}"
    if _phone_refresh(request) and (part := _remembered(memo)) and (sent := _send_part(request, part)):
        return sent
    if (page := _remembered_page(request)) is not None:
        return page
    event = event_or_404(request, pk)
    current = selectors.current_round(event)
    number = _asked_round(request, event, current)
    # The current round is part of the version: an earlier round's page links to every round paired.
    version = f"{current}.{selectors.tables_version(event, None if event.is_elimination else number)}"
    if request.GET.get("fragment") and (unchanged := not_modified(request, live_etag("pairings", version))):
        return _remember(request, memo, LivePart("", version, live_etag("pairings", version)), unchanged)

    def tables() -> str:
        if event.is_elimination:
            rows = [r for r in live_tables(event, None) if r["status"] in ("waiting", "playing")]
        else:
            rows = [r for r in live_tables(event, number) if r["status"] != "draft"] if number else []
        points = {} if event.is_elimination or not number else _points_before(event, number)
        entry_url = entry_urls_of(event.pk)
        for row in rows:
            row["sides"] = [{"name": name, "entry": e, "url": entry_url(e),
                             "points": points.get(e, 0 if number == 1 else None)}
                            for name, e in zip(row["players"], row["entries"], strict=True)]
        lookup = sorted(((side, row) for row in rows for side in row["sides"]),
                        key=lambda item: item[0]["name"].casefold())
        return compact(render_to_string("tournaments/_pairings.html", {
            "event": event, "rows": rows, "lookup": lookup, "number": number, "current": current,
            "clock": selectors.round_clock(event, number) if number == current else None,
            "rounds": [] if event.is_elimination else list(range(1, (current or 0) + 1)),
            "draft": bool(number) and not rows and not event.is_elimination,
            "sitting_out": selectors.sitting_out(event, number) if number and event.format == "swiss" and rows
            else []}, request=request))

    name = f"event-pairings:{event.pk}:{number}"
    whole = _whole_page_key(request, f"{name}:{version}")
    if whole is not None and (kept := peek(whole)) is not None:
        return _whole_page(request, kept, remember=True)
    fragment, shown = latest(name, version, tables)
    etag = live_etag("pairings", shown)
    if request.GET.get("fragment"):
        part = LivePart(fragment, shown, etag)
        return _remember(request, memo, part, _send_part(request, part))
    if shown != version:  # another worker is making the newest: the last one made, as a whole page too
        whole = _whole_page_key(request, f"{name}:{shown}")
        if whole is not None and (kept := peek(whole)) is not None:
            return _whole_page(request, kept, remember=True)
    # The fragment was rendered (and escaped) by our own template; the cache only kept it.
    return _made_whole_page(request, whole, lambda: render(request, "tournaments/pairings.html", page_context(
        request, event, "pairings", fragment=mark_safe(fragment), live_key=shown, live_etag=etag, number=number,
        current_round=current, **_for_directors(request, event, number))))


def _points_before(event: Event, number: int) -> dict[int, int]:
    """{entry id: its match points before round ``number``} (the standings as of the round before: stored per
    results version, as the page's part is); round 1: everyone's 0."""
    if number <= 1:
        return {}
    try:
        rows = selectors.standings(event, number - 1)
    except EventError:  # the engine cannot rank as of that round: the names alone
        return {}
    return {row["entry"]: row["match_points"] for row in rows if row.get("entry") is not None}


def _for_directors(request, event: Event, number: int | None) -> dict:
    """What the pairings page tells the event's directors alone (signed in: their page is never kept for
    other phones): the table cards still to print and the paired players who have no PIN."""
    if not may_direct(request, event):
        return {}
    paired = {"paired_in_bracket": True} if event.is_elimination else {"paired_in_round": number}
    return {"cards_to_print": len(selectors.cards_to_print(event)),
            "without_pin": selectors.players_without_pin(event, **paired) if event.is_elimination or number else {}}


def _asked_round(request, event: Event, current: int | None) -> int | None:
    """``?round=N``: an earlier round's tables (a Swiss or round robin round paired so far); else the current."""
    asked = text_id(request.GET.get("round"))
    if event.is_elimination or not current or asked is None or not 1 <= asked <= current:
        return current
    return asked


# ---------------------------------------------------------------------------------------------------
# A hall of phones refreshing: each worker answers them from its memory, checking at most once a second

RECHECK_AFTER_SECONDS = 1.0


@dataclass
class LivePart:
    """A live page's part as every phone that is not signed in is sent it (its HTML empty when only the
    version is known: a phone holding another one then gets the part from the database's path)."""

    html: str
    key: str
    etag: str
    updating: bool = False
    _gzipped: bytes = b""

    def gzipped(self) -> bytes:
        if not self._gzipped:
            self._gzipped = gzip.compress(self.html.encode(), 6, mtime=0)
        return self._gzipped


class Sent:
    """Per worker: what was last sent under each key and when, read back for ``RECHECK_AFTER_SECONDS``; at most
    ``most`` keys (all forgotten past that: a key made up for each request must not fill the worker's memory)."""

    def __init__(self, most: int):
        self.most = most
        self._items: dict[str, tuple[float, Any]] = {}

    def recent(self, key: str) -> Any:
        """What was sent under ``key`` less than ``RECHECK_AFTER_SECONDS`` ago, else None."""
        found = self._items.get(key)
        if found is None or time.monotonic() - found[0] >= RECHECK_AFTER_SECONDS:
            return None
        return found[1]

    def last(self, key: str) -> Any:
        """What was last sent under ``key``, however long ago (None: nothing)."""
        found = self._items.get(key)
        return None if found is None else found[1]

    def keep(self, key: str, value: Any) -> None:
        if len(self._items) >= self.most:
            self._items.clear()
        self._items[key] = (time.monotonic(), value)

    def clear(self) -> None:
        self._items.clear()


_recent = Sent(2_000)  # the parts sent to phones refreshing


def _phone_refresh(request) -> bool:
    """A part's refresh by a phone that is not signed in: what every such phone is sent alike."""
    return bool(request.GET.get("fragment")) and not request.COOKIES.get(settings.SESSION_COOKIE_NAME) \
        and not request.COOKIES.get("messages")


def _remembered(memo: str) -> LivePart | None:
    """The part this worker last sent under ``memo``, if it checked it less than a second ago and the phone
    holds it (a 304) or it knows its HTML."""
    return _recent.recent(memo)


def _remember(request, memo: str, part: LivePart, response):
    if _phone_refresh(request) and response.status_code in (200, 304):
        known = _recent.last(memo)
        if not part.html and known is not None and known.etag == part.etag:
            part = known  # the same version: keep its HTML
        _recent.keep(memo, part)
    return response


def _send_part(request, part: LivePart) -> HttpResponse | None:
    if unchanged := not_modified(request, part.etag):
        return live_response(unchanged, part.key, updating=part.updating)
    if not part.html:  # only the version is known here: the caller goes the long way
        return None
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(part.gzipped())
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(part.html)
    patch_vary_headers(response, ["Accept-Encoding"])
    return live_response(response, part.key, etag=part.etag, updating=part.updating)


def _whole_page_key(request, part_key: str) -> str | None:
    """A phone that is not signed in (no session, no message waiting) is shown the same page as every
    other such phone: the whole page is kept under the version of what it shows. None for anyone else."""
    if request.GET.get("fragment") or request.COOKIES.get(settings.SESSION_COOKIE_NAME) \
            or request.COOKIES.get("messages"):
        return None
    return f"{part_key}:page"


def _made_whole_page(request, key: str | None, render_page: Callable[[], HttpResponse]) -> HttpResponse:
    """The whole page ``render_page`` makes, kept under ``key`` for every phone that is not signed in and made
    by one worker at a time (``answers.memos.made_once``): at a round's release every thread of every worker
    rendered, gzipped and stored the same 300 kB page of 500 tables at once. ``key`` None: rendered here."""
    if key is None:
        return render_page()
    rendered: list[HttpResponse] = []

    def make() -> dict | None:
        rendered.append(response := render_page())
        if response.status_code != 200:
            return None
        return {"html": response.content, "gzip": gzip.compress(response.content, 6, mtime=0)}

    kept = made_once(key, make)
    if kept is None:
        return rendered[0] if rendered else render_page()
    return _whole_page(request, kept, remember=True)


# Per worker: the whole page each address (path and query) last served to a phone that is not signed in, and
# when. The hall opening its pages at a round's release asked the database four or five times per page only
# to learn that the page was already made (issue 35: those queries, waiting their turn on two busy cores, were
# most of a first page's time); now the first such phone in a second asks, and the others are sent its page.
# A whole page is tens of kilobytes (the pairings of 500 tables): few addresses are remembered (a hall opens
# two or three).
_recent_pages = Sent(256)


def _remembered_page(request):
    """The whole page this worker sent a phone that is not signed in for this address less than a second
    ago, sent again; else None."""
    if _whole_page_key(request, "") is None:
        return None
    kept = _recent_pages.recent(request.get_full_path())
    return None if kept is None else _whole_page(request, kept)


def _remember_page(request, kept: dict) -> None:
    if _whole_page_key(request, "") is not None:
        _recent_pages.keep(request.get_full_path(), kept)


def _whole_page(request, kept: dict, *, remember: bool = False):
    """A kept page as it is, gzipped (once, when it was kept) for a browser that takes gzip."""
    if remember:
        _remember_page(request, kept)
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

    The table part is rendered once per results version (and page, and name searched) by one worker at a
    time and kept in the cache (``answers.memos.latest``: the others serve the last one made meanwhile), and
    so is the whole page as a phone that is not signed in sees it: every phone refreshing it costs two
    small queries, not a table rendered again, and one that holds that version gets a 304. While newer
    results are worked out or rendered, the last ones are shown, marked as updating."""
    memo = f"standings:{pk}:{request.GET.urlencode()}"
    if _phone_refresh(request) and (remembered := _remembered(memo)) and (sent := _send_part(request, remembered)):
        return sent
    if (page := _remembered_page(request)) is not None:
        return page
    event = event_or_404(request, pk)
    # A round that is no number ("²", "x") shows the live standings, as no round at all does.
    as_of = text_id(request.GET.get("round")) if not event.is_elimination else None
    find = (request.GET.get("q") or "").strip()[:60]
    page_number = request.GET.get("page") or "1"
    version = selectors.served_version(event) if as_of is None else selectors.Version(selectors.answer_key(event))
    key = version.key
    where = hashlib.sha256(f"{as_of}|{page_number}|{find}".encode()).hexdigest()[:24]
    etag = live_etag(f"standings-{where}", key)
    if request.GET.get("fragment") and (unchanged := not_modified(request, etag)):
        return _remember(request, memo, LivePart("", key, etag, version.updating),
                         live_response(unchanged, key, updating=version.updating))
    name = f"event-standings:{event.pk}:{where}"
    # The next stage (a knockout made from these standings) is linked from them: one made after this version's
    # page was kept makes the page anew (its id is part of the kept page's key).
    knockouts = [] if request.GET.get("fragment") else selectors.stages(actor_for(request), event)[1]
    stages = ".".join(str(k.pk) for k in knockouts)
    whole = _whole_page_key(request, _standings_page_key(name, key, stages, version.updating))
    if whole is not None and (kept := peek(whole)) is not None:
        return _whole_page(request, kept, remember=True)
    try:
        # One worker makes a new version's part while the others serve the last one made, marked updating:
        # when a match was decided, every worker and thread rendered the same table at once (a second or
        # more each, on a night of 1,000 entries), and the hall's refreshes queued behind them.
        part, shown = latest(name, key, lambda: _standings_part(request, event, as_of, find, page_number))
    except EventError as exc:
        messages.error(request, say(exc))
        return redirect("tournaments:standings", pk=pk)
    if shown != key:
        key, etag = shown, live_etag(f"standings-{where}", shown)
        version = selectors.Version(shown, updating=True)
        whole = _whole_page_key(request, _standings_page_key(name, key, stages, True))
    if request.GET.get("fragment"):
        fresh = LivePart(part["html"], key, etag, version.updating)
        return _remember(request, memo, fresh, _send_part(request, fresh))
    # The part was rendered (and escaped) by our own template above; the cache only kept it.
    return _made_whole_page(request, whole, lambda: render(request, "tournaments/standings.html", page_context(
        request, event, "standings", part=mark_safe(part["html"]), find=find, as_of=as_of, live_key=key,
        live_etag=etag, updating=version.updating, rounds_choice=list(range(1, part["rounds_played"] + 1)),
        knockouts=knockouts,
        csv_url=reverse("tournaments-api:standings", args=[event.pk]) + "?format=csv"
        + (f"&round={as_of}" if as_of is not None else ""),
    )))


def _standings_page_key(name: str, key: str, stages: str, updating: bool) -> str:
    """Where a whole standings page is kept: a version shown while a newer one is being made says so on the
    page, so it is kept apart from the same version shown as the newest. (Made for every phone, the pages of
    those seconds were most of a round's release: issue 35.)"""
    return f"{name}:{key}:{stages}" + (":updating" if updating else "")


def _standings_part(request, event: Event, as_of: int | None, find: str, page_number: str) -> dict:
    """The standings' live part (status, table, pages) as HTML, and the rounds it can be shown as of."""
    live = selectors.event_answer(event)
    answer = live if as_of is None else selectors.event_answer_as_of(event, as_of)
    current = selectors.current_round(event)
    rows = answer["standings"]
    if find:
        rows = [r for r in rows if name_matches(find, r["name"])]
    paginator = Paginator(rows, STANDINGS_PER_PAGE)
    try:
        page = paginator.page(page_number)
    except (EmptyPage, PageNotAnInteger):
        page = paginator.page(1)
    table = standings_table(list(page.object_list), list(event.tiebreaks), event=event.pk)
    final = as_of is None and bool(answer["complete"])
    html = compact(render_to_string("tournaments/_standings.html", {
        "event": event, "answer": answer, "table": table, "page": page, "find": find, "as_of": as_of,
        "placings": prize_placings(event.prizes, answer["standings"], final=final), "final": final,
        "status_line": event_status_line(event, answer, current),
        "tiebreak_words": ", ".join(TIEBREAK_LABELS.get(k, k) for k in event.tiebreaks),
    }, request=request))
    return {"html": html, "rounds_played": live["rounds_played"]}


def bracket(request, pk: int):
    event = event_or_404(request, pk)
    if not event.is_elimination:
        return redirect("tournaments:standings", pk=pk)
    version = selectors.served_version(event)
    key = version.key
    etag = live_etag("bracket", selectors.tables_version(event, None, results=key))
    if request.GET.get("fragment") and (unchanged := not_modified(request, etag)):
        return live_response(unchanged, key, etag=etag, updating=version.updating)
    answer = selectors.event_answer(event)
    live = [r for r in selectors.matches(event) if r["match"]]
    tables = {r["match"]: r for r in live if r["status"] in ("waiting", "playing")}
    urls = {r["match"]: reverse("tournaments:match", args=[event.pk, r["id"]]) for r in live}
    entry_urls = _entry_urls(event, answer["standings"])
    context = page_context(
        request, event, "bracket", answer=answer, live_key=key, live_etag=etag, updating=version.updating,
        status_line=event_status_line(event, answer),
        sections=bracket_sections(answer["bracket"], double=event.format == Event.Format.DOUBLE_ELIMINATION,
                                  urls=urls, entry_urls=entry_urls),
        next_matches=[{"id": p["match"], "players": [{"name": name, "url": entry_urls.get(name, "")}
                                                     for name in p["players"]],
                       "table": tables.get(p["match"], {}).get("table")}
                      for p in answer["pending"]],
    )
    if request.GET.get("fragment"):
        return live_response(render(request, "tournaments/_bracket_live.html", context), key, etag=etag,
                             updating=version.updating)
    return render(request, "tournaments/bracket.html", context)


def _entry_urls(event: Event, standings: list[dict]) -> dict[str, str]:
    """{name: its entry's page} for the names the answer shows (each standings row holds its entry id)."""
    entry_url = entry_urls_of(event.pk)
    return {row["name"]: entry_url(row["entry"]) for row in standings if row.get("entry") is not None}


@login_required
def my_tables(request):
    """A referee's (or director's) tables: the undecided matches of the current rounds they officiate,
    each one tap from the entry page of the game being played."""
    rows = selectors.my_tables(actor_for(request))
    for row in rows:
        playing = next((g for g in row["game_details"] if g["status"] == Game.Status.IN_PROGRESS), None)
        row["playing"] = playing
    version = _my_tables_version(rows)
    etag = live_etag("my-tables", version)
    if request.GET.get("fragment"):
        if (unchanged := not_modified(request, etag)) is not None:
            return unchanged
        html = render_to_string("tournaments/_my_tables.html", {"rows": rows}, request=request)
        return live_response(HttpResponse(html), version, etag=etag)
    return render(request, "tournaments/my_tables.html", {"rows": rows, "live_key": version, "live_etag": etag})


def _my_tables_version(rows: list[dict]) -> str:
    """What "My tables" shows, short of the seconds a running clock counts down on the phone: a director's
    pause, resume or extra time, a table's result or its next game change it."""
    def steady(clock: dict | None) -> tuple | None:
        if not clock:
            return None
        return (clock.get("status"), str(clock.get("ends_at")),
                clock.get("remaining_seconds") if clock.get("status") == "paused" else None)
    said = repr([(r.get("id"), r.get("status"), r.get("winner"), r.get("event_name"), steady(r.get("clock")),
                  [(g["id"], g["status"], g.get("totals"), g.get("pending_hands")) for g in r["game_details"]])
                 for r in rows])
    return hashlib.blake2s(said.encode(), digest_size=8).hexdigest()
