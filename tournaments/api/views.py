"""Tournament API views: parse, call the engine (or one service), answer. No pairing rules here."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.parsers import BoundedJSONParser
from scoring.api.schema import EVENT_ERROR_SCHEMA
from scoring.api.throttles import AnonymousThrottle, CalculatorThrottle
from tournaments.engine import EventError, run_event

from . import schema

_request_examples, _answer_examples = schema.examples()


def event_errors(response: Response) -> Response:
    """The event contract names the result where the score-sheet contract names the hand."""
    errors = response.data.get("errors") if isinstance(response.data, dict) else None
    if isinstance(errors, list):
        response.data = {"errors": [
            {"result": e.get("result", e.get("hand")), "field": e.get("field"), "message": e.get("message", "")}
            for e in errors if isinstance(e, dict)
        ]}
    return response


class EventView(APIView):
    """The stateless event calculator (EVENTS.md): entries, format and results in; standings, the next
    round's pairings or the bracket out. Anonymous and throttled; stores nothing."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousThrottle, CalculatorThrottle]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        summary="Answer an event document: standings, next pairings or the bracket",
        request={"application/json": schema.EVENT_REQUEST},
        responses={
            200: OpenApiResponse(schema.EVENT_ANSWER, description="The event's standings and what comes next."),
            400: OpenApiResponse(EVENT_ERROR_SCHEMA, description="The document was refused: every problem named."),
            429: OpenApiResponse(EVENT_ERROR_SCHEMA, description="Too many requests from this address."),
        },
        examples=_request_examples + _answer_examples,
        tags=["tournaments"],
    )
    def post(self, request):
        try:
            return Response(run_event(request.data))
        except EventError as exc:
            return Response(exc.as_dict(), status=400)

    def handle_exception(self, exc):
        return event_errors(super().handle_exception(exc))
