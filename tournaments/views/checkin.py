"""Check-in pages: the directors' list (one tap per player, who is missing, the venue's QR code) and the
players' own page the venue QR code opens (pick your name, type your PIN or choose one).

Views parse the form, call one service, render; they must not check anyone in themselves nor decide
who may: ``services.checkin`` does."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from core.reading import text_id
from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import policy, services
from tournaments.models import Entry, Event

from .common import event_or_404, page_context, require_director, say


def _entries(event: Event) -> list[Entry]:
    return list(Entry.objects.filter(event=event, dropped_after_round__isnull=True).select_related("player")
                .order_by("player__display_name", "pk"))


def _next_missing(event: Event, entry: Entry) -> int | None:
    """The entry listed after ``entry`` among those not here yet (the list's order), else the one before it."""
    missing = [e.pk for e in _entries(event) if e.checked_in_at is None]
    if entry.pk not in missing:
        return entry.pk
    at = missing.index(entry.pk)
    rest = missing[at + 1:] or missing[:at][-1:]
    return rest[0] if rest else None


def check_in_page(request, pk: int):
    """A director's list: every entry still in, the missing first, one tap to check in or out."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "check players in")) is not None:
        return refused
    if request.method == "POST":
        entry_id = text_id(request.POST.get("entry"))
        entry = Entry.objects.select_related("player").filter(pk=entry_id, event=event).first()
        if entry is None:
            messages.error(request, "That entry is not in this event.")
            return redirect("tournaments:check_in", pk=pk)
        here = request.POST.get("action") != "out"
        # Checking in moves the name to the "Here" list: the page comes back at the next name still missing
        # (under the thumb), not at the one just checked in.
        after = _next_missing(event, entry) if here else entry.pk
        try:
            services.check_in_entry(actor=actor_for(request), entry=entry, here=here)
        except Refusal as exc:
            messages.error(request, say(exc))
            after = entry.pk
        anchor = f"#entry-{after}" if after else "#missing-title"
        return redirect(reverse("tournaments:check_in", args=[pk]) + anchor)
    rows = _entries(event)
    missing = [e for e in rows if e.checked_in_at is None]
    here = [e for e in rows if e.checked_in_at is not None]
    venue_url = request.build_absolute_uri(reverse("tournaments:self_check_in", args=[pk, services.venue_code(event)]))
    return render(request, "tournaments/check_in.html", page_context(
        request, event, "entries", missing=missing, here=here, total=len(rows), venue_url=venue_url,
        venue_qr=segno.make(venue_url, error="m").svg_inline(scale=4, omitsize=True),
        open=event.check_in and event.status == Event.Status.REGISTRATION,
    ))


def self_check_in(request, pk: int, code: str):
    """The page the venue's QR code opens: no sign-in; the code in its address is the venue's."""
    event = Event.objects.filter(pk=pk).first()
    if event is None or not services.venue_code_matches(event, code):
        raise Http404("no such check-in: scan the QR code at the venue again")
    open_now = event.check_in and event.status == Event.Status.REGISTRATION
    rows = _entries(event)
    chosen = None
    if (picked := text_id(request.POST.get("entry") or request.GET.get("entry"))) is not None:
        chosen = next((e for e in rows if e.pk == picked), None)
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST" and open_now and chosen is not None:
        try:
            done = services.self_check_in(
                actor=actor_for(request), event=event, code=code, entry=chosen, pin=request.POST.get("pin", ""),
                new_pin=request.POST.get("new_pin", ""), new_pin_again=request.POST.get("new_pin_again", ""))
        except policy.NotAllowed as exc:
            errors = {"pin": say(exc)}
            status = 400
        except Refusal as exc:
            errors = {p.field or "pin": p.message[:1].upper() + p.message[1:] for p in exc.problems}
            status = 400
        else:
            return render(request, "tournaments/self_check_in.html", {
                "event": event, "done": done, "pairings": reverse("tournaments:pairings", args=[pk])
                if event.is_public else ""})
    elif request.method == "POST":
        status = 400
        errors = {"entry": "Choose your name"} if open_now else {}
    return render(request, "tournaments/self_check_in.html", {
        "event": event, "rows": rows, "chosen": chosen, "errors": errors, "open": open_now,
        "here": sum(e.checked_in_at is not None for e in rows), "code": code,
    }, status=status)
