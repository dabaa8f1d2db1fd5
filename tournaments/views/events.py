"""The event list, a new event, and the event page: where the event stands and what its director does
next (pair, open the bracket, reset stale bracket matches, acknowledge a warning, officials, a knockout
from core.refusals import Refusal
from the standings, change, cancel or delete the event).

Views parse the form, call one service, render; they must not pair, score or decide roles themselves."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import policy, selectors, services
from tournaments.models import Entry, Event

from ..forms import (
    AcknowledgeWarningForm,
    CancelEventForm,
    EventChangeForm,
    EventForm,
    KnockoutForm,
    OfficialsForm,
    PrizesForm,
    RegistrationForm,
    place_errors,
)
from ..presentation import event_status_line, matches_in_words, prize_placings, tables_in_words
from ..tables import EventTable
from .common import (
    event_form_post,
    event_or_404,
    may_direct,
    page_context,
    require_director,
    say,
    sent_once,
    to_sheet,
)
from .prizes import prizes_draft

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
        "table": table, "status": status,
        # Cancelled events are listed to organisers and their officials only: no filter for anyone signed out.
        "statuses": [c for c in Event.Status.choices if c[0] != Event.Status.CANCELLED or actor.user is not None],
        "may_create": policy.may_create_events(actor), "officiates": request.user.is_authenticated,
    })


@login_required
def new_event(request):
    actor = actor_for(request)
    if not policy.may_create_events(actor):
        raise PermissionDenied("only an organiser, or a user an organiser allows to, may create events")
    form = EventForm(request.POST or None)
    general: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(actor=actor, **form.service_arguments())
        except Refusal as exc:
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
    event = event_or_404(request, pk)
    answer, warnings = selectors.event_answer_and_warnings(event)
    cancelled = event.status == Event.Status.CANCELLED
    official = bool(warnings or cancelled) and policy.is_official(actor_for(request), event)
    current = selectors.current_round(event)
    rows = selectors.matches(event, round=current) if current and not event.is_elimination else []
    if event.is_elimination:
        rows = [r for r in selectors.matches(event) if r["status"] != "decided"]
    can_direct = may_direct(request, event)
    writable = can_direct and not cancelled  # a cancelled event's page offers no write
    rounds = selectors.round_summaries(event)
    entry_count = Entry.objects.filter(event=event).count()
    unfinished = selectors.unfinished_tables(event, answer, rows) if event.status == Event.Status.RUNNING else []
    check_in = selectors.check_in_state(event) if can_direct else None
    draft = prizes_draft(request, event.pk) if writable else None
    context = page_context(
        request, event, "event", answer=answer, warnings=selectors.shown_warnings(event, warnings, official=official),
        cancellation=selectors.cancellation(event, official=official), writable=writable,
        status_line=event_status_line(event, answer, current, unfinished),
        current_round=current, rows=rows, rounds=rounds,
        next_step=_next_step(event, answer, rounds, rows if event.is_elimination else unfinished, entry_count,
                             check_in),
        knockout_form=KnockoutForm(initial={"top_n": min(8, len(answer["standings"])) or 2,
                                            "match_format": event.match_format, "round_minutes": event.round_minutes})
        if writable and answer["complete"] and not event.is_elimination and not selectors.has_knockout(event)
        else None,
        entry_count=entry_count,
        resettable=[w for w in warnings if w.get("resettable")],
        **dict(zip(("seeded_from", "knockouts"), selectors.stages(actor_for(request), event), strict=True)),
        officials_form=OfficialsForm(initial={"directors": list(event.directors.all()),
                                              "referees": list(event.referees.all())}) if writable else None,
        registration_form=RegistrationForm(initial={
            "registration_open": event.registration_open, "registration_cap": event.registration_cap,
            "waitlist": event.waitlist, "registration_closes_at": event.registration_closes_at})
        if writable and event.status == Event.Status.REGISTRATION else None,
        sign_up_url=request.build_absolute_uri(reverse("tournaments:register", args=[event.pk])
                                               + ("" if event.is_public else f"?key={event.registration_key}"))
        if writable else "",
        change_form=EventChangeForm(initial={"name": event.name, "rounds": event.rounds, "is_public": event.is_public,
                                             "check_in": event.check_in, "round_minutes": event.round_minutes})
        if writable else None,
        deletable=writable and not services.has_results(event) and not selectors.has_knockout(event),
        cancel_form=CancelEventForm() if writable and event.status != Event.Status.COMPLETE else None,
        prizes_form=PrizesForm(initial={
            "prizes": draft if draft is not None else services.prizes_as_text(event.prizes)}) if writable else None,
        prizes_refused=draft is not None,
        prize_placings=prize_placings(event.prizes, answer["standings"], final=bool(answer["complete"])),
        acknowledge_form=AcknowledgeWarningForm() if writable else None,
        without_pin=selectors.players_without_pin(event) if writable else {},
        cards_to_print=len(selectors.cards_to_print(event)) if writable else 0,
        is_organiser=actor_for(request).is_organiser,
        check_in=check_in,
    )
    return render(request, "tournaments/event.html", context)


def _next_step(event: Event, answer: dict, rounds: list[dict], open_rows: list[dict], entries: int,
               check_in: dict | None = None) -> dict:
    # ``open_rows``: a bracket's open matches, or a Swiss's or round robin's unfinished tables in every round.
    """What the director can do next: ``{"ready": bool, "label": button text, "why": why not yet}``."""
    if event.status in (Event.Status.COMPLETE, Event.Status.CANCELLED):
        return {"ready": False, "label": "", "why": ""}
    if answer.get("pairing_refused") and check_in is None:  # no pairing keeps every "never" pair apart
        said = "; ".join(answer["pairing_refused"])
        return {"ready": False, "label": "", "why": f"{said[:1].upper()}{said[1:]}. Change the pairings to avoid "
                                                    "(on the entries page), then pair."}
    if event.status == Event.Status.REGISTRATION:
        start = "Start the bracket" if event.is_elimination else "Pair round 1"
        if check_in is not None:  # round 1 pairs only those checked in
            ready = check_in["here"] >= 2
            return {"ready": ready, "label": f"{start} ({check_in['here']} checked in)",
                    "why": "" if ready else f"Check in at least two players ({check_in['here']} so far)."}
        label = f"{start} ({entries} entries)"
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
    if not open_rows:
        return {"ready": False, "label": "", "why": f"Round {last or 1} is being played. Pair the next round "
                                                    "when every table has a result."}
    owed = len(open_rows)
    return {"ready": False, "label": "", "why": f"{owed} table{'s' if owed != 1 else ''} still to finish: "
                                                f"{tables_in_words(open_rows)}. Pair the next round when every "
                                                "table has a result."}


@require_POST
def pair(request, pk: int):
    """Pair the next round (published at once, or a draft to swap in), or open the ready bracket matches."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "pair rounds")) is not None:
        return refused
    with sent_once(request) as fresh:
        if not fresh:
            # Sent twice: show what the first sending led to, the sheet of what it paired.
            current = selectors.current_round(event)
            if event.is_elimination or current:
                url = reverse("tournaments:sheet", args=[pk]) + ("" if event.is_elimination else f"?round={current}")
                return redirect(url)
            return redirect("tournaments:event", pk=pk)
        publish = request.POST.get("draft") != "1"
        try:
            opened = services.pair_next_round(actor=actor_for(request), event=event, publish=publish,
                                              withdraw_absent=request.POST.get("withdraw_absent") == "1")
        except Refusal as exc:
            messages.error(request, say(exc))
            return redirect("tournaments:event", pk=pk)
        if opened.round is not None and not publish:
            messages.success(request, f"Round {opened.round.number} drafted: swap pairings if you must, then "
                                      "publish it.")
            return redirect("tournaments:round", pk=pk, number=opened.round.number)
        what = (f"Round {opened.round.number}" if opened.round
                else matches_in_words(len(opened.matches), "bracket match"))
        messages.success(request, f"{what} paired: print the round sheet now, its QR links are shown once.")
        return to_sheet(request, event, opened)



