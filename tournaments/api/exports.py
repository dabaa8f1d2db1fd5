"""The event's exports through the API: every match as CSV (the matches list, ``?format=csv`` or
``Accept: text/csv``) and the event as the event contract's request (``GET .../export/``), the one the
stored answer is computed from, which ``POST /api/v1/event/`` answers with the same standings.

Views read the query, call one selector and render (``tournaments.match_rows`` writes the CSV); they must
not build the event document themselves (``tournaments.stored_event`` does, for the answer and the export
alike) nor decide who may read (a private event is a 404 to whoever may not: ``_event``).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.actors import actor_for
from tournaments import policy, selectors
from tournaments.engine import EventError
from tournaments.match_rows import matches_csv

from . import schema
from .matches import MatchFilterParams, MatchList
from .serializers import MatchSerializer
from .views import TAG, EventErrorsMixin, _event, _int_param

FORMAT_PARAM = OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"],
                                description="csv: one row per match (or Accept: text/csv)")
# The event contract's request; an event still in registration may have fewer than two entries (the
# calculator refuses such a document, naming the entries).
EXPORT_SCHEMA = {**schema.EVENT_REQUEST, "properties": {
    **schema.EVENT_REQUEST["properties"],
    "entries": {**schema.EVENT_REQUEST["properties"]["entries"], "minItems": 0},
}}
EXPORT_EXAMPLE = {
    "format": "swiss",
    "entries": [{"name": "Ann", "seed": 1}, {"name": "Bob", "seed": 2}, {"name": "Cleo", "seed": 3},
                {"name": "Dev", "seed": 4}, {"name": "Eve", "joined": 2}],
    "match_points": {"win": 2, "draw": 1, "loss": 0, "bye": 2},
    "tiebreaks": ["match_points", "buchholz", "margin", "head_to_head"],
    "bye_margin": 0,
    "forfeit_margin": 100,
    "rounds": 3,
    "results": [
        {"round": 1, "players": ["Ann", "Cleo"], "winner": "Ann", "margin": 143},
        {"round": 1, "players": ["Bob", "Dev"], "winner": "Dev", "forfeit": True},
        {"round": 2, "players": ["Ann", "Dev"], "winner": None, "margin": 0},
        {"round": 2, "players": ["Eve", "Bob"], "winner": "Eve", "margin": 61},
        {"round": 2, "bye": "Cleo"},
    ],
    "dropped": {"Bob": 2},
}


def _wanted_format(request) -> str | None:
    wanted = request.query_params.get("format") or None
    if wanted not in (None, "json", "csv"):
        raise EventError.one(None, "format", f"json or csv; {wanted!r} given")
    return wanted


class MatchCSVRenderer(BaseRenderer):
    """The match rows as CSV (``tournaments.match_rows.matches_csv``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return matches_csv(data).encode()


class MatchListWithCSV(MatchList):
    """``MatchList`` (every match, filtered by round and status) as JSON, or as CSV: one row per match."""

    renderer_classes = [*MatchList.renderer_classes, MatchCSVRenderer]  # JSON (or the browsable page) as before

    @extend_schema(
        parameters=[*MatchFilterParams.PARAMS, FORMAT_PARAM],
        responses={(200, "application/json"): MatchSerializer(many=True), (200, "text/csv"): OpenApiTypes.STR},
        tags=TAG,
        summary="Every match (game ids, referee links without tokens, results, directors' results), as JSON or "
                "CSV: round, bracket_id, table, player_1, player_2, winner, margin, forfeit, decided_by, games, "
                "status",
    )
    def get(self, request, pk):
        if _wanted_format(request) == "csv":
            request.accepted_renderer, request.accepted_media_type = MatchCSVRenderer(), MatchCSVRenderer.media_type
        response = super().get(request, pk)
        if request.accepted_renderer.format == "csv":
            round_number = _int_param(request, "round", low=1)  # read (and checked) by MatchList already
            suffix = f"-round-{round_number}" if round_number else ""
            response["Content-Disposition"] = f'attachment; filename="event-{pk}-matches{suffix}.csv"'
        return response


class EventExport(EventErrorsMixin, APIView):
    """The stored event as the event contract's request: format, options, entries (seeds, late entries),
    every counted result and the drops. Names only, as the standings show them: no email, no reason."""

    @extend_schema(
        responses={200: OpenApiResponse(EXPORT_SCHEMA, description="The request the event's standings are "
                                        "computed from: POST it to /api/v1/event/ for the same standings.")},
        examples=[OpenApiExample("A Swiss after round 2", value=EXPORT_EXAMPLE, response_only=True,
                                 status_codes=["200"])],
        tags=TAG,
        summary="The event as the event contract's request, which POST /api/v1/event/ answers with its standings",
    )
    def get(self, request, pk):
        event = _event(request, pk)
        document = selectors.event_export(event)
        if not policy.can_direct(actor_for(request), event):
            document = selectors.without_pairs_to_avoid(document)
        return Response(document)
