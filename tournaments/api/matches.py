"""Tournament API views of an event's matches: the list (filtered) and one match, a director's forfeit,
adjusted result or clearing of one, and a bracket's reset. Parse, call one service or selector, answer."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import validated
from scoring.actors import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from tournaments import policy, selectors, services
from tournaments.engine import EventError
from tournaments.models import Entry, Event, Match

from .serializers import (
    AdjustSerializer,
    ForfeitSerializer,
    MatchSerializer,
    OpenedSerializer,
    ReasonSerializer,
    ResetSerializer,
)
from .views import (
    TAG,
    EventErrorsMixin,
    _event,
    _int_param,
    _match,
    _match_answer,
    _opened,
)


class MatchFilterParams:
    PARAMS = [
        OpenApiParameter("round", OpenApiTypes.INT, description="only this round's matches"),
        OpenApiParameter("status", OpenApiTypes.STR, enum=["draft", "waiting", "playing", "decided", "bye", "reset"]),
    ]


MATCH_STATUSES = ("draft", "waiting", "playing", "decided", "bye", "reset")


class MatchList(EventErrorsMixin, APIView):
    @extend_schema(parameters=MatchFilterParams.PARAMS, responses=MatchSerializer(many=True), tags=TAG,
                   summary="Every match (game ids, referee links without tokens, results, directors' results)")
    def get(self, request, pk):
        event = _event(request, pk)
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in MATCH_STATUSES:
            raise EventError.one(None, "status", f"one of {', '.join(MATCH_STATUSES)}; {wanted!r} given")
        rows = selectors.matches(event, round=_int_param(request, "round", low=1), status=wanted)
        official = policy.is_official(actor_for(request), event)
        for row in rows:
            row["referee_url"] = None
            row["card_printed"] = row["card_printed"] if official else None
            selectors.for_readers(row, official=official)
        return Response(rows)


class MatchDetail(EventErrorsMixin, APIView):
    @extend_schema(responses=MatchSerializer, tags=TAG, summary="One match, by id or bracket match id (W1-3)")
    def get(self, request, pk, match_id):
        event = _event(request, pk)
        return Response(_match_answer(request, event, _match(event, match_id)))


def _winner(event: Event, given) -> Entry | None:
    """The entry named (as in the standings) or given by id; the service checks it plays in the match."""
    if given is None:
        return None
    if isinstance(given, str):
        given = next((pk for pk, name in selectors.entry_names(event).items() if name == given), given)
    found = Entry.objects.select_related("player").filter(event=event, pk=given).first() \
        if isinstance(given, int) else None
    if found is None:
        raise EventError.one(None, "winner", f"{given!r} is not an entry of {event.name}")
    return found


class DirectorsResultView(EventErrorsMixin, APIView):
    """A director's result for one match (a subclass says which): parse, record, answer the match."""

    permission_classes = [WriteAccess]
    form: type = ReasonSerializer

    def record(self, actor, event: Event, match: Match, data: dict) -> None:
        raise NotImplementedError

    @idempotent
    def post(self, request, pk, match_id):
        event = _event(request, pk)
        match = _match(event, match_id)
        self.record(actor_for(request), event, match, validated(self.form, request))
        return Response(_match_answer(request, event, match))


@extend_schema_view(post=extend_schema(
    request=ForfeitSerializer, responses=MatchSerializer, tags=TAG,
    summary="Record a forfeit: the winner takes the event's forfeit margin (kept as history)"))
class MatchForfeit(DirectorsResultView):
    """The match is won by forfeit: the winner takes the event's forfeit margin, whatever its games say."""

    form = ForfeitSerializer

    def record(self, actor, event, match, data):
        services.record_forfeit(actor=actor, match=match, winner=_winner(event, data["winner"]), reason=data["reason"])


@extend_schema_view(post=extend_schema(
    request=AdjustSerializer, responses=MatchSerializer, tags=TAG,
    summary="Record an adjusted result (winner and margin; null winner: a draw), kept as history"))
class MatchAdjust(DirectorsResultView):
    """A director's result for the match: a winner (or a draw, Swiss and round robin) and a margin."""

    form = AdjustSerializer

    def record(self, actor, event, match, data):
        services.record_adjusted_result(actor=actor, match=match, winner=_winner(event, data["winner"]),
                                        margin=data["margin"], reason=data["reason"])


@extend_schema_view(post=extend_schema(
    request=ReasonSerializer, responses=MatchSerializer, tags=TAG,
    summary="Back to the games' result (the forfeit or adjustment stays in the history)"))
class MatchClear(DirectorsResultView):
    """Back to what the match's games say; the earlier forfeit or adjustment stays in the history."""

    form = ReasonSerializer

    def record(self, actor, event, match, data):
        services.clear_director_result(actor=actor, match=match, reason=data["reason"])


class BracketReset(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=ResetSerializer, responses=OpenedSerializer, tags=TAG,
                   summary="Reset the open bracket matches a correction changed; open the right ones")
    @idempotent
    def post(self, request, pk):
        event = _event(request, pk)
        opened = services.reset_dependent_bracket_matches(actor=actor_for(request), event=event,
                                                          **validated(ResetSerializer, request))
        return Response(_opened(request, event, opened))


