"""Webhook subscriptions made, changed and removed by their owner (``policy`` says who may hold one), and a
``ping`` or a past message sent again on request.

The secret is made here (``whsec_`` and 32 random bytes) and returned once, by ``create_subscription``;
nothing reads it back to a person afterwards. A URL is refused when saved if it is not http(s), or is itself
an address that may not be reached; a name is checked again every time it is connected to (``safe_http``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from core.refusals import Problem, Refusal
from scoring.policy import Actor
from tournaments.models import Event

from .. import payloads, safe_http, signing
from ..models import Message, Subscription
from ..policy import require_may_subscribe
from .deliveries import attempt_soon, owe

MAX_SUBSCRIPTIONS_PER_OWNER = 50


def _problems(values: dict[str, Any], fmt: str) -> list[tuple[str | None, str]]:
    problems: list[tuple[str | None, str]] = []
    if "url" in values:
        url = values["url"]
        if not isinstance(url, str) or len(url) > 500:
            problems.append(("url", "an http or https URL of at most 500 characters"))
        else:
            try:
                if why := safe_http.literal_refused(url):
                    problems.append(("url", f"{why}: refused (WEBHOOK_ALLOW_PRIVATE is off)"))
            except safe_http.Refused as exc:
                problems.append(("url", str(exc)))
    if "types" in values:
        types = values["types"]
        allowed = payloads.CHAT_TYPES if fmt != Subscription.Format.STANDARD else payloads.TYPES
        if not isinstance(types, list) or not types:
            problems.append(("types", "at least one type: " + ", ".join(allowed)))
        else:
            for i, t in enumerate(types):
                if t not in allowed:
                    why = (f"a {fmt} channel is told only of " + ", ".join(allowed)
                           if t in payloads.TYPES else "one of " + ", ".join(allowed))
                    problems.append((f"types.{i}", f"{t!r}: {why}"))
    if "description" in values and len(values["description"] or "") > 200:
        problems.append(("description", "at most 200 characters"))
    return problems


@transaction.atomic
def create_subscription(*, actor: Actor, url: str, types: list[str], event: Event | None = None,
                        format: str = Subscription.Format.STANDARD, description: str = "") -> Subscription:
    """A new subscription, owned by ``actor``'s user; its ``secret`` is returned with it (this once)."""
    require_may_subscribe(actor, event)
    if format not in Subscription.Format.values:
        raise Refusal.one("format", "standard, discord or slack")
    problems = _problems({"url": url, "types": types, "description": description}, format)
    if Subscription.objects.filter(owner=actor.user).count() >= MAX_SUBSCRIPTIONS_PER_OWNER:
        problems.append((None, f"at most {MAX_SUBSCRIPTIONS_PER_OWNER} webhooks each: remove one first"))
    if problems:
        raise Refusal([Problem(field, message) for field, message in problems])
    return Subscription.objects.create(owner=actor.user, event=event, url=url, types=list(dict.fromkeys(types)),
                                       format=format, description=description or "", secret=signing.new_secret())


@transaction.atomic
def update_subscription(*, actor: Actor, subscription: Subscription, values: dict[str, Any]) -> Subscription:
    """Change its URL, types, description, or turn it on again (``active``: true clears why it was off) or off."""
    subscription = Subscription.objects.select_for_update().get(pk=subscription.pk, owner=actor.user)
    require_may_subscribe(actor, subscription.event)
    if problems := _problems(values, subscription.format):
        raise Refusal([Problem(field, message) for field, message in problems])
    fields = []
    for name in ("url", "types", "description"):
        if name in values:
            setattr(subscription, name, list(dict.fromkeys(values[name])) if name == "types" else values[name])
            fields.append(name)
    if "active" in values:
        subscription.active = bool(values["active"])
        subscription.disabled_reason = "" if subscription.active else "turned off by its owner"
        subscription.failing_since = None
        fields += ["active", "disabled_reason", "failing_since"]
    subscription.save(update_fields=fields)
    return subscription


@transaction.atomic
def delete_subscription(*, actor: Actor, subscription: Subscription) -> None:
    Subscription.objects.filter(pk=subscription.pk, owner=actor.user).delete()


@transaction.atomic
def send_ping(*, actor: Actor, subscription: Subscription) -> Message:
    """A ``ping`` to this subscription now (even if it does not list ``ping``), once this commits."""
    subscription = Subscription.objects.select_for_update().get(pk=subscription.pk, owner=actor.user)
    require_may_subscribe(actor, subscription.event)
    if not subscription.active:
        raise Refusal.one("active", f"this webhook is off ({subscription.disabled_reason}): turn it on first")
    data = {"subscription": subscription.pk, "event": payloads.event_ref(subscription.event)
            if subscription.event_id else None, "message": "ping from ginscore"}
    return owe(subscription, "ping", data, timezone.now())


@transaction.atomic
def redeliver(*, actor: Actor, message: Message) -> Message:
    """Send a message again now, with its own ``webhook-id`` (a receiver that already has it may skip it)."""
    message = Message.objects.select_for_update(of=("self",)).select_related("subscription").get(
        pk=message.pk, subscription__owner=actor.user)
    subscription = message.subscription
    require_may_subscribe(actor, subscription.event)
    if not subscription.active:
        raise Refusal.one("active", f"this webhook is off ({subscription.disabled_reason}): turn it on first")
    message.status, message.next_attempt_at = Message.Status.PENDING, timezone.now()
    message.save(update_fields=["status", "next_attempt_at"])
    attempt_soon(message.pk, 0)
    return message
