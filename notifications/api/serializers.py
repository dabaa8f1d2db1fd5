"""The webhooks API's shapes: a subscription as made (with its secret, that once), as read (never with it),
a change, a delivery with its attempts, a round's emails; and the payloads each type sends (the schema's
``webhooks`` section, ``notifications.api.schema``)."""

from __future__ import annotations

from rest_framework import serializers

from .. import payloads
from ..models import Attempt, Email, Message, Subscription


class SubscriptionCreateSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=500, help_text="http or https; checked again at every connection")
    types = serializers.ListField(child=serializers.CharField(max_length=40), max_length=20,
                                  help_text="at least one of: " + ", ".join(payloads.TYPES)
                                            + " (discord and slack: " + ", ".join(payloads.CHAT_TYPES) + ")")
    event = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0,
                                     max_value=999_999_999_999_999_999,
                                     help_text="an event's id (its directors), or null: every event (organisers)")
    format = serializers.ChoiceField(choices=Subscription.Format.choices, required=False,
                                     default=Subscription.Format.STANDARD)
    description = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class SubscriptionUpdateSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=500, required=False)
    types = serializers.ListField(child=serializers.CharField(max_length=40), max_length=20, required=False)
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    active = serializers.BooleanField(required=False, help_text="true turns a webhook that was turned off on again")


class SubscriptionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    types = serializers.ListField(child=serializers.CharField())
    event = serializers.IntegerField(allow_null=True, source="event_id")
    format = serializers.ChoiceField(choices=Subscription.Format.choices)
    description = serializers.CharField()
    active = serializers.BooleanField()
    disabled_reason = serializers.CharField(help_text="why it was turned off (410 Gone, failing for 5 days)")
    failing_since = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class SubscriptionCreatedSerializer(SubscriptionSerializer):
    secret = serializers.CharField(help_text="whsec_ and base64: the signing secret, in this answer only")


class AttemptSerializer(serializers.ModelSerializer):
    class Meta:
        model = Attempt
        fields = ["number", "status", "code", "duration_ms", "error", "at", "next_attempt_at"]


class DeliverySerializer(serializers.ModelSerializer):
    webhook_id = serializers.CharField(source="msg_id", help_text="the webhook-id header, the same on every attempt")
    attempts = AttemptSerializer(many=True, source="tries")

    class Meta:
        model = Message
        fields = ["id", "webhook_id", "type", "status", "created_at", "next_attempt_at", "attempts"]


class RoundEmailSerializer(serializers.Serializer):
    what = serializers.ChoiceField(choices=["pairings", "standings"], required=False, default="pairings",
                                   help_text="pairings: each player their table and opponent; standings: the "
                                             "final standings (a complete event)")


class RoundEmailedSerializer(serializers.Serializer):
    queued = serializers.IntegerField()
    suppressed = serializers.IntegerField(help_text="addresses that bounced before: not mailed")
    without_address = serializers.IntegerField()
    emails = serializers.ListField(child=serializers.IntegerField())


class RoundEmailRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["pairings", "standings"])
    to = serializers.CharField()
    status = serializers.ChoiceField(choices=Email.Status.choices)
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    sent_at = serializers.DateTimeField(allow_null=True)
