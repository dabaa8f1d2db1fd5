"""The notifications pages: my webhooks (add one, its secret shown once; turn one off or on, remove it, send a
test ping, see its delivery log and send a message again), and a round's emails sent from the round page.

Views parse the form, call one service, render; who may is ``notifications.policy``'s and the services' to say.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.reading import text_id
from core.refusals import Refusal
from scoring.actors import actor_for
from scoring.policy import NotAllowed
from tournaments import policy as event_policy
from tournaments import selectors as event_selectors
from tournaments.models import Event
from tournaments.views.common import event_or_404, require_director, say, sent_once

from . import payloads, selectors, services
from .models import Message, Subscription


class WebhookForm(forms.Form):
    url = forms.CharField(label="URL", max_length=500, widget=forms.URLInput(attrs={"inputmode": "url"}))
    format = forms.ChoiceField(choices=Subscription.Format.choices, initial=Subscription.Format.STANDARD)
    event = forms.TypedChoiceField(label="Event", coerce=int, required=False, empty_value=None)
    types = forms.MultipleChoiceField(choices=[(t, t) for t in payloads.TYPES], widget=forms.CheckboxSelectMultiple,
                                      initial=["round.published", "round.completed"])
    description = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, events, everything: bool, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "every event")] if everything else []
        self.fields["event"].choices = choices + [(e.pk, e.name) for e in events]
        self.fields["event"].required = not everything


class WebhookChangeForm(forms.Form):
    url = forms.CharField(label="URL", max_length=500, widget=forms.URLInput(attrs={"inputmode": "url"}))
    types = forms.MultipleChoiceField(choices=[(t, t) for t in payloads.TYPES], widget=forms.CheckboxSelectMultiple)
    description = forms.CharField(max_length=200, required=False)


def _my_events(request) -> list[Event]:
    actor = actor_for(request)
    found = event_selectors.event_list(actor)
    if actor.is_organiser:
        return list(found[:200])
    return [e for e in found[:200] if event_policy.can_direct(actor, e)]


def _refusal(form: forms.Form, exc: Exception) -> None:
    if isinstance(exc, Refusal) and not isinstance(exc, NotAllowed):
        for problem in exc.problems:
            name = (problem.field or "").split(".")[0]
            form.add_error(name if name in form.fields else None, problem.message)
    else:
        form.add_error(None, str(exc))


@login_required
def webhooks(request):
    actor = actor_for(request)
    events = _my_events(request)
    form = WebhookForm(request.POST or None, events=events, everything=actor.is_organiser)
    made = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                event = event_selectors.readable_event(actor, data["event"]) if data["event"] else None
                made = services.create_subscription(actor=actor, url=data["url"], types=data["types"], event=event,
                                                    format=data["format"], description=data["description"])
            except (Refusal, Event.DoesNotExist) as exc:
                _refusal(form, exc)
                status = 400
            else:
                form = WebhookForm(events=events, everything=actor.is_organiser)
        else:
            status = 400
    return render(request, "notifications/webhooks.html",
                  {"form": form, "made": made, "subscriptions": selectors.subscriptions(request.user)}, status=status)


@login_required
def webhook(request, pk: int):
    try:
        mine = selectors.subscription(request.user, pk)
    except Subscription.DoesNotExist:
        raise Http404("no such webhook of yours") from None
    change = WebhookChangeForm(initial={"url": mine.url, "types": mine.types, "description": mine.description})
    if request.method == "POST" and request.POST.get("action") == "change":
        change = WebhookChangeForm(request.POST)
        if change.is_valid():
            try:
                services.update_subscription(actor=actor_for(request), subscription=mine, values=change.cleaned_data)
            except Refusal as exc:
                _refusal(change, exc)
            else:
                messages.success(request, "Changed.")
                return redirect("notifications:webhook", pk=pk)
        return render(request, "notifications/webhook.html",
                      {"webhook": mine, "deliveries": selectors.deliveries(mine), "change": change}, status=400)
    if request.method == "POST":
        actor = actor_for(request)
        action = request.POST.get("action")
        try:
            if action == "ping":
                services.send_ping(actor=actor, subscription=mine)
                messages.success(request, "A ping is on its way: its answer shows below in a moment.")
            elif action in ("on", "off"):
                services.update_subscription(actor=actor, subscription=mine, values={"active": action == "on"})
                messages.success(request, f"Turned {action}.")
            elif action == "delete":
                services.delete_subscription(actor=actor, subscription=mine)
                messages.success(request, f"Removed the webhook to {mine.url}.")
                return redirect("notifications:webhooks")
            elif action == "redeliver":
                message = Message.objects.filter(subscription=mine,
                                                 pk=text_id(request.POST.get("message")) or 0).first()
                if message is None:
                    raise Refusal.one("message", "no such message of this webhook")
                services.redeliver(actor=actor, message=message)
                messages.success(request, f"Sending {message.type} again.")
        except Refusal as exc:
            messages.error(request, say(exc))
        return redirect("notifications:webhook", pk=pk)
    return render(request, "notifications/webhook.html",
                  {"webhook": mine, "deliveries": selectors.deliveries(mine), "change": change})


@require_POST
def round_email(request, pk: int, number: int):
    event = event_or_404(request, pk)
    if (refused := require_director(request, event, "email its players")) is not None:
        return refused
    what = request.POST.get("what", "pairings")
    with sent_once(request) as fresh:
        if fresh:
            try:
                done = services.email_round(actor=actor_for(request), event=event, number=number, what=what)
            except Refusal as exc:
                messages.error(request, say(exc))
            else:
                said = f"{done['queued']} emails on their way"
                if done["suppressed"]:
                    said += f"; {done['suppressed']} not sent (those addresses bounced before)"
                if done["without_address"]:
                    said += f"; {done['without_address']} players have no address"
                messages.success(request, said + ".")
    return redirect("tournaments:round", pk=pk, number=number)
