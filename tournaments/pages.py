"""Web pages of stored events: parse the request, call one service (or selectors), render.

For directors (desktop-friendly): the event list, a new event, the event page (pair, publish, open
the bracket, reset, the knockout), entries (add, paste, seed, drop), a round (swap in a draft,
publish), a match (forfeit, adjusted result, back to the games), the printable round sheet with a
QR referee link per table. For players and referees (phone-first): the pairings ("Table 7: Ann v
Bob"), the live standings and bracket, and a referee's "my tables". No pairing or scoring rules here:
the engine and the services decide; their refusals are shown beside the field they name.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import secrets
from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from scoring.api.auth import actor_for
from scoring.forms import conventions_in_words
from scoring.models import Game
from tournaments import policy, selectors, services
from tournaments.engine import EventError
from tournaments.models import Entry, Event, Match, Round

from .caching import keep, peek, versioned
from .forms import (
    AddEntryForm,
    DropForm,
    EventForm,
    KnockoutForm,
    OfficialsForm,
    PasteEntriesForm,
    ResultForm,
    SwapForm,
    place_errors,
)
from .presentation import bracket_sections, event_status_line
from .tables import TIEBREAK_LABELS, EventTable, standings_table

STANDINGS_PER_PAGE = 100
SESSION_TOKENS = "event_table_links"
WHITESPACE = re.compile(r"\s+")


# ---------------------------------------------------------------------------------------------------
# Helpers


def _event(request, pk: int) -> Event:
    try:
        return selectors.readable_event(actor_for(request), pk)
    except Event.DoesNotExist:
        raise Http404("no such event, or it is private") from None


def _can_direct(request, event: Event) -> bool:
    return policy.can_direct(actor_for(request), event)


def _require_director(request, event: Event, what: str):
    """Director-only pages: sign in first; a signed-in non-director is refused in words."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not _can_direct(request, event):
        raise PermissionDenied(f"only an organiser or a director of {event.name} may {what}")
    return None


def _once() -> str:
    return secrets.token_urlsafe(16)


def _claim(request) -> bool:
    """A director's form sent twice (a double tap, Back then send) does nothing the second time."""
    try:
        services.claim_form_once(actor=actor_for(request), once_key=request.POST.get("once", ""))
    except services.AlreadySent as exc:
        messages.info(request, exc.problems[0].message[:1].upper() + exc.problems[0].message[1:] + ".")
        return False
    return True


def _say(error: EventError | policy.NotAllowed) -> str:
    if isinstance(error, EventError):
        text = "; ".join(p.message for p in error.problems)
    else:
        text = str(error)
    return text[:1].upper() + text[1:]


def _live(response, key: str):
    """A live page's fragment says which results it shows; the page swaps it in when that changes."""
    response["X-Live-Version"] = key
    response["Cache-Control"] = "no-cache"
    return response


def _tabs(event: Event, current: str) -> list[dict[str, Any]]:
    tabs = [("event", "Event"), ("pairings", "Pairings"), ("standings", "Standings")]
    if event.is_elimination:
        tabs.append(("bracket", "Bracket"))
    tabs.append(("entries", "Entries"))
    return [{"name": name, "label": label, "url": reverse(f"tournaments:{name}", args=[event.pk]),
             "current": name == current} for name, label in tabs]


def _context(request, event: Event, current: str, **extra) -> dict[str, Any]:
    return {"event": event, "tabs": _tabs(event, current), "can_direct": _can_direct(request, event),
            "conventions": conventions_in_words(event.conventions), "once": _once(), **extra}


# ---------------------------------------------------------------------------------------------------
# The list and a new event


def event_list(request):
    actor = actor_for(request)
    events = selectors.event_list(actor)
    status = request.GET.get("status")
    if status in Event.Status.values:
        events = events.filter(status=status)
    table = EventTable(events)
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    return render(request, "tournaments/event_list.html", {
        "table": table, "status": status, "statuses": Event.Status.choices,
        "may_create": actor.is_organiser, "officiates": request.user.is_authenticated,
    })


