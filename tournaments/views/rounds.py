"""A round (a draft's swaps, publishing), a match (its games, a director's forfeit or adjusted result,
back to the games' result) and the printable A4 round sheet with a QR table link per table.

Views parse the form, call one service, render; they must not pair, score or decide roles themselves."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from core.reading import NotANumber, text_id, text_number
from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import policy, selectors, services
from tournaments.models import Entry, Event, Match, Round

from ..forms import ResultForm, SwapForm
from .cards import table_cards
from .common import (
    SESSION_TOKENS,
    event_or_404,
    form_errors,
    may_direct,
    page_context,
    require_director,
    say,
    sent_once,
    to_sheet,
)

# ---------------------------------------------------------------------------------------------------
# A round, a match


def round_page(request, pk: int, number: int):
    event = event_or_404(request, pk)
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
        if (refused := require_director(request, event, "change a round")) is not None:
            return refused
        if request.POST.get("action") == "publish":
            with sent_once(request) as fresh:
                if not fresh:
                    return redirect("tournaments:round", pk=pk, number=number)
                try:
                    opened = services.publish_round(actor=actor_for(request), round=rnd)
                except Refusal as exc:
                    messages.error(request, say(exc))
                    return redirect("tournaments:round", pk=pk, number=number)
                messages.success(request, f"Round {number} published: print the round sheet now, its QR links are "
                                          "shown once.")
                return to_sheet(request, event, opened)
        swap_form = SwapForm(request.POST, prefix="swap", entries=entries)
        if swap_form.is_valid():
            data = swap_form.cleaned_data
            found = {e.pk: e for e in Entry.objects.filter(event=event, pk__in=[data["first"], data["second"]])
                     .select_related("player")}
            try:
                done = services.swap_entries(actor=actor_for(request), round=rnd, first=found[data["first"]],
                                             second=found[data["second"]], confirm=data["confirm"])
            except (Refusal, KeyError) as exc:
                if isinstance(exc, Refusal) and exc.problems[0].field == "confirm":
                    swap_warnings = services.swap_warnings(round=rnd, first=found[data["first"]],
                                                           second=found[data["second"]])
                    swap_form.add_error("confirm", "Tick “Swap anyway” to make this swap all the same.")
                else:
                    swap_form.add_error(None, say(exc) if not isinstance(exc, KeyError) else "Pick two entries.")
                status = 400
            else:
                said = f" This swap {'; '.join(done)}." if done else ""
                messages.success(request, f"Swapped {found[data['first']].player} and "
                                          f"{found[data['second']].player}.{said}")
                return redirect("tournaments:round", pk=pk, number=number)
        else:
            status = 400
    directing = may_direct(request, event)
    # A table's own extra time (on top of the round's clock), beside the table it was given to.
    extra = dict(Match.objects.filter(round=rnd, extra_seconds__gt=0).values_list("pk", "extra_seconds"))
    for row in rows:
        row["extra_minutes"] = extra.get(row["id"], 0) // 60
    return render(request, "tournaments/round.html", page_context(
        request, event, "pairings", rnd=rnd, rows=rows, swap_form=swap_form, swap_warnings=swap_warnings,
        clock=selectors.clock_of(rnd.clock_ends_at, rnd.clock_left_seconds, timezone.now()),
        without_pin=selectors.players_without_pin(event, paired_in_round=number) if directing else {},
        cards_to_print=len(selectors.cards_to_print(event)) if directing else 0,
    ), status=status)


def match_page(request, pk: int, match_id: int):
    event = event_or_404(request, pk)
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
        if (refused := require_director(request, event, "record results")) is not None:
            return refused
        with sent_once(request) as fresh:
            if not fresh:
                return redirect("tournaments:match", pk=pk, match_id=match_id)
            form = ResultForm(request.POST, prefix="result", players=players, draws=draws, can_clear=cleared)
            done = _director_result(request, event, match_id, form) if form.is_valid() else None
            if done is not None:
                return done
            status = 400
    row = selectors.for_readers(row, official=policy.is_official(actor_for(request), event))
    return render(request, "tournaments/match.html", page_context(
        request, event, "pairings", row=row, form=form, games=_games(row),
    ), status=status)


@require_POST
def match_link(request, pk: int, match_id: int):
    """A new link for one table: the sheet then shows its card (the token this once), no other table's."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "make table links")) is not None:
        return refused
    match = Match.objects.filter(pk=match_id, event=event).select_related("round").first()
    if match is None:
        raise Http404("no such match")
    with sent_once(request) as fresh:
        if not fresh:
            return redirect("tournaments:match", pk=pk, match_id=match_id)
        try:
            tokens = services.issue_table_links(actor=actor_for(request), event=event, match=match)
        except Refusal as exc:
            messages.error(request, say(exc))
            return redirect("tournaments:match", pk=pk, match_id=match_id)
        messages.success(request, "A new link for this table (its earlier one no longer works): print its card now.")
        return to_sheet(request, event, services.Opened(match.round, [match], tokens), only_match=match.pk)


