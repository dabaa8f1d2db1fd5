"""The pages of what players and directors ask of the pairing: the event's "Pairings to avoid" page (its directors:
the pairs, adding and removing one, and the options: byes a player may ask for, same club kept apart), a director
asking a bye for an entry on the entry's page, and the player asking one on their own sign-up page.

They parse the form, call one service, redirect with what was done (or why nothing was)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import selectors, services
from tournaments.models import AvoidPair, Entry, Event

from .common import event_or_404, page_context, registration_or_404, require_director, say, sent_once


def _whole(text: str) -> int | str:
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 5 else text


def avoid_page(request, pk: int):
    """``/events/<id>/avoid/``: the pairs to avoid, a form for another, and the options (its directors)."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "set pairs to avoid")) is not None:
        return refused
    if request.method == "POST":
        with sent_once(request) as fresh:
            if fresh:
                _avoid_post(request, event)
        return redirect("tournaments:avoid", pk=pk)
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("player__display_name", "pk"))
    return render(request, "tournaments/avoid.html", page_context(
        request, event, "entries", pairs=selectors.avoid_pairs(event), entries=entries,
        fixed=event.format == Event.Format.ROUND_ROBIN
        or (event.is_elimination and event.status != Event.Status.REGISTRATION)))


def _avoid_post(request, event: Event) -> None:
    actor = actor_for(request)
    action = request.POST.get("action", "")
    try:
        if action == "remove":
            pair = AvoidPair.objects.filter(event=event, pk=_whole(request.POST.get("pair", "")) or 0).first()
            if pair is None:
                raise Http404("no such pair")
            services.remove_avoid_pair(actor=actor, pair=pair)
            messages.success(request, "The pair was removed.")
        elif action == "options":
            changes = {"max_requested_byes": _whole(request.POST.get("max_requested_byes", "")),
                       "avoid_same_club_rounds": _whole(request.POST.get("avoid_same_club_rounds", ""))}
            services.update_event(actor=actor, event=event, changes=changes)
            messages.success(request, "Saved.")
        else:
            entries = [_whole(request.POST.get("first", "")), _whole(request.POST.get("second", ""))]
            pair = services.add_avoid_pair(actor=actor, event=event, entries=entries,
                                           strength=request.POST.get("strength", ""))
            how = "never paired" if pair.strength == "never" else "kept apart where the scores allow"
            messages.success(request, f"{pair.first.player} and {pair.second.player}: {how}.")
    except Refusal as exc:
        messages.error(request, f"Nothing changed: {say(exc)}.")


def _entry_write(request, pk: int, entry_id: int, write: Callable[[Any, Event, Entry], str]):
    """A director's write about one entry from its page: the event's director (or the refusal), the entry (or a
    404), the write done once (``sent_once``), what it did (the words ``write`` returns) or why nothing was done,
    and back to the entry's page."""
    event, entry, refused = _entry_directed(request, pk, entry_id)
    if refused is not None:
        return refused
    with sent_once(request) as fresh:
        if fresh:
            try:
                done = write(actor_for(request), event, entry)
            except Refusal as exc:
                messages.error(request, f"Nothing changed: {say(exc)}.")
            else:
                messages.success(request, done)
    return redirect("tournaments:entry", pk=pk, entry_id=entry_id)


def _entry_directed(request, pk: int, entry_id: int):
    """(event, entry, None) for a director of the event; (event, None, the refusal) for anyone else; a 404
    for an entry that is not the event's."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "ask for byes")) is not None:
        return event, None, refused
    entry = Entry.objects.filter(event=event, pk=entry_id).select_related("player").first()
    if entry is None:
        raise Http404("no such entry in this event")
    return event, entry, None


@require_POST
def entry_bye(request, pk: int, entry_id: int):
    """The entry's page: a director asks a bye for this entry in a future Swiss round."""
    def ask(actor, event: Event, entry: Entry) -> str:
        bye = services.request_bye(actor=actor, event=event, entry=entry, round=_whole(request.POST.get("round", "")))
        return f"{entry.player} sits out round {bye.round}."

    return _entry_write(request, pk, entry_id, ask)


@require_POST
def my_bye(request, token: str):
    """The player's own page: ask to sit out a future Swiss round."""
    registration = registration_or_404(token)
    try:
        bye = services.request_my_bye(registration=registration, round=_whole(request.POST.get("round", "")))
    except Refusal as exc:
        messages.error(request, f"Nothing changed: {say(exc)}.")
    else:
        points = registration.event.match_points
        scored = points.get("requested_bye", points.get("draw", 1))
        messages.success(request, f"You sit out round {bye.round}: it scores {scored} match "
                                  f"point{'s' if scored != 1 else ''}, as the event's rules say.")
    return redirect("tournaments:my_registration", token=token)


@require_POST
def cancel_entry_bye(request, pk: int, entry_id: int, number: int):
    """The entry's page: a director takes back a requested bye, before its round is paired."""
    def take_back(actor, event: Event, entry: Entry) -> str:
        services.cancel_bye(actor=actor, event=event, entry=entry, round=number)
        return f"{entry.player} plays round {number} after all."

    return _entry_write(request, pk, entry_id, take_back)


@require_POST
def cancel_my_bye(request, token: str, number: int):
    """The player's own page: take back a requested bye, before its round is paired."""
    registration = registration_or_404(token)
    try:
        services.cancel_my_bye(registration=registration, round=number)
    except Refusal as exc:
        messages.error(request, f"Nothing changed: {say(exc)}.")
    else:
        messages.success(request, f"You play round {number} after all.")
    return redirect("tournaments:my_registration", token=token)