@login_required
def new_event(request):
    actor = actor_for(request)
    if not actor.is_organiser:
        raise PermissionDenied("only an organiser may create events")
    form = EventForm(request.POST or None)
    general: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(actor=actor, **form.service_arguments())
        except EventError as exc:
            general = place_errors(form, exc)
        else:
            messages.success(request, f"{event.name} created. Add its entries, then pair the first round.")
            return redirect("tournaments:entries", pk=event.pk)
    return render(request, "tournaments/new_event.html", {
        "form": form, "general_errors": general, "presets": EventForm.preset_values(),
    }, status=400 if request.method == "POST" else 200)


# ---------------------------------------------------------------------------------------------------
# The event page: where it stands, what the director does next


def event_page(request, pk: int):
    event = _event(request, pk)
    answer, warnings = selectors.event_answer_and_warnings(event)
    current = selectors.current_round(event)
    rows = selectors.matches(event, round=current) if current and not event.is_elimination else []
    if event.is_elimination:
        rows = [r for r in selectors.matches(event) if r["status"] != "decided"]
    can_direct = _can_direct(request, event)
    rounds = selectors.round_summaries(event)
    entry_count = Entry.objects.filter(event=event).count()
    context = _context(
        request, event, "event", answer=answer, warnings=warnings,
        status_line=event_status_line(event, answer, current),
        current_round=current, rows=rows, rounds=rounds, next_step=_next_step(event, answer, rounds, rows, entry_count),
        knockout_form=KnockoutForm(initial={"top_n": min(8, len(answer["standings"])) or 2})
        if can_direct and answer["complete"] and not event.is_elimination else None,
        entry_count=entry_count,
        resettable=[w for w in warnings if w.get("resettable")],
        knockouts=list(event.knockouts.all()),
        officials_form=OfficialsForm(initial={"directors": list(event.directors.all()),
                                              "referees": list(event.referees.all())}) if can_direct else None,
        is_organiser=actor_for(request).is_organiser,
    )
    return render(request, "tournaments/event.html", context)


def _next_step(event: Event, answer: dict, rounds: list[dict], open_rows: list[dict], entries: int) -> dict:
    """What the director can do next: ``{"ready": bool, "label": button text, "why": why not yet}``."""
    if event.status == Event.Status.COMPLETE:
        return {"ready": False, "label": "", "why": ""}
    if event.status == Event.Status.REGISTRATION:
        label = ("Start the bracket" if event.is_elimination else "Pair round 1") + f" ({entries} entries)"
        return {"ready": entries >= 2, "label": label, "why": "" if entries >= 2 else "Add at least two entries."}
    if event.is_elimination:
        opened = {r["match"] for r in open_rows}
        ready = [p["match"] for p in answer["pending"] if p["match"] not in opened]
        if ready:
            return {"ready": True, "label": f"Open {', '.join(ready)}", "why": ""}
        return {"ready": False, "label": "", "why": "Every ready match is being played: the next ones open as "
                                                    "their results come in."}
    drafts = [r["round"] for r in rounds if r["status"] == "draft"]
    if drafts:
        return {"ready": False, "label": "", "why": f"Round {drafts[0]} is a draft: publish it on its page.",
                "draft": drafts[0]}
    last = rounds[-1]["round"] if rounds else 0
    if answer.get("next_round") and answer["next_round"]["round"] == last + 1:
        return {"ready": True, "label": f"Pair round {answer['next_round']['round']}", "why": ""}
    owed = len([r for r in open_rows if r["status"] in ("waiting", "playing")])
    playing = last or 1
    return {"ready": False, "label": "", "why": f"Round {playing} is being played: {owed} table"
                                                f"{'s' if owed != 1 else ''} still to finish. Pair the next round "
                                                "when every table has a result."}


@require_POST
def pair(request, pk: int):
    """Pair the next round (published at once, or a draft to swap in), or open the ready bracket matches."""
    event = _event(request, pk)
    if (refused := _require_director(request, event, "pair rounds")) is not None:
        return refused
    if not _claim(request):
        # Sent twice: show what the first sending led to, the sheet of what it paired.
        current = selectors.current_round(event)
        if event.is_elimination or current:
            url = reverse("tournaments:sheet", args=[pk]) + ("" if event.is_elimination else f"?round={current}")
            return redirect(url)
        return redirect("tournaments:event", pk=pk)
    publish = request.POST.get("draft") != "1"
    try:
        opened = services.pair_next_round(actor=actor_for(request), event=event, publish=publish)
    except (EventError, policy.NotAllowed) as exc:
        messages.error(request, _say(exc))
        return redirect("tournaments:event", pk=pk)
    if opened.round is not None and not publish:
        messages.success(request, f"Round {opened.round.number} drafted: swap pairings if you must, then publish it.")
        return redirect("tournaments:round", pk=pk, number=opened.round.number)
    what = f"Round {opened.round.number}" if opened.round else f"{len(opened.matches)} bracket match(es)"
    messages.success(request, f"{what} paired: print the round sheet now, its QR links are shown once.")
    return _to_sheet(request, event, opened)


