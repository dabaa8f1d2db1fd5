"""The webhooks API and a round's emails: parse, call one service (or a selector), answer.

``/api/v1/webhooks/`` is each signed-in user's own: a subscription made answers 201 with its ``secret`` (that
once); another user's subscription, or its deliveries, is a 404 to everyone else, organisers included. An
event named must be readable (a private event is a 404 to outsiders) and directed by the caller (else 403).
Errors are the API's ``{"errors": [{"hand", "field", "message"}]}``.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import BoundedJSONParser, validated
from scoring.actors import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from tournaments import policy as event_policy
from tournaments import selectors as event_selectors
from tournaments.api.views import EventErrorsMixin

from .. import selectors, services
from .serializers import (
    DeliverySerializer,
    RoundEmailedSerializer,
    RoundEmailRowSerializer,
    RoundEmailSerializer,
    SubscriptionCreatedSerializer,
    SubscriptionCreateSerializer,
    SubscriptionSerializer,
    SubscriptionUpdateSerializer,
)

TAG = ["webhooks"]


class SignedIn(IsAuthenticated):
    """A signed-in user (a token or a session); a write's body is read first (a malformed one is a 400)."""

    def has_permission(self, request, view):
        if not super().has_permission(request, view):
            return False
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            request.data  # noqa: B018
        return True


class RefusalsMixin:
    """The notifications routes' body parser; their refusals (``core.refusals.Refusal``) are worded by the
    API's one exception handler."""

    parser_classes = [BoundedJSONParser]


def _row(subscription) -> dict:
    return SubscriptionSerializer(subscription).data


class WebhookList(RefusalsMixin, APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses=SubscriptionSerializer(many=True), tags=TAG,
                   summary="My webhooks (each user sees only their own; never a secret)")
    def get(self, request):
        return Response([_row(s) for s in selectors.subscriptions(request.user)])

    @extend_schema(request=SubscriptionCreateSerializer, responses={201: SubscriptionCreatedSerializer}, tags=TAG,
                   summary="Subscribe a URL to what happens (organisers: every event; an event's directors: theirs)")
    @idempotent
    def post(self, request):
        data = validated(SubscriptionCreateSerializer, request)
        actor = actor_for(request)
        event = event_selectors.readable_event(actor, data["event"]) if data["event"] is not None else None
        made = services.create_subscription(actor=actor, url=data["url"], types=data["types"], event=event,
                                            format=data["format"], description=data["description"])
        return Response({**_row(made), "secret": made.secret}, status=status.HTTP_201_CREATED)


class WebhookDetail(RefusalsMixin, APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses=SubscriptionSerializer, tags=TAG, summary="One of my webhooks")
    def get(self, request, pk):
        return Response(_row(selectors.subscription(request.user, pk)))

    @extend_schema(request=SubscriptionUpdateSerializer, responses=SubscriptionSerializer, tags=TAG,
                   summary="Change one of my webhooks, or turn it on again (active: true) or off")
    def patch(self, request, pk):
        mine = selectors.subscription(request.user, pk)
        data = validated(SubscriptionUpdateSerializer, request)
        return Response(_row(services.update_subscription(actor=actor_for(request), subscription=mine,
                                                          values=data)))

    @extend_schema(request=None, responses={204: OpenApiResponse(description="removed, with its deliveries")},
                   tags=TAG, summary="Remove one of my webhooks")
    def delete(self, request, pk):
        services.delete_subscription(actor=actor_for(request), subscription=selectors.subscription(request.user, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookTest(RefusalsMixin, APIView):
    permission_classes = [SignedIn]

    @extend_schema(request=None, responses={202: DeliverySerializer}, tags=TAG,
                   summary="Send a ping to one of my webhooks now (see its deliveries for the answer)")
    @idempotent
    def post(self, request, pk):
        message = services.send_ping(actor=actor_for(request), subscription=selectors.subscription(request.user, pk))
        return Response(DeliverySerializer(message).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveries(RefusalsMixin, APIView):
    permission_classes = [SignedIn]

    @extend_schema(responses=DeliverySerializer(many=True), tags=TAG,
                   summary="The latest 100 messages to one of my webhooks, each with every attempt (kept 30 days)")
    def get(self, request, pk):
        mine = selectors.subscription(request.user, pk)
        return Response(DeliverySerializer(selectors.deliveries(mine), many=True).data)


class WebhookRedeliver(RefusalsMixin, APIView):
    permission_classes = [SignedIn]

    @extend_schema(request=None, responses={202: DeliverySerializer}, tags=TAG,
                   summary="Send one message again now, with its same webhook-id")
    @idempotent
    def post(self, request, pk, delivery_id):
        message = selectors.delivery(selectors.subscription(request.user, pk), delivery_id)
        again = services.redeliver(actor=actor_for(request), message=message)
        return Response(DeliverySerializer(again).data, status=status.HTTP_202_ACCEPTED)


class RoundEmail(EventErrorsMixin, APIView):
    """An event's route: its refusals in the event contract's shape (``result`` where others say ``hand``)."""

    permission_classes = [WriteAccess]
    parser_classes = [BoundedJSONParser]

    @extend_schema(responses=RoundEmailRowSerializer(many=True), tags=["tournaments"],
                   summary="The round's emails and the final standings', each with its status (the event's directors)")
    def get(self, request, pk, number):
        actor = actor_for(request)
        event = event_selectors.readable_event(actor, pk)
        event_policy.require_director(actor, event, "see its emails")
        return Response(RoundEmailRowSerializer(selectors.round_emails(event.pk, number), many=True).data)

    @extend_schema(request=RoundEmailSerializer, responses=RoundEmailedSerializer, tags=["tournaments"],
                   summary="Email each player of a published round their table and opponent, or the final "
                           "standings (the event's directors)")
    @idempotent
    def post(self, request, pk, number):
        actor = actor_for(request)
        event = event_selectors.readable_event(actor, pk)
        data = validated(RoundEmailSerializer, request)
        return Response(services.email_round(actor=actor, event=event, number=number, what=data["what"]))
