"""API views: parse, call the engine or one service, answer. No scoring rules here."""

from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from scoring.engine import CardError, SheetError, analyse, parse_cards, score_sheet


class CalculatorThrottle(AnonRateThrottle):
    """Anonymous callers share the calculator's rate; signed-in users are not throttled here."""

    scope = "calculator"


class ScoreView(APIView):
    """The stateless calculator: a score sheet in (SCORESHEET.md), the scored sheet out. Stores nothing."""

    permission_classes = [AllowAny]
    throttle_classes = [CalculatorThrottle]

    def post(self, request):
        return Response(score_sheet(request.data))


class MeldsView(APIView):
    """Card analysis: the best melds, deadwood cards and count of 10 or 11 cards. Stores nothing."""

    permission_classes = [AllowAny]
    throttle_classes = [CalculatorThrottle]

    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        if "cards" not in data:
            raise SheetError.one(None, "cards", "is required: a list of 10 or 11 cards, like [\"7H\", \"8H\"]")
        unknown = sorted(set(data) - {"cards"})
        if unknown:
            raise SheetError.one(None, unknown[0], f"unknown field {unknown[0]!r}")
        try:
            hand = parse_cards(data["cards"], sizes=(10, 11))
        except CardError as exc:
            raise SheetError.one(None, "cards", str(exc)) from None
        return Response(analyse(hand).as_dict())