def _to_sheet(request, event: Event, opened: services.Opened):
    # The tokens exist only now (their digests are stored): the sheet shows them once, then forgets them.
    request.session[SESSION_TOKENS] = {"event": event.pk, "tokens": {str(k): v for k, v in opened.tokens.items()}}
    url = reverse("tournaments:sheet", args=[event.pk])
    if opened.round is not None:
        url += f"?round={opened.round.number}"
    return redirect(url)


@require_POST
def reset_bracket(request, pk: int):
    event = _event(request, pk)
    if (refused := _require_director(request, event, "reset bracket matches")) is not None:
        return refused
    if not _claim(request):
        return redirect("tournaments:event", pk=pk)
    try:
        opened = services.reset_dependent_bracket_matches(actor=actor_for(request), event=event,
                                                          reason=request.POST.get("reason", ""))
    except (EventError, policy.NotAllowed) as exc:
        messages.error(request, _say(exc))
        return redirect("tournaments:event", pk=pk)
    names = ", ".join(m.bracket_id for m in opened.reset)
    messages.success(request, f"Reset {names}; opened {len(opened.matches)} match(es) in their place.")
    return _to_sheet(request, event, opened)


@require_POST
def officials(request, pk: int):
    event = _event(request, pk)
    if (refused := _require_director(request, event, "change the event's officials")) is not None:
        return refused
    form = OfficialsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the officials from the lists.")
        return redirect("tournaments:event", pk=pk)
    if not _claim(request):
        return redirect("tournaments:event", pk=pk)
    try:
        services.set_officials(actor=actor_for(request), event=event, **form.cleaned_data)
    except (EventError, policy.NotAllowed) as exc:
        messages.error(request, _say(exc))
    else:
        messages.success(request, "Officials saved: the games being played have their new referees.")
    return redirect("tournaments:event", pk=pk)


@require_POST
def knockout(request, pk: int):
    event = _event(request, pk)
    if (refused := _require_director(request, event, "start a knockout")) is not None:
        return refused
    form = KnockoutForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The knockout needs a number of entries (2 or more) and a format.")
        return redirect("tournaments:event", pk=pk)
    if not _claim(request):
        return redirect("tournaments:event", pk=pk)
    try:
        made = services.create_knockout_from_standings(actor=actor_for(request), source_event=event,
                                                       **form.cleaned_data)
    except (EventError, policy.NotAllowed) as exc:
        messages.error(request, _say(exc))
        return redirect("tournaments:event", pk=pk)
    messages.success(request, f"{made.name} created, seeded from the final standings.")
    return redirect("tournaments:event", pk=made.pk)


# ---------------------------------------------------------------------------------------------------
# Entries


def entries_page(request, pk: int):
    event = _event(request, pk)
    can_direct = _can_direct(request, event)
    add_form, paste_form = AddEntryForm(prefix="add", event=event), PasteEntriesForm(prefix="paste")
    status = 200
    if request.method == "POST":
        if (refused := _require_director(request, event, "change the entries")) is not None:
            return refused
        if not _claim(request):
            return redirect("tournaments:entries", pk=pk)
        action = request.POST.get("action")
        if action == "add":
            add_form = AddEntryForm(request.POST, prefix="add", event=event)
            if add_form.is_valid():
                data = add_form.cleaned_data
                try:
                    entry = services.add_entry(actor=actor_for(request), event=event, player=data["player"],
                                               name=data["name"], club=data["club"], rating=data["rating"])
                except (EventError, policy.NotAllowed) as exc:
                    _form_errors(add_form, exc, {"player": "player", "name": "name"})
                else:
                    messages.success(request, f"{entry.player} entered.")
                    return redirect("tournaments:entries", pk=pk)
        elif action == "paste":
            paste_form = PasteEntriesForm(request.POST, prefix="paste")
            if paste_form.is_valid():
                try:
                    made = services.add_entries_from_text(actor=actor_for(request), event=event,
                                                          **paste_form.cleaned_data)
                except (EventError, policy.NotAllowed) as exc:
                    _form_errors(paste_form, exc, {"lines": "text"})
                else:
                    messages.success(request, f"{len(made)} entries added.")
                    return redirect("tournaments:entries", pk=pk)
        elif action in ("seed", "drop"):
            return _seed_or_drop(request, event, action)
        status = 400
    rows = selectors.entries(event)
    return render(request, "tournaments/entries.html", _context(
        request, event, "entries", rows=rows, add_form=add_form, paste_form=paste_form,
        drop_form=DropForm(), can_direct=can_direct, registration=event.status == Event.Status.REGISTRATION,
        late_swiss=event.format == Event.Format.SWISS and event.status == Event.Status.RUNNING,
    ), status=status)