def _director_result(request, event: Event, match_id: int, form: ResultForm):
    data = form.cleaned_data
    match = Match.objects.get(pk=match_id, event=event)
    chosen = data.get("winner") or ""
    winner = Entry.objects.select_related("player").filter(event=event, pk=text_id(chosen)).first() \
        if text_id(chosen) is not None else None
    actor = actor_for(request)
    margin = data["margin"]
    try:
        if data["kind"] == "forfeit":
            if winner is None:
                raise Refusal.one("winner", "name the winner of the forfeit (a forfeit is never a draw)")
            if margin is not None and margin != event.forfeit_margin:
                raise Refusal.one("margin", f"a forfeit counts the event's forfeit margin "
                                                     f"({event.forfeit_margin}): leave the margin empty")
            services.record_forfeit(actor=actor, match=match, winner=winner, reason=data["reason"])
        elif data["kind"] == "adjusted":
            if winner is None and chosen != "draw":
                raise Refusal.one("winner", "name the winner, or choose a draw")
            if margin is None and chosen == "draw":
                margin = 0  # a draw's margin is 0: nothing to type
            if margin is None:
                raise Refusal.one("margin", "give the winner's margin in points")
            services.record_adjusted_result(actor=actor, match=match, winner=winner, margin=margin,
                                            reason=data["reason"])
        else:
            if chosen or margin is not None:
                raise Refusal.one("kind", "going back to the games' result takes no winner or margin: "
                                                   "the games decide")
            services.clear_director_result(actor=actor, match=match, reason=data["reason"])
    except Refusal as exc:
        form_errors(form, exc, {"match": "kind"})
        return None
    messages.success(request, "Result recorded; the standings follow." if data["kind"] != "cleared"
                     else "Back to the games' result.")
    return redirect("tournaments:match", pk=event.pk, match_id=match_id)


def _games(row: dict[str, Any]) -> list[dict[str, Any]]:
    """Each game of the match, marked "not needed" once the match (of more than one game) was decided without
    it, and its status in words: a game a director's result froze is "settled by the director"."""
    needed = sum(row["games_won"]) if row["source"] == "games" and len(row["game_details"]) > 1 else None
    by_director = row["source"] in ("forfeit", "adjusted")
    return [{**g, "not_needed": bool(needed) and g["number"] > needed,
             "status_words": "in progress" if g["status"] == "in_progress"
             else "settled by the director" if g["status"] == "abandoned" and by_director else g["status"]}
            for g in row["game_details"]]


# ---------------------------------------------------------------------------------------------------
# The round sheet (A4): pairings by table and a card per table with its QR referee link


