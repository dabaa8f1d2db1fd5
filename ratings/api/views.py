"""Ratings API views: read through ``ratings.selectors`` and answer; public, like the pages."""

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings import selectors

from .serializers import RatingHistorySerializer, RatingSerializer

TAG = ["ratings"]


@extend_schema(tags=TAG, summary="Every rated player's OpenSkill rating, best first")
class RatingList(generics.ListAPIView):
    serializer_class = RatingSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return selectors.rating_list()


class PlayerRatingHistory(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RatingHistorySerializer, tags=TAG,
                   summary="A player's rating now and after each rated result (a merged duplicate's id reads "
                           "as the kept player)")
    def get(self, request, pk):
        player, rating, kept = selectors.rated_player(pk)
        if player is None:
            raise Http404("no such player")
        if kept is not None:
            player, rating, _ = selectors.rated_player(kept)
        points = selectors.history(player.pk) if rating is not None else []
        return Response(RatingHistorySerializer({
            "player": player.pk, "name": player.display_name, "rating": rating, "history": points}).data)