def _form_errors(form, error, aliases: dict[str, str]) -> None:
    if isinstance(error, policy.NotAllowed):
        form.add_error(None, str(error))
        return
    for message in place_errors(form, error, aliases):
        form.add_error(None, message)


def _seed_or_drop(request, event: Event, action: str):
    actor = actor_for(request)
    try:
        if action == "seed":
            method = request.POST.get("method", "")
            order = None
            if method == "manual":
                order = _manual_order(request.POST)
            services.seed_entries(actor=actor, event=event, method=method, order=order)
            messages.success(request, {"manual": "Seeds saved.", "rating": "Seeded by rating.",
                                       "random": "Seeded at random (the order is kept)."}.get(method, "Seeded."))
        else:
            form = DropForm(request.POST)
            entry = Entry.objects.select_related("player").get(pk=request.POST.get("entry"), event=event)
            if not form.is_valid():
                raise EventError.one(None, "after_round", "the last round played is a whole number from 0")
            services.drop_entry(actor=actor, entry=entry, after_round=form.cleaned_data["after_round"],
                                reason=form.cleaned_data["reason"])
            messages.success(request, f"{entry.player} dropped: not paired again, results kept.")
    except (EventError, policy.NotAllowed) as exc:
        messages.error(request, _say(exc))
    except (Entry.DoesNotExist, ValueError):
        messages.error(request, "That entry is not in this event.")
    return redirect("tournaments:entries", pk=event.pk)


def _manual_order(post) -> list[int]:
    """Entry ids ordered by the seed typed beside each (blank: unseeded); two entries given the same
    seed keep the order of the list."""
    typed = []
    for key, value in post.items():
        if key.startswith("seed-") and key[5:].isdigit() and value.strip():
            if not value.strip().isdigit() or int(value) < 1:
                raise EventError.one(None, "order", f"a seed is a whole number from 1; {value.strip()!r} given")
            typed.append((int(value), int(key[5:])))
    if not typed:
        raise EventError.one(None, "order", "type a seed beside at least one entry")
    return [pk for _, pk in sorted(typed)]


# ---------------------------------------------------------------------------------------------------
# A round, a match


def round_page(request, pk: int, number: int):
    event = _event(request, pk)
    try:
        rnd = Round.objects.get(event=event, number=number)
    except Round.DoesNotExist:
        raise Http404("no such round") from None
    rows = selectors.matches(event, round=number)
    entries = sorted(((e, name) for r in rows for e, name in zip(r["entries"], r["players"], strict=True)),
                     key=lambda pair: pair[1].casefold())
    swap_form = SwapForm(prefix="swap", entries=entries)
    swap_warnings: list[str] = []
    status = 200
    if request.method == "POST":
        if (refused := _require_director(request, event, "change a round")) is not None:
            return refused
        if request.POST.get("action") == "publish":
            if not _claim(request):
                return redirect("tournaments:round", pk=pk, number=number)
            try:
                opened = services.publish_round(actor=actor_for(request), round=rnd)
            except (EventError, policy.NotAllowed) as exc:
                messages.error(request, _say(exc))
                return redirect("tournaments:round", pk=pk, number=number)
            messages.success(request, f"Round {number} published: print the round sheet now, its QR links are "
                                      "shown once.")
            return _to_sheet(request, event, opened)
        swap_form = SwapForm(request.POST, prefix="swap", entries=entries)
        if swap_form.is_valid():
            data = swap_form.cleaned_data
            found = {e.pk: e for e in Entry.objects.filter(event=event, pk__in=[data["first"], data["second"]])
                     .select_related("player")}
            try:
                done = services.swap_entries(actor=actor_for(request), round=rnd, first=found[data["first"]],
                                             second=found[data["second"]], confirm=data["confirm"])
            except (EventError, policy.NotAllowed, KeyError) as exc:
                if isinstance(exc, EventError) and exc.problems[0].field == "confirm":
                    swap_warnings = services.swap_warnings(round=rnd, first=found[data["first"]],
                                                           second=found[data["second"]])
                    swap_form.add_error("confirm", "Tick “Swap anyway” to make this swap all the same.")
                else:
                    swap_form.add_error(None, _say(exc) if not isinstance(exc, KeyError) else "Pick two entries.")
                status = 400
            else:
                said = f" This swap {'; '.join(done)}." if done else ""
                messages.success(request, f"Swapped {found[data['first']].player} and "
                                          f"{found[data['second']].player}.{said}")
                return redirect("tournaments:round", pk=pk, number=number)
        else:
            status = 400
    return render(request, "tournaments/round.html", _context(
        request, event, "pairings", rnd=rnd, rows=rows, swap_form=swap_form, swap_warnings=swap_warnings,
    ), status=status)


