"""What the notifications app keeps: webhook subscriptions, each message owed to one (its ``webhook-id``, the
same on every retry) and every attempt at it; emails to players with their status, and the addresses that
bounced for good; and, per event, what has already been told (so a round is announced once).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Event, Registration


class Subscription(models.Model):
    """A webhook: where to send which types of message, in which format, for one event or (organisers) all."""

    class Format(models.TextChoices):
        STANDARD = "standard", "Standard Webhooks (signed JSON)"
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    types = models.JSONField(default=list)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.STANDARD)
    description = models.CharField(max_length=200, blank=True)
    secret = models.CharField(max_length=100)
    active = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=200, blank=True)
    failing_since = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(condition=Q(format__in=["standard", "discord", "slack"]),
                                   name="webhook_format_known"),
            models.CheckConstraint(condition=Q(active=True) | ~Q(disabled_reason=""),
                                   name="webhook_disabled_says_why"),
        ]

    def __str__(self):
        return f"{self.url} ({self.format})"


class Message(models.Model):
    """One message owed to one subscription: its body as signed, and where its delivery stands."""

    class Status(models.TextChoices):
        PENDING = "pending", "waiting for its next attempt"
        DELIVERED = "delivered", "delivered"
        FAILED = "failed", "failed every attempt"
        DROPPED = "dropped", "not sent: the subscription is disabled"

    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="messages")
    msg_id = models.CharField(max_length=40, unique=True)
    type = models.CharField(max_length=40)
    body = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="message_due")]

    def __str__(self):
        return f"{self.type} {self.msg_id}"



class Attempt(models.Model):
    """Every attempt at a message, kept 30 days: what the receiver answered (or why nothing came)."""

    class Status(models.TextChoices):
        SUCCESS = "success", "delivered (2xx)"
        FAILURE = "failure", "failed"

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="tries")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices)
    code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"attempt {self.number}: {self.status}"



class Email(models.Model):
    """One email to one person, with its status."""

    class Kind(models.TextChoices):
        SIGNED_UP = "signed_up", "registration confirmed"
        PROMOTED = "promoted", "entered from the waitlist"
        PAIRINGS = "pairings", "a round's pairings"
        STANDINGS = "standings", "final standings"
        WEBHOOK_DISABLED = "webhook_disabled", "a webhook disabled"

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"
        BOUNCED = "bounced", "refused for good by the receiving server"
        SUPPRESSED = "suppressed", "not sent: the address bounced before"

    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    to = models.EmailField(max_length=254)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"{self.kind} to {self.to}"



class BouncedAddress(models.Model):
    """An address a receiving server refused for good (a 5xx for the recipient): never mailed again."""

    address = models.CharField(max_length=254, unique=True)  # lower-cased
    reason = models.CharField(max_length=300)
    at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.address



class SignUpLink(models.Model):
    """A sign-up's own link, sealed (``notifications.sealing``): the waitlist promotion's email carries it,
    as the confirmation did. Only the seal is kept; the registration keeps only the token's digest."""

    registration = models.OneToOneField(Registration, on_delete=models.CASCADE, related_name="+")
    sealed = models.CharField(max_length=200)

    def __str__(self):
        return f"link of sign-up {self.registration_id}"



class Told(models.Model):
    """What has been told of an event, so each thing is told once: a round published or complete, a match
    decided, the standings of one results version, the event finished."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    what = models.CharField(max_length=60)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "what"], name="told_once")]

    def __str__(self):
        return f"{self.event_id}: {self.what}"
