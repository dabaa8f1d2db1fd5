"""An event's entries page: the list, and for its directors adding (one, by name, a pasted list),
seeding (by hand, by rating, at random) and drops.

Views parse the form, call one service, render; they must not pair, score or decide roles themselves."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render

from core.reading import NotANumber, text_id, text_number
from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import policy, selectors, services
from tournaments.models import Entry, Event

from ..forms import AddEntryForm, DropForm, PasteEntriesForm
from .common import event_or_404, form_errors, may_direct, page_context, require_director, say, sent_once

# ---------------------------------------------------------------------------------------------------
# Entries


def entries_page(request, pk: int):
    event = event_or_404(request, pk)
    can_direct = event.status != Event.Status.CANCELLED and may_direct(request, event)  # no form once cancelled
    add_form, paste_form = AddEntryForm(prefix="add", event=event), PasteEntriesForm(prefix="paste")
    status = 200
    if request.method == "POST":
        if (refused := require_director(request, event, "change the entries")) is not None:
            return refused
        with sent_once(request) as fresh:
            if not fresh:
                return redirect("tournaments:entries", pk=pk)
            action = request.POST.get("action")
            if action == "add":
                add_form = AddEntryForm(request.POST, prefix="add", event=event)
                if add_form.is_valid():
                    data = add_form.cleaned_data
                    try:
                        entry = services.add_entry(actor=actor_for(request), event=event, player=data["player"],
                                                   name=data["name"], club=data["club"], rating=data["rating"])
                    except Refusal as exc:
                        form_errors(add_form, exc, {"player": "player", "name": "name"})
                    else:
                        messages.success(request, f"{entry.player} entered.")
                        return redirect("tournaments:entries", pk=pk)
            elif action == "paste":
                paste_form = PasteEntriesForm(request.POST, prefix="paste")
                if paste_form.is_valid():
                    try:
                        made = services.add_entries_from_text(actor=actor_for(request), event=event,
                                                              **paste_form.cleaned_data)
                    except Refusal as exc:
                        form_errors(paste_form, exc, {"lines": "text"})
                    else:
                        new = [e.player.display_name for e in made if getattr(e, "player_is_new", False)]
                        messages.success(request, f"{len(made)} entries added" + (
                            f"; {len(new)} new player{'s' if len(new) != 1 else ''} in the club: {', '.join(new)}."
                            if new else "."))
                        return redirect("tournaments:entries", pk=pk)
            elif action in ("seed", "drop", "undo-drop", "remove"):
                return _seed_or_drop(request, event, action)
            status = 400
    rows = selectors.entries(event, reasons=policy.is_official(actor_for(request), event))
    return render(request, "tournaments/entries.html", page_context(
        request, event, "entries", rows=rows, add_form=add_form, paste_form=paste_form,
        drop_form=DropForm(), can_direct=can_direct, registration=event.status == Event.Status.REGISTRATION,
        without_pin=selectors.players_without_pin(event) if can_direct else {},
        late_swiss=event.format == Event.Format.SWISS and event.status == Event.Status.RUNNING,
        sign_ups=selectors.registrations(event) if can_direct else [],
    ), status=status)




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
                                       "openskill": "Seeded by OpenSkill rating (players never rated last).",
                                       "random": "Seeded at random (the order is kept)."}.get(method, "Seeded."))
        elif action == "undo-drop":
            entry = Entry.objects.select_related("player").get(pk=text_id(request.POST.get("entry")), event=event)
            services.undo_drop(actor=actor, entry=entry)
            messages.success(request, f"{entry.player}'s drop undone: in again, paired from the next round.")
        elif action == "remove":
            entry = Entry.objects.select_related("player").get(pk=text_id(request.POST.get("entry")), event=event)
            services.remove_entry(actor=actor, entry=entry)
            messages.success(request, f"{entry.player} removed from the entries.")
        else:
            form = DropForm(request.POST)
            entry = Entry.objects.select_related("player").get(pk=text_id(request.POST.get("entry")), event=event)
            if not form.is_valid():
                raise Refusal.one("after_round", "the last round played is a whole number from 0")
            services.drop_entry(actor=actor, entry=entry, after_round=form.cleaned_data["after_round"],
                                reason=form.cleaned_data["reason"])
            messages.success(request, f"{entry.player} dropped: not paired again, results kept.")
    except Refusal as exc:
        messages.error(request, say(exc))
    except (Entry.DoesNotExist, ValueError):
        messages.error(request, "That entry is not in this event.")
    return redirect("tournaments:entries", pk=event.pk)


def _manual_order(post) -> list[int]:
    """Entry ids ordered by the seed typed beside each (blank: unseeded); two entries given the same
    seed keep the order of the list."""
    typed = []
    for key, value in post.items():
        entry = text_id(key[5:]) if key.startswith("seed-") else None
        if entry is None or not value.strip():
            continue
        try:
            typed.append((text_number(value, low=1), entry))
        except NotANumber as exc:
            raise Refusal.one("order", f"a seed is {exc}") from None
    if not typed:
        raise Refusal.one("order", "type a seed beside at least one entry")
    return [pk for _, pk in sorted(typed)]

