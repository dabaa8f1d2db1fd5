"""Reads of the notifications app, each for its owner only: a user's webhooks, one of them (404 for anyone
else's), its delivery log (the latest messages with every attempt, two queries), an event's emails."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from .models import Attempt, Email, Message, Subscription

LOG_LENGTH = 100


def subscriptions(user) -> QuerySet[Subscription]:
    return Subscription.objects.filter(owner=user).select_related("event").order_by("pk")


def subscription(user, pk: int) -> Subscription:
    """The user's own subscription (``Subscription.DoesNotExist``, a 404, for anyone else's)."""
    return Subscription.objects.select_related("event").get(pk=pk, owner=user)


def deliveries(subscription: Subscription, limit: int = LOG_LENGTH) -> list[Message]:
    """The latest messages, newest first, each with its attempts (``tries``) in order: two queries."""
    return list(Message.objects.filter(subscription=subscription).order_by("-pk")
                .prefetch_related(Prefetch("tries", queryset=Attempt.objects.order_by("pk")))[:limit])


def delivery(subscription: Subscription, pk: int) -> Message:
    return Message.objects.get(pk=pk, subscription=subscription)


def round_emails(event_id: int, number: int) -> list[dict]:
    """A round's pairings emails (and, for the event, its final standings'), oldest first: to whom, their
    status and why it failed (one query). Addresses: for the event's directors only (the caller checks)."""
    found = Email.objects.filter(event_id=event_id, kind__in=[Email.Kind.PAIRINGS, Email.Kind.STANDINGS])
    found = found.filter(round_number=number) | found.filter(kind=Email.Kind.STANDINGS)
    return list(found.order_by("pk").values("id", "kind", "to", "status", "error", "created_at", "sent_at"))
