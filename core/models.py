"""The floor's own tables, knowing nothing of gin: the one-time keys every duplicate-submission guard claims
(``core.once``), and the shared rate counters (``core.rate_limits``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone


class OnceKey(models.Model):
    """A one-time key claimed by the write it came with, in that write's transaction (``core.once``).

    Three kinds: an API request's ``Idempotency-Key`` (its first answer is stored, compressed, and replayed to
    any copy), a hand entry form's key (which hand of which game it recorded: ``object_id`` and ``number``), and
    a director's form's key (nothing but the claim). Keys are the caller's: they are unique per kind and actor
    (who sent them). Kept 24 hours (``manage.py cleanup_expired``)."""

    class Kind(models.TextChoices):
        API = "api", "API request (Idempotency-Key)"
        HAND_FORM = "hand_form", "hand entry form"
        DIRECTOR_FORM = "director_form", "director's form"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    actor = models.CharField(max_length=80)
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, blank=True, default="")  # what was sent, to tell a copy apart
    # An API request's: what it was and its first answer (None while the first copy runs).
    method = models.CharField(max_length=10, blank=True, default="")
    path = models.CharField(max_length=300, blank=True, default="")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    answer = models.BinaryField(blank=True, default=b"")  # zlib-compressed JSON
    # A form's: what its first use made, by id (a game) and number (its hand).
    object_id = models.BigIntegerField(null=True, blank=True)
    number = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "actor", "key"], name="once_key_one_use_per_kind_actor"),
            models.CheckConstraint(condition=Q(kind__in=["api", "hand_form", "director_form"]),
                                   name="once_key_kind_known"),
        ]
        indexes = [models.Index(fields=["created_at"], name="once_key_by_age")]

    def __str__(self) -> str:
        return f"{self.kind} {self.actor} [{self.key}]"


class RateCounter(models.Model):
    """How many requests one key (an address, a user, a table link, an address and username) made in its
    current fixed window: a row per key, counted by one upsert statement (``core.rate_limits``), so no
    request ever waits on another key's row. Used when no Redis is configured."""

    key = models.CharField(max_length=200, primary_key=True)
    window = models.BigIntegerField()  # when the current window began, in seconds since the epoch
    count = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"{self.key}: {self.count} in window {self.window}"
