"""The pages of players signing up themselves: an event's sign-up page (no sign-in; a private event's only with
the key its directors share) and each player's own page (its link is the only credential): where the
sign-up stands, and withdrawing. The directors' list of sign-ups is on the entries page.

They parse the form, call one service, render."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.refusals import Refusal
from scoring.actors import actor_for
from tournaments import policy, selectors, services
from tournaments.models import Event, Registration

from ..forms import RegistrationForm
from .common import event_form_post, event_or_404, registration_or_404, require_director, say, sent_once

FIELDS = ("name", "email", "club")  # kept on a refused form; the PINs are typed again


def _sign_up_event(request, pk: int) -> tuple[Event, str]:
    """The event (readable, or private with its key) and the key to carry on, else a 404."""
    key = request.GET.get("key", "") or request.POST.get("key", "")
    try:
        event = selectors.sign_up_event(actor_for(request), pk, key)
    except Event.DoesNotExist:
        raise Http404("no such event, or it is private") from None
    return event, "" if policy.can_read(actor_for(request), event) else key


def register(request, pk: int):
    """``/events/<id>/register/``: name, email, club, a PIN typed twice (optional); then the player's own page."""
    event, key = _sign_up_event(request, pk)
    closed = services.closed_because(event)
    values = {field: request.POST.get(field, "") for field in FIELDS}
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST" and not closed:
        try:
            signed = services.register(actor=actor_for(request), event=event, name=values["name"],
                                       email=values["email"], club=values["club"], pin=request.POST.get("pin", ""),
                                       pin_again=request.POST.get("pin_again", ""),
                                       honeypot=request.POST.get("website", ""))
        except services.NotAllowed as exc:
            errors = {"pin" if "PIN" in str(exc) else "event": say(exc)}
            status = 429 if isinstance(exc, services.TooManySignUps) else 400
        except Refusal as exc:
            errors = {p.field or "event": p.message[:1].upper() + p.message[1:] for p in exc.problems}
            status = 400
        else:
            return redirect("tournaments:my_registration", token=signed.token)
    elif request.method == "POST":
        status = 400
    entered = selectors.registrations(event)
    return render(request, "tournaments/register.html", {
        "event": event, "key": key, "closed": closed, "values": values, "errors": errors,
        "entered": sum(r.status == "entered" for r, _ in entered), "waiting": sum(p is not None for _, p in entered),
    }, status=status)


def my_registration(request, token: str):
    """A player's own page: where the sign-up stands (the place in the queue), and withdrawing (ticked)."""
    registration = registration_or_404(token)
    if request.method == "POST":
        if request.POST.get("confirm") != "1":
            messages.error(request, "Nothing changed: tick the box to withdraw.")
        else:
            try:
                services.withdraw(registration=registration)
            except Refusal as exc:
                messages.error(request, f"Nothing changed: {say(exc)}.")
            else:
                messages.success(request, f"You have withdrawn from {registration.event.name}.")
        return redirect("tournaments:my_registration", token=token)
    event = registration.event
    return render(request, "tournaments/my_registration.html", {
        "registration": registration, "event": event, "position": services.position_of(registration),
        "byes": selectors.requested_byes(registration.entry_id), "swiss": event.format == Event.Format.SWISS,
        "token": token, "paired": selectors.rounds_paired(event),
        "bye_points": event.match_points.get("requested_bye", event.match_points.get("draw", 1)),
        "link": request.build_absolute_uri(reverse("tournaments:my_registration", args=[token])),
        "event_url": reverse("tournaments:event", args=[event.pk]) if event.is_public else "",
    })


@require_POST
def registration_settings(request, pk: int):
    """The event page's registration form: open or close sign-ups, the cap, the waiting list, the closing time."""
    return event_form_post(
        request, pk, what="change the registration", form_class=RegistrationForm, not_saved="Nothing was changed.",
        write=lambda actor, event, data: services.update_event(actor=actor, event=event, changes=dict(data)),
        saved=lambda event: f"Registration saved: sign-ups are {'open' if event.registration_open else 'closed'}.")


@require_POST
def enter_waitlisted(request, pk: int, registration_id: int):
    """The entries page's "Enter" beside a waitlisted sign-up."""
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "enter waitlisted players")) is not None:
        return refused
    registration = Registration.objects.filter(pk=registration_id, event=event).first()
    if registration is None:
        raise Http404("no such sign-up")
    with sent_once(request) as fresh:
        if not fresh:
            return redirect("tournaments:entries", pk=pk)
        try:
            services.enter_from_waitlist(actor=actor_for(request), registration=registration)
        except Refusal as exc:
            messages.error(request, f"Nothing changed: {say(exc)}.")
        else:
            messages.success(request, f"{registration.player} entered from the waiting list.")
    return redirect("tournaments:entries", pk=pk)
