"""API routes that end an event's story or close one of its warnings: cancelling an event with a reason,
and a director acknowledging a warning about pairings made from results that have since changed.

Views parse the body (``core.api.parsers``, as every route), call one service and answer the event;
they must not decide who may (``tournaments.policy``) nor what is refused (``tournaments.services``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import validated
from scoring.actors import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from tournaments import services

from .serializers import AcknowledgementSerializer, AcknowledgeSerializer, CancelSerializer, EventDetailSerializer
from .views import TAG, EventErrorsMixin, _detail, _event


class EventCancel(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=CancelSerializer, responses=EventDetailSerializer, tags=TAG,
                   summary="Cancel an event not yet complete, saying why: its games being played are closed, its "
                           "table links revoked, and nothing more is recorded in it")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        services.cancel_event(actor=actor_for(request), event=event, **validated(CancelSerializer, request))
        return Response(_detail(request, pk))


class WarningAcknowledge(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=AcknowledgeSerializer, responses={201: AcknowledgementSerializer}, tags=TAG,
                   summary="Acknowledge one of the event's warnings by its key (kept as history; hidden from "
                           "spectators after)")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        made = services.acknowledge_warning(actor=actor_for(request), event=event,
                                            **validated(AcknowledgeSerializer, request))
        return Response({"key": made.key, "message": made.message, "note": made.note,
                         "acknowledged_by": made.acknowledged_by.get_username() if made.acknowledged_by else None,
                         "acknowledged_at": made.acknowledged_at}, status=status.HTTP_201_CREATED)