def match_page(request, pk: int, match_id: int):
    event = _event(request, pk)
    try:
        row = selectors.match(event, match_id)
    except Match.DoesNotExist:
        raise Http404("no such match") from None
    players = list(zip(row["entries"], row["players"], strict=True))
    draws = not event.is_elimination
    cleared = bool(row["director_results"]) and row["director_results"][-1]["kind"] != "cleared"
    form = ResultForm(prefix="result", players=players, draws=draws, can_clear=cleared)
    status = 200
    if request.method == "POST":
        if (refused := _require_director(request, event, "record results")) is not None:
            return refused
        if not _claim(request):
            return redirect("tournaments:match", pk=pk, match_id=match_id)
        form = ResultForm(request.POST, prefix="result", players=players, draws=draws, can_clear=cleared)
        done = _director_result(request, event, match_id, form) if form.is_valid() else None
        if done is not None:
            return done
        status = 400
    return render(request, "tournaments/match.html", _context(
        request, event, "pairings", row=row, form=form, games=_games(row),
    ), status=status)


def _director_result(request, event: Event, match_id: int, form: ResultForm):
    data = form.cleaned_data
    match = Match.objects.get(pk=match_id, event=event)
    chosen = data.get("winner") or ""
    winner = Entry.objects.select_related("player").filter(event=event, pk=int(chosen)).first() \
        if chosen.isdigit() else None
    actor = actor_for(request)
    margin = data["margin"]
    try:
        if data["kind"] == "forfeit":
            if winner is None:
                raise EventError.one(None, "winner", "name the winner of the forfeit (a forfeit is never a draw)")
            if margin is not None and margin != event.forfeit_margin:
                raise EventError.one(None, "margin", f"a forfeit counts the event's forfeit margin "
                                                     f"({event.forfeit_margin}): leave the margin empty")
            services.record_forfeit(actor=actor, match=match, winner=winner, reason=data["reason"])
        elif data["kind"] == "adjusted":
            if winner is None and chosen != "draw":
                raise EventError.one(None, "winner", "name the winner, or choose a draw")
            if margin is None and chosen == "draw":
                margin = 0  # a draw's margin is 0: nothing to type
            if margin is None:
                raise EventError.one(None, "margin", "give the winner's margin in points")
            services.record_adjusted_result(actor=actor, match=match, winner=winner, margin=margin,
                                            reason=data["reason"])
        else:
            if chosen or margin is not None:
                raise EventError.one(None, "kind", "going back to the games' result takes no winner or margin: "
                                                   "the games decide")
            services.clear_director_result(actor=actor, match=match, reason=data["reason"])
    except (EventError, policy.NotAllowed) as exc:
        _form_errors(form, exc, {"match": "kind"})
        return None
    messages.success(request, "Result recorded; the standings follow." if data["kind"] != "cleared"
                     else "Back to the games' result.")
    return redirect("tournaments:match", pk=event.pk, match_id=match_id)


def _games(row: dict[str, Any]) -> list[dict[str, Any]]:
    """Each game of the match, marked "not needed" once the match was decided without it."""
    needed = sum(row["games_won"]) if row["source"] == "games" else None
    return [{**g, "not_needed": needed is not None and g["number"] > needed} for g in row["game_details"]]


