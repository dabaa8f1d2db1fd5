"""The payloads each webhook type sends, for the OpenAPI schema's ``webhooks`` section (drf-spectacular's
``OpenApiWebhook``, listed in ``SPECTACULAR_SETTINGS["WEBHOOKS"]``). Every standard delivery is signed with the
``webhook-id``, ``webhook-timestamp`` and ``webhook-signature`` headers (Standard Webhooks); a receiver answers
2xx to acknowledge, 410 to unsubscribe."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, OpenApiWebhook, extend_schema, inline_serializer
from rest_framework import serializers

S = serializers


class WebhookEventRef(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    url = S.URLField(help_text="the event in the API")
    page = S.URLField(help_text="the event's page")


class WebhookStanding(S.Serializer):
    rank = S.IntegerField()
    name = S.CharField()
    match_points = S.FloatField()
    wins = S.IntegerField()
    losses = S.IntegerField()
    draws = S.IntegerField()


class WebhookPairing(S.Serializer):
    table = S.IntegerField(allow_null=True)
    match = S.IntegerField()
    players = S.ListField(child=S.CharField())


class WebhookResult(WebhookPairing):
    winner = S.CharField(allow_null=True)
    margin = S.IntegerField(allow_null=True)


class WebhookMatch(S.Serializer):
    id = S.IntegerField()
    round = S.IntegerField(allow_null=True)
    table = S.IntegerField(allow_null=True)
    players = S.ListField(child=S.CharField())
    winner = S.CharField(allow_null=True)
    margin = S.IntegerField(allow_null=True)
    forfeit = S.BooleanField()
    source = S.CharField(allow_null=True)
    url = S.URLField()


class WebhookRegistration(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    status = S.CharField()
    entry = S.IntegerField(allow_null=True)


def _registration():
    return {"event": WebhookEventRef(), "registration": WebhookRegistration()}


DATA = {
    "round.published": lambda: {"event": WebhookEventRef(), "round": S.IntegerField(), "version": S.CharField(),
                                "pairings": WebhookPairing(many=True), "byes": S.ListField(child=S.CharField()),
                                "url": S.URLField()},
    "round.completed": lambda: {"event": WebhookEventRef(), "round": S.IntegerField(), "version": S.CharField(),
                                "results": WebhookResult(many=True), "top": WebhookStanding(many=True),
                                "url": S.URLField()},
    "match.decided": lambda: {"event": WebhookEventRef(), "match": WebhookMatch(), "version": S.CharField()},
    "standings.updated": lambda: {"event": WebhookEventRef(), "version": S.CharField(),
                                  "top": WebhookStanding(many=True), "url": S.URLField()},
    "event.finished": lambda: {"event": WebhookEventRef(), "version": S.CharField(),
                               "top": WebhookStanding(many=True), "url": S.URLField()},
    "registration.created": _registration,
    "registration.promoted": _registration,
    "registration.withdrawn": _registration,
    "hand.confirmed": lambda: {"event": WebhookEventRef(), "match": S.IntegerField(), "game": S.IntegerField(),
                               "hand": S.IntegerField(), "version": S.IntegerField(),
                               "round": S.IntegerField(allow_null=True), "table": S.IntegerField(allow_null=True),
                               "url": S.URLField()},
    "ping": lambda: {"subscription": S.IntegerField(), "message": S.CharField()},
}


def _webhook(type_: str) -> OpenApiWebhook:
    name = "".join(part.title() for part in type_.replace(".", "_").split("_"))
    body = inline_serializer(f"Webhook{name}", {
        "type": S.ChoiceField(choices=[type_]), "timestamp": S.DateTimeField(),
        "data": inline_serializer(f"Webhook{name}Data", DATA[type_]())})
    return OpenApiWebhook(name=type_, decorator=extend_schema(
        summary=f"{type_}: signed with webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks)",
        request=body, responses={200: OpenApiResponse(description="any 2xx acknowledges it"),
                                 410: OpenApiResponse(description="Gone: the subscription is turned off at once")}))


WEBHOOKS = {type_: _webhook(type_) for type_ in DATA}
ROUND_PUBLISHED, ROUND_COMPLETED, MATCH_DECIDED, STANDINGS_UPDATED, EVENT_FINISHED = (
    WEBHOOKS[t] for t in ("round.published", "round.completed", "match.decided", "standings.updated",
                          "event.finished"))
REGISTRATION_CREATED, REGISTRATION_PROMOTED, REGISTRATION_WITHDRAWN, HAND_CONFIRMED, PING = (
    WEBHOOKS[t] for t in ("registration.created", "registration.promoted", "registration.withdrawn",
                          "hand.confirmed", "ping"))
