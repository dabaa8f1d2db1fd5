"""API route of a round's clock: its directors start, pause, resume and extend it (the whole round, or one
table). Each round's clock is read in ``GET .../rounds/``.

Views parse the body (``scoring.api.parsers``, as every route), call one service and answer the round;
they must not decide who may (``tournaments.policy``) nor what is refused (``tournaments.services``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.auth import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from tournaments import selectors, services
from tournaments.engine import EventError
from tournaments.models import Match

from .serializers import ClockActionSerializer, RoundSummarySerializer
from .views import TAG, EventErrorsMixin, _event, _parsed, _round


class RoundClock(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=ClockActionSerializer, responses=RoundSummarySerializer, tags=TAG,
                   summary="Start, pause, resume or extend a round's clock (extend: the whole round, or one table "
                           "with match)")
    @idempotent
    def post(self, request, pk, number):
        event = _event(request, pk)
        rnd = _round(event, number)
        data = _parsed(ClockActionSerializer, request)
        match = None
        if data["match"] is not None:
            match = Match.objects.filter(pk=data["match"], event=event).first()
            if match is None:
                raise EventError.one(None, "match", f"{data['match']} is not a match of {event.name}")
        services.run_round_clock(actor=actor_for(request), round=rnd, action=data["action"],
                                 minutes=data["minutes"], match=match)
        return Response(next(r for r in selectors.round_summaries(event) if r["round"] == number))
