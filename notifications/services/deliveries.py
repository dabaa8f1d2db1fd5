"""The one delivery queue: a message owed to each subscription that asks for its type, and every attempt at
it, on the schedule ``WEBHOOK_RETRY_SCHEDULE`` (the delay before each attempt, the first's included; Svix's
by default: now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).

Only a 2xx counts; a redirect is not followed; ``410 Gone`` turns the subscription off at once; a ``429``'s
``Retry-After`` is waited at least; a subscription failing for 5 days is turned off and its owner emailed.
Each message keeps one ``webhook-id`` over all its attempts; each attempt signs anew with its own timestamp.

Attempts run off the request that caused them: a queued job on PostgreSQL, else the process's background
thread (``core.background``), once the transaction commits. An attempt first claims its message (a lease:
a second copy of the job finds it taken and does nothing), posts with no transaction open, then records the
answer. ``sweep`` re-owes what a lost job or a restarted process left due, and forgets attempts after 30 days.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from procrastinate import RetryStrategy

from core import jobs
from tournaments.models import Event

from .. import payloads, safe_http, signing
from ..models import Attempt, Message, Subscription
from ..policy import may_hold
from .emails import tell_owner_disabled

log = logging.getLogger(__name__)

KEEP_DAYS = 30
DISABLE_AFTER = timedelta(days=5)
LEASE_SECONDS = 60


def retry_schedule() -> list[int]:
    return list(settings.WEBHOOK_RETRY_SCHEDULE) or [0]


def wanted_by(type_: str, event: Event | None, since: datetime | None = None) -> list[Subscription]:
    """The active subscriptions asking for ``type_`` of ``event`` (theirs or every event's) whose owners may
    still hold them; ``since``: only those made before it happened."""
    found = Subscription.objects.filter(active=True).select_related("owner", "event")
    if since is not None:
        found = found.filter(created_at__lte=since)
    found = found.filter(Q(event=event) | Q(event__isnull=True)) if event is not None else found.filter(
        event__isnull=True)
    return [s for s in found if type_ in s.types and may_hold(s)]


def publish(type_: str, data: dict[str, Any], *, event: Event | None, since: datetime | None = None) -> int:
    """Owe a message of ``type_`` to every subscription that asks for it (made before ``since``, when what is
    told happened then); how many were owed."""
    at = timezone.now()
    count = 0
    for subscription in wanted_by(type_, event, since):
        if owe(subscription, type_, dict(data), at) is not None:
            count += 1
    return count


def owe(subscription: Subscription, type_: str, data: dict[str, Any], at: datetime) -> Message | None:
    """One message for one subscription, in its format, attempted once this commits (None: nothing to say
    in a chat channel)."""
    if subscription.format == Subscription.Format.STANDARD:
        body = payloads.envelope(type_, data, at)
    else:
        body = payloads.chat_body(subscription.format, type_, data)
        if body is None:
            return None
    delay = retry_schedule()[0]
    message = Message.objects.create(subscription=subscription, msg_id=signing.new_message_id(), type=type_,
                                     body=body, next_attempt_at=at + timedelta(seconds=delay))
    attempt_soon(message.pk, delay)
    return message


def attempt_soon(message_id: int, delay: float) -> None:
    """The next attempt at this message ``delay`` seconds after this transaction commits (see the module)."""
    jobs.off_request(deliver_webhook, delay=delay, message_id=message_id)


@jobs.app.task(name="notifications.deliver_webhook", retry=RetryStrategy(max_attempts=3, wait=5))
def deliver_webhook(message_id: int) -> None:
    """The job: one attempt at one message (a second copy finds it claimed, or done, and does nothing)."""
    attempt(message_id)


@jobs.app.periodic(cron="* * * * *")
@jobs.app.task(name="notifications.sweep", queueing_lock="notifications.sweep")
def sweep_job(timestamp: int) -> None:
    sweep()


def _claim(message_id: int) -> tuple[Message, int] | None:
    with transaction.atomic():
        message = (Message.objects.select_for_update(of=("self",)).select_related("subscription", "subscription__owner",
                                                                      "subscription__event")
                   .filter(pk=message_id, status=Message.Status.PENDING).first())
        now = timezone.now()
        if message is None or (message.next_attempt_at is not None and message.next_attempt_at > now):
            return None
        subscription = message.subscription
        if not subscription.active or not may_hold(subscription):
            message.status, message.next_attempt_at = Message.Status.DROPPED, None
            message.save(update_fields=["status", "next_attempt_at"])
            return None
        message.attempts += 1
        message.next_attempt_at = now + timedelta(seconds=safe_http.TIMEOUT_SECONDS + LEASE_SECONDS)
        message.save(update_fields=["attempts", "next_attempt_at"])
        return message, message.attempts


def attempt(message_id: int) -> Attempt | None:
    """One attempt at the message if it is due; the attempt recorded (None: nothing was due)."""
    claimed = _claim(message_id)
    if claimed is None:
        return None
    message, number = claimed
    subscription = message.subscription
    stamp = int(timezone.now().timestamp())
    headers = signing.headers(subscription.secret, message.msg_id, stamp, message.body)
    try:
        answer = safe_http.post(subscription.url, message.body.encode(), headers)
    except safe_http.Refused as exc:
        answer = safe_http.Answer(error=str(exc)[:300])
    return _record(message.pk, number, answer)


def _retry_after(answer: safe_http.Answer) -> int:
    raw = answer.headers.get("retry-after", "")
    try:
        return max(0, min(int(float(raw)), 36000))
    except ValueError:
        return 0


@transaction.atomic
def _record(message_id: int, number: int, answer: safe_http.Answer) -> Attempt:
    message = Message.objects.select_for_update(of=("self",)).get(pk=message_id)
    subscription = Subscription.objects.select_for_update().get(pk=message.subscription_id)
    now = timezone.now()
    schedule = retry_schedule()
    next_at = None
    if answer.ok:
        message.status = Message.Status.DELIVERED
        if subscription.failing_since is not None:
            subscription.failing_since = None
            subscription.save(update_fields=["failing_since"])
    elif answer.code == 410:
        message.status = Message.Status.FAILED
        _disable(subscription, "the receiver answered 410 Gone")
    else:
        if subscription.failing_since is None:
            subscription.failing_since = now
            subscription.save(update_fields=["failing_since"])
        if now - subscription.failing_since >= DISABLE_AFTER:
            message.status = Message.Status.FAILED
            _disable(subscription, f"failing since {subscription.failing_since:%Y-%m-%d %H:%M} UTC")
        elif number < len(schedule):
            delay = schedule[number]
            if answer.code == 429:
                delay = max(delay, _retry_after(answer))
            next_at = now + timedelta(seconds=delay)
            attempt_soon(message.pk, delay)
        else:
            message.status = Message.Status.FAILED
    message.next_attempt_at = next_at
    message.save(update_fields=["status", "next_attempt_at"])
    return Attempt.objects.create(message=message, number=number, at=now, next_attempt_at=next_at,
                                  status=Attempt.Status.SUCCESS if answer.ok else Attempt.Status.FAILURE,
                                  code=answer.code, duration_ms=answer.duration_ms, error=answer.error)


def _disable(subscription: Subscription, reason: str) -> None:
    if not subscription.active:
        return
    subscription.active, subscription.disabled_reason = False, reason[:200]
    subscription.save(update_fields=["active", "disabled_reason"])
    Message.objects.filter(subscription=subscription, status=Message.Status.PENDING).update(
        status=Message.Status.DROPPED, next_attempt_at=None)
    tell_owner_disabled(subscription, reason)


def sweep() -> dict[str, int]:
    """Attempt every message left due (its job lost, its lease run out), and forget what is 30 days old."""
    now = timezone.now()
    due = list(Message.objects.filter(status=Message.Status.PENDING, next_attempt_at__lte=now)
               .values_list("pk", flat=True)[:1000])
    for pk in due:
        attempt_soon(pk, 0)
    old = now - timedelta(days=KEEP_DAYS)
    forgotten, _ = Attempt.objects.filter(at__lt=old).delete()
    Message.objects.filter(created_at__lt=old).exclude(status=Message.Status.PENDING).delete()
    return {"due": len(due), "forgotten": forgotten}
