"""API routes of the clocks: a round's (its directors start, pause, resume and extend it: the whole round,
or one table) and a bracket match's own. Each round's clock is read in ``GET .../rounds/``, each table's in
its match.

Views parse the body (``core.api.parsers``, as every route), call one service and answer the round;
they must not decide who may (``tournaments.policy``) nor what is refused (``tournaments.services``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import validated
from scoring.actors import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from tournaments import selectors, services
from tournaments.engine import EventError
from tournaments.models import Match

from .serializers import ClockActionSerializer, MatchClockSerializer, MatchSerializer, RoundSummarySerializer
from .views import TAG, EventErrorsMixin, _event, _match, _match_answer, _round


class RoundClock(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=ClockActionSerializer, responses=RoundSummarySerializer, tags=TAG,
                   summary="Start, pause, resume or extend a round's clock (extend: the whole round, or one table "
                           "with match)")
    @idempotent
    def post(self, request, pk, number):
        event = _event(request, pk)
        rnd = _round(event, number)
        data = validated(ClockActionSerializer, request)
        match = None
        if data["match"] is not None:
            match = Match.objects.filter(pk=data["match"], event=event).first()
            if match is None:
                raise EventError.one(None, "match", f"{data['match']} is not a match of {event.name}")
        services.run_round_clock(actor=actor_for(request), round=rnd, action=data["action"],
                                 minutes=data["minutes"], match=match)
        return Response(next(r for r in selectors.round_summaries(event) if r["round"] == number))


class MatchClock(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=MatchClockSerializer, responses=MatchSerializer, tags=TAG,
                   summary="Start, pause, resume or extend a bracket match's own clock (a round's tables share "
                           "their round's)")
    @idempotent
    def post(self, request, pk, match_id):
        event = _event(request, pk)
        match = _match(event, match_id)
        data = validated(MatchClockSerializer, request)
        services.run_match_clock(actor=actor_for(request), match=match, action=data["action"],
                                 minutes=data["minutes"])
        return Response(_match_answer(request, event, match))