@require_POST
def reset_bracket(request, pk: int):
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "reset bracket matches")) is not None:
        return refused
    with sent_once(request) as fresh:
        if not fresh:
            return redirect("tournaments:event", pk=pk)
        try:
            opened = services.reset_dependent_bracket_matches(actor=actor_for(request), event=event,
                                                              reason=request.POST.get("reason", ""))
        except Refusal as exc:
            messages.error(request, say(exc))
            return redirect("tournaments:event", pk=pk)
        names = ", ".join(m.bracket_id for m in opened.reset)
        opened_words = matches_in_words(len(opened.matches), "match") if opened.matches else "no match yet"
        messages.success(request, f"Reset {names}; opened {opened_words} in their place.")
        return to_sheet(request, event, opened)


@require_POST
def officials(request, pk: int):
    return event_form_post(
        request, pk, what="change the event's officials", form_class=OfficialsForm, not_saved="Officials not saved.",
        write=lambda actor, event, data: services.set_officials(actor=actor, event=event, **data),
        saved="Officials saved: the games being played have their new referees.")


@require_POST
def change_event(request, pk: int):
    def write(actor, event, data):
        changes = dict(data)
        if event.format != Event.Format.SWISS:
            changes.pop("rounds")
        if event.status != Event.Status.REGISTRATION:
            for option in ("check_in", "round_minutes"):  # options fixed at round 1: the form shows them only before
                changes.pop(option)
        return services.update_event(actor=actor, event=event, changes=changes)

    return event_form_post(request, pk, what="change the event", form_class=EventChangeForm, write=write,
                           saved="Saved.", not_saved="Nothing was changed.")