def round_sheet(request, pk: int):
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "print round sheets")) is not None:
        return refused
    try:
        number = text_number(request.GET.get("round"), low=1)
    except NotANumber:
        raise Http404("no such round") from None
    rnd = Round.objects.filter(event=event, number=number).first() if number is not None else None
    if number is not None and rnd is None:
        raise Http404("no such round")
    if request.method == "POST":
        with sent_once(request) as fresh:
            if not fresh:
                return redirect(request.get_full_path())
            try:
                tokens = services.issue_table_links(actor=actor_for(request), event=event, round=rnd,
                                                    started_too=bool(request.POST.get("started_too")))
            except Refusal as exc:
                messages.error(request, say(exc))
                return redirect(request.get_full_path())
            messages.success(request, "New table links made (the earlier ones no longer work): print this sheet now.")
            return to_sheet(request, event, services.Opened(rnd, [], tokens))
    saved = request.session.pop(SESSION_TOKENS, None) or {}
    tokens = saved.get("tokens", {}) if saved.get("event") == event.pk else {}
    rows = selectors.matches(event, round=number) if rnd is not None else \
        [r for r in selectors.matches(event) if r["status"] != "decided" and r["match"]]
    if (only := text_id(request.GET.get("match"))) is not None:  # one table's new link: its card alone
        rows = [r for r in rows if r["id"] == only]
    cards = table_cards(request, rows, tokens)
    response = render(request, "tournaments/round_sheet.html", page_context(
        request, event, "pairings", rnd=rnd, rows=rows, cards=cards, shown=bool(tokens), printed_at=timezone.now(),
    ))
    response["Cache-Control"] = "no-store"  # the QR codes are shown once: never from a cache, never by Back
    return response



# What a clock's action did, in the message after it.
CLOCK_DONE = {"start": "started", "pause": "paused", "resume": "running again", "extend": "extended"}


@require_POST
def round_clock(request, pk: int, number: int):
    """A director starts, pauses, resumes or extends the round's clock (the whole round, or one table)."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "run the round's clock")) is not None:
        return refused
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None:
        raise Http404("no such round")
    try:
        minutes = text_number(request.POST.get("minutes") or None, low=1)
    except NotANumber as exc:
        messages.error(request, f"Nothing changed: the minutes are {exc}.")
        return redirect("tournaments:round", pk=pk, number=number)
    # A table given is one table, whatever it names: one that is not this round's (another event's, or no
    # id at all) is refused by the service, never read as "the whole round".
    sent = (request.POST.get("match") or "").strip()
    table = text_id(sent) if sent else None
    if sent and table is None:
        messages.error(request, f"Nothing changed: {sent[:20]!r} is not a table of round {number}.")
        return redirect("tournaments:round", pk=pk, number=number)
    action = request.POST.get("action", "")
    try:
        rnd = services.run_round_clock(actor=actor_for(request), round=rnd, action=action, minutes=minutes,
                                       match=table)
    except Refusal as exc:
        messages.error(request, f"Nothing changed: {say(exc)}")
    else:
        table_number = Match.objects.filter(pk=table).values_list("table", flat=True).first() if table else None
        messages.success(request, f"Round {number}'s clock {CLOCK_DONE[action]}"
                         + (f" for table {table_number}." if table else "."))
    return redirect("tournaments:round", pk=pk, number=number)


@require_POST
def match_clock(request, pk: int, match_id: int):
    """A director starts, pauses, resumes or extends a bracket match's own clock."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "run a match's clock")) is not None:
        return refused
    match = Match.objects.filter(pk=match_id, event=event).first()
    if match is None:
        raise Http404("no such match")
    try:
        minutes = text_number(request.POST.get("minutes") or None, low=1)
        services.run_match_clock(actor=actor_for(request), match=match, action=request.POST.get("action", ""),
                                 minutes=minutes)
    except NotANumber as exc:
        messages.error(request, f"Nothing changed: the minutes are {exc}.")
    except Refusal as exc:
        messages.error(request, f"Nothing changed: {say(exc)}")
    else:
        messages.success(request, f"{match.bracket_id}'s clock {CLOCK_DONE[request.POST['action']]}.")
    return redirect("tournaments:match", pk=pk, match_id=match_id)
