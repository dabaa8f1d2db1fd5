"""What the event pages share: the event read or a 404, who may direct it, the director-only guard,
the one-time key of a director's form, refusals in words, the tabs and the page context.

It must not render a page of its own, nor decide anything a service decides."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse

from core.refusals import Refusal
from scoring.actors import actor_for
from scoring.forms import conventions_in_words
from tournaments import policy, selectors, services
from tournaments.engine import EventError
from tournaments.models import Event

from ..forms import place_errors

SESSION_TOKENS = "event_table_links"


# ---------------------------------------------------------------------------------------------------
# Helpers


def event_or_404(request, pk: int) -> Event:
    try:
        return selectors.readable_event(actor_for(request), pk)
    except Event.DoesNotExist:
        raise Http404("no such event, or it is private") from None


def registration_or_404(token: str):
    """The sign-up a player's own link names, or a 404 (the link is the only key to it)."""
    registration = services.registration_by_token(token)
    if registration is None:
        raise Http404("no sign-up has this link")
    return registration


def may_direct(request, event: Event) -> bool:
    return policy.can_direct(actor_for(request), event)


def require_director(request, event: Event, what: str):
    """Director-only pages: sign in first; a signed-in non-director is refused in words."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not may_direct(request, event):
        raise PermissionDenied(f"only an organiser or a director of {event.name} may {what}")
    return None


def once_key() -> str:
    return secrets.token_urlsafe(16)


@contextmanager
def sent_once(request) -> Iterator[bool]:
    """A director's form sent twice (a double tap, Back then send) does nothing the second time. The ``with``
    body is the form's write: it runs in one transaction with the claim of the form's one-time key, so a write
    that raises leaves the key free for the retry. Yields False (having said so) when the form was already
    sent: the body then only answers."""
    with ExitStack() as stack:
        try:
            stack.enter_context(services.form_sent_once(actor=actor_for(request),
                                                        once_key=request.POST.get("once", "")))
        except services.AlreadySent as exc:
            messages.info(request, exc.problems[0].message[:1].upper() + exc.problems[0].message[1:] + ".")
            yield False
        else:
            yield True


def event_form_post(request, pk: int, *, what: str, form_class, write: Callable[[Any, Event, dict], Any],
                    saved: str | Callable[[Any], str], not_saved: str):
    """A director's form on the event page, posted: the event (or a 404), its director (or a refusal), the form
    read (its problems in one message), the write done once (``sent_once``: its key claimed in the write's own
    transaction) by ``write(actor, event, cleaned_data)``, and back to the event page saying what was done
    (``saved``, words or words made of the write's result) or why nothing was (after ``not_saved``)."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, what)) is not None:
        return refused
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, f"{not_saved} {invalid_form_in_words(form)}")
        return redirect("tournaments:event", pk=pk)
    with sent_once(request) as fresh:
        if fresh:
            try:
                done = write(actor_for(request), event, form.cleaned_data)
            except Refusal as exc:
                messages.error(request, f"{not_saved} {say(exc)}")
            else:
                messages.success(request, saved(done) if callable(saved) else saved)
    return redirect("tournaments:event", pk=pk)


def say(error: Refusal | EventError) -> str:
    """A refusal's words for a page's message, capitalised (each problem's message; never its field)."""
    text = "; ".join(p.message for p in error.problems)
    return text[:1].upper() + text[1:]


def tabs(event: Event, current: str) -> list[dict[str, Any]]:
    tabs = [("event", "Event"), ("pairings", "Pairings"), ("standings", "Standings")]
    if event.is_elimination:
        tabs.append(("bracket", "Bracket"))
    tabs.append(("entries", "Entries"))
    return [{"name": name, "label": label, "url": reverse(f"tournaments:{name}", args=[event.pk]),
             "current": name == current} for name, label in tabs]


def page_context(request, event: Event, current: str, **extra) -> dict[str, Any]:
    # ``can_direct``: the director's forms are shown; a cancelled event's pages show none (nothing is written to it).
    can_direct = event.status != Event.Status.CANCELLED and may_direct(request, event)
    return {"event": event, "tabs": tabs(event, current), "can_direct": can_direct,
            "conventions": conventions_in_words(event.conventions), "once": once_key(), **extra}


def invalid_form_in_words(form) -> str:
    """A refused form's errors as one line for a message: "Rounds: Enter a whole number." per field."""
    return "; ".join(f"{form.fields[name].label or name.title()}: {' '.join(errors)}"
                     for name, errors in form.errors.items())


def form_errors(form, error, aliases: dict[str, str]) -> None:
    if isinstance(error, policy.NotAllowed):
        form.add_error(None, str(error))
        return
    for message in place_errors(form, error, aliases):
        form.add_error(None, message)


def to_sheet(request, event: Event, opened: services.Opened, *, only_match: int | None = None):
    """The round sheet of what was just opened. The tokens exist only now (their digests are stored): the
    sheet shows them once, then forgets them. ``only_match``: one table's new link, its card alone."""
    request.session[SESSION_TOKENS] = {"event": event.pk, "tokens": {str(k): v for k, v in opened.tokens.items()}}
    url = reverse("tournaments:sheet", args=[event.pk])
    query = {"round": opened.round.number} if opened.round is not None else {}
    if only_match is not None:
        query["match"] = only_match
    return redirect(url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""))