@require_POST
def cancel_event(request, pk: int):
    return event_form_post(
        request, pk, what="cancel the event", form_class=CancelEventForm, not_saved="Nothing was cancelled.",
        write=lambda actor, event, data: services.cancel_event(actor=actor, event=event, reason=data["reason"]),
        saved=lambda event: f"{event.name} cancelled: its games being played are closed and its table links "
                            "stopped.")


@require_POST
def acknowledge_warning(request, pk: int):
    return event_form_post(
        request, pk, what="acknowledge warnings", form_class=AcknowledgeWarningForm,
        write=lambda actor, event, data: services.acknowledge_warning(actor=actor, event=event, **data),
        saved="Warning acknowledged: spectators no longer see it.", not_saved="Nothing was acknowledged.")


@require_POST
def delete_event(request, pk: int):
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "delete the event")) is not None:
        return refused
    if request.POST.get("confirm") != "1":  # deleting cannot be undone: it is asked for twice
        messages.error(request, f"Nothing was deleted: tick the box to delete {event.name}.")
        return redirect("tournaments:event", pk=pk)
    with sent_once(request) as fresh:
        if not fresh:
            return redirect("tournaments:event_list")
        try:
            services.delete_event(actor=actor_for(request), event=event)
        except Refusal as exc:
            messages.error(request, say(exc))
            return redirect("tournaments:event", pk=pk)
        messages.success(request, f"{event.name} deleted.")
        return redirect("tournaments:event_list")


@require_POST
def knockout(request, pk: int):
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "start a knockout")) is not None:
        return refused
    form = KnockoutForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The knockout needs a number of entries (2 or more) and a format.")
        return redirect("tournaments:event", pk=pk)
    with sent_once(request) as fresh:
        if not fresh:
            return redirect("tournaments:event", pk=pk)
        try:
            made = services.create_knockout_from_standings(actor=actor_for(request), source_event=event,
                                                           **form.cleaned_data)
        except Refusal as exc:
            messages.error(request, say(exc))
            return redirect("tournaments:event", pk=pk)
        messages.success(request, f"{made.name} created, seeded from the final standings.")
        return redirect("tournaments:event", pk=made.pk)

