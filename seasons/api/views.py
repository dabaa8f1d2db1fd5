"""Seasons API views: parse, call one service (or a selector), answer. No points rules here.

``GET/POST /api/v1/seasons/`` (everyone reads; organisers create) and ``GET /api/v1/seasons/{id}/ladder/``
(JSON, or CSV with ``?format=csv`` or ``Accept: text/csv``). Errors are the API's ``{"errors": [...]}``.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import BoundedJSONParser, validated
from scoring.actors import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from scoring.engine import SheetError

from .. import selectors, services
from ..exports import ladder_csv
from .serializers import LadderRowSerializer, SeasonCreateSerializer, SeasonSerializer

TAG = ["seasons"]


class SeasonList(generics.ListAPIView):
    """Every season, the latest first; organisers create one."""

    serializer_class = SeasonSerializer
    permission_classes = [WriteAccess]
    parser_classes = [BoundedJSONParser]

    def get_queryset(self):
        return selectors.seasons()

    @extend_schema(tags=TAG, summary="The seasons")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request=SeasonCreateSerializer, responses={201: SeasonSerializer}, tags=TAG,
                   summary="Create a season (organisers): its days, what counts and its points table")
    @idempotent
    def post(self, request):
        data = validated(SeasonCreateSerializer, request)
        season = services.create_season(actor=actor_for(request), **data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return ladder_csv(data).encode()


class Ladder(APIView):
    """The season's ladder, worked out on read from what it counts (a constant number of queries)."""

    renderer_classes = [JSONRenderer, CSVRenderer]

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        self.request.accepted_renderer, self.request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
        return response

    @extend_schema(
        parameters=[OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"],
                                     description="csv: one row per player, the same columns (or Accept: text/csv)")],
        responses={(200, "application/json"): LadderRowSerializer(many=True), (200, "text/csv"): OpenApiTypes.STR},
        tags=TAG, summary="A season's ladder: place, player, points (placement and nights), events, nights",
    )
    def get(self, request, pk):
        wanted = request.query_params.get("format")
        if wanted not in (None, "", "json", "csv"):
            raise SheetError.one(None, "format", f"json or csv; {wanted!r} given")
        season = selectors.seasons().get(pk=pk)
        if wanted == "csv":
            request.accepted_renderer, request.accepted_media_type = CSVRenderer(), CSVRenderer.media_type
        response = Response(selectors.ladder_rows(selectors.season_ladder(season)))
        if request.accepted_renderer.format == "csv":
            response["Content-Disposition"] = f'attachment; filename="season-{season.pk}-ladder.csv"'
        return response
