"""API views: parse, call the engine or one service, answer. No scoring rules here."""

from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from scoring.engine import score_sheet


class CalculatorThrottle(AnonRateThrottle):
    """Anonymous callers share the calculator's rate; signed-in users are not throttled here."""

    scope = "calculator"


class ScoreView(APIView):
    """The stateless calculator: a score sheet in (SCORESHEET.md), the scored sheet out. Stores nothing."""

    permission_classes = [AllowAny]
    throttle_classes = [CalculatorThrottle]

    def post(self, request):
        return Response(score_sheet(request.data))
