"""The API of what players and directors ask of the pairing: a director asking a bye for an entry in a future Swiss
round, the event's pairs to avoid (listed to its directors only, added, removed), and the player asking a bye by
their own sign-up link (``POST {manage_url}byes/``). A private event is a 404 to whoever may not read it.

Views parse the body, call one service, answer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import validated
from core.reading import MAX_ID
from scoring.actors import actor_for
from scoring.api.fields import WholeNumberField
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from tournaments import policy, selectors, services
from tournaments.models import AvoidPair, Entry

from .registrations import MyRegistrationSerializer, _mine, my_registration
from .serializers import MAX_ROUND
from .views import TAG, EventErrorsMixin


class ByeAskSerializer(serializers.Serializer):
    round = WholeNumberField(min_value=1, max_value=MAX_ROUND, help_text="a Swiss round not yet paired")


class EntryByesSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="every round it asked to sit out")


class AvoidAskSerializer(serializers.Serializer):
    entries = serializers.ListField(child=WholeNumberField(min_value=1, max_value=MAX_ID), min_length=2,
                                    max_length=2, help_text="the two entries' ids")
    strength = serializers.ChoiceField(choices=AvoidPair.Strength.choices,
                                       help_text="never: holds like no rematch; avoid: gives way only to score")


class AvoidPairSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    entries = serializers.ListField(child=serializers.IntegerField(), help_text="the two entries' ids, lower first")
    names = serializers.ListField(child=serializers.CharField())
    strength = serializers.ChoiceField(choices=AvoidPair.Strength.choices)


def avoid_row(pair: AvoidPair) -> dict:
    return {"id": pair.pk, "entries": [pair.first_id, pair.second_id],
            "names": [pair.first.player.display_name, pair.second.player.display_name], "strength": pair.strength}


class EntryByes(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=ByeAskSerializer, responses={201: EntryByesSerializer}, tags=TAG,
                   summary="Ask a bye for an entry in a future Swiss round (the event's directors)")
    @idempotent
    def post(self, request, pk, entry_id):
        event = selectors.readable_event(actor_for(request), pk)
        entry = Entry.objects.get(pk=entry_id, event=event)
        data = validated(ByeAskSerializer, request)
        services.request_bye(actor=actor_for(request), event=event, entry=entry, round=data["round"])
        return Response({"entry": entry.pk, "byes": selectors.requested_byes(entry.pk)}, status=201)


class AvoidList(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(responses=AvoidPairSerializer(many=True), tags=TAG,
                   summary="The event's pairs to avoid (its directors)")
    def get(self, request, pk):
        event = selectors.readable_event(actor_for(request), pk)
        policy.require_director(actor_for(request), event, "see the pairs to avoid")
        return Response([avoid_row(p) for p in selectors.avoid_pairs(event)])

    @extend_schema(request=AvoidAskSerializer, responses={201: AvoidPairSerializer}, tags=TAG,
                   summary="Keep two entries apart: never (like no rematch) or avoid (gives way only to score)")
    @idempotent
    def post(self, request, pk):
        event = selectors.readable_event(actor_for(request), pk)
        data = validated(AvoidAskSerializer, request)
        pair = services.add_avoid_pair(actor=actor_for(request), event=event, entries=data["entries"],
                                       strength=data["strength"])
        return Response(avoid_row(pair), status=201)


class AvoidDetail(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses={204: None}, tags=TAG, summary="Remove a pair to avoid (its directors)")
    @idempotent
    def delete(self, request, pk, avoid_id):
        event = selectors.readable_event(actor_for(request), pk)
        pair = AvoidPair.objects.select_related("event").get(pk=avoid_id, event=event)
        services.remove_avoid_pair(actor=actor_for(request), pair=pair)
        return Response(status=204)


class MyByes(EventErrorsMixin, APIView):
    permission_classes = [AllowAny]
    authentication_classes = []  # the link's token is the credential: no session, no CSRF

    @extend_schema(request=ByeAskSerializer, responses={201: MyRegistrationSerializer}, tags=TAG,
                   summary="Ask to sit out a future Swiss round (my own link; at most the event's max_requested_byes)")
    def post(self, request, token):
        request.data  # noqa: B018  (read first, as every write: a body that is not a JSON object is a 400)
        registration = _mine(token)
        data = validated(ByeAskSerializer, request)
        services.request_my_bye(registration=registration, round=data["round"])
        return Response(my_registration(_mine(token)), status=201)


class EntryByeDetail(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses={204: None}, tags=TAG,
                   summary="Take back an entry's requested bye before its round is paired (the event's directors)")
    @idempotent
    def delete(self, request, pk, entry_id, number):
        event = selectors.readable_event(actor_for(request), pk)
        entry = Entry.objects.get(pk=entry_id, event=event)
        services.cancel_bye(actor=actor_for(request), event=event, entry=entry, round=number)
        return Response(status=204)


class MyByeDetail(EventErrorsMixin, APIView):
    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(request=None, responses=MyRegistrationSerializer, tags=TAG,
                   summary="Take back my requested bye before its round is paired (my own link)")
    def delete(self, request, token, number):
        registration = _mine(token)
        services.cancel_my_bye(registration=registration, round=number)
        return Response(my_registration(_mine(token)))