# ---------------------------------------------------------------------------------------------------
# The round sheet (A4): pairings by table and a card per table with its QR referee link


def round_sheet(request, pk: int):
    event = _event(request, pk)
    if (refused := _require_director(request, event, "print round sheets")) is not None:
        return refused
    number = request.GET.get("round")
    number = int(number) if number and number.isdigit() else None
    rnd = Round.objects.filter(event=event, number=number).first() if number is not None else None
    if number is not None and rnd is None:
        raise Http404("no such round")
    if request.method == "POST":
        if not _claim(request):
            return redirect(request.get_full_path())
        try:
            tokens = services.issue_table_links(actor=actor_for(request), event=event, round=rnd)
        except (EventError, policy.NotAllowed) as exc:
            messages.error(request, _say(exc))
            return redirect(request.get_full_path())
        messages.success(request, "New table links made (the earlier ones no longer work): print this sheet now.")
        return _to_sheet(request, event, services.Opened(rnd, [], tokens))
    saved = request.session.pop(SESSION_TOKENS, None) or {}
    tokens = saved.get("tokens", {}) if saved.get("event") == event.pk else {}
    rows = selectors.matches(event, round=number) if rnd is not None else \
        [r for r in selectors.matches(event) if r["status"] != "decided" and r["match"]]
    cards = []
    for row in rows:
        if not row["games"] or row["status"] == "decided":
            continue  # a table card is for a table still to play
        links = []
        for game in row["game_details"]:
            token = tokens.get(str(game["id"]))
            url = request.build_absolute_uri(reverse("scoring:referee_link")) + "#" + token if token else ""
            links.append({"game": game, "url": url,
                          "qr": segno.make(url, error="m").svg_inline(scale=3, omitsize=True) if url else ""})
        cards.append({"row": row, "links": links})
    response = render(request, "tournaments/round_sheet.html", _context(
        request, event, "pairings", rnd=rnd, rows=rows, cards=cards, shown=bool(tokens), printed_at=timezone.now(),
    ))
    response["Cache-Control"] = "no-store"  # the QR codes are shown once: never from a cache, never by Back
    return response


# ---------------------------------------------------------------------------------------------------
# Phone pages: pairings, standings, bracket, my tables (live: they refresh themselves)


def pairings(request, pk: int):
    """The current round's tables ("Table 7: Ann v Bob") and each player's table, for phones.

    The tables show scores as they are played: the part is kept in the cache under a version that moves
    with any result, pairing or hand of the round (two small queries), and rendered again only then."""
    event = _event(request, pk)
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
        return _live(HttpResponse(fragment), version)
    # The fragment was rendered (and escaped) by our own template; the cache only kept it.
    return _keep_whole_page(whole, render(request, "tournaments/pairings.html", _context(
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
    event = _event(request, pk)
    as_of = request.GET.get("round")
    as_of = int(as_of) if as_of and as_of.isdigit() and not event.is_elimination else None
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
        messages.error(request, _say(exc))
        return redirect("tournaments:standings", pk=pk)
    if request.GET.get("fragment"):
        return _live(HttpResponse(part["html"]), key)
    # The part was rendered (and escaped) by our own template above; the cache only kept it.
    response = render(request, "tournaments/standings.html", _context(
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
    event = _event(request, pk)
    if not event.is_elimination:
        return redirect("tournaments:standings", pk=pk)
    key = selectors.answer_key(event)
    answer = selectors.event_answer(event)
    live = [r for r in selectors.matches(event) if r["match"]]
    tables = {r["match"]: r for r in live if r["status"] in ("waiting", "playing")}
    urls = {r["match"]: reverse("tournaments:match", args=[event.pk, r["id"]]) for r in live}
    context = _context(
        request, event, "bracket", answer=answer, live_key=key, status_line=event_status_line(event, answer),
        sections=bracket_sections(answer["bracket"], double=event.format == Event.Format.DOUBLE_ELIMINATION,
                                  urls=urls),
        next_matches=[{"id": p["match"], "players": p["players"], "table": tables.get(p["match"], {}).get("table")}
                      for p in answer["pending"]],
    )
    if request.GET.get("fragment"):
        return _live(render(request, "tournaments/_bracket_live.html", context), key)
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
