"""``GET /api/v1/events/{id}/entries/{entry_id}/``: one entry's record in an event, its matches in order, each
result from its side (``tournaments.entry_history``).

A read: it parses the ids, calls the read, answers. It must not decide a result or a place (the engine and
``tournaments.stored_event`` do), nor who may read (``selectors``: a private event is a 404 to whoever may not read
it, and so is an entry of another event); why an entry dropped is shown to the event's officials only.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.actors import actor_for
from scoring.api.views import WriteAccess
from tournaments import policy
from tournaments.entry_history import entry_record

from .serializers import EntrySerializer
from .views import TAG, EventErrorsMixin, _event

RESULTS = ["won", "lost", "drew", "bye", "forfeit_won", "forfeit_lost"]


class EntryMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the match id (GET .../matches/{id}/)")
    round = serializers.IntegerField(allow_null=True, help_text="Swiss and round robin; null in a bracket")
    bracket_id = serializers.CharField(allow_null=True, help_text="a bracket's match id (W1-3); null in rounds")
    table = serializers.IntegerField(allow_null=True)
    opponent = serializers.IntegerField(allow_null=True, help_text="the opponent's entry id; null for a bye")
    opponent_name = serializers.CharField(allow_null=True, help_text="the opponent's name in the standings")
    status = serializers.ChoiceField(choices=["waiting", "playing", "decided", "bye"])
    result = serializers.ChoiceField(choices=RESULTS, allow_null=True, help_text="from this entry's side; null "
                                                                                 "while undecided")
    margin = serializers.IntegerField(allow_null=True, help_text="the winner's margin, as the match has it (a "
                                                                 "draw: 0); null for a bye or undecided")
    decided_by = serializers.ChoiceField(choices=["games", "director"], allow_null=True,
                                         help_text="the games, or a director's forfeit or adjusted result; null "
                                                   "for a bye or undecided")


class EntryRecordSerializer(EntrySerializer):
    place = serializers.IntegerField(allow_null=True, help_text="its rank now (shared ranks repeat); the final "
                                                                "place once final; null before any standings")
    final = serializers.BooleanField(help_text="the event is complete: place is the final place")
    match_points = serializers.IntegerField()
    tiebreaks = serializers.DictField(help_text="each tiebreak in the event's order, as in the standings")
    current_match = EntryMatchSerializer(allow_null=True, help_text="the match it plays now, if undecided")
    matches = EntryMatchSerializer(many=True, help_text="every match it played or plays, in order (a draft "
                                                        "round's and a reset bracket match left out)")


class EntryRecord(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(responses=EntryRecordSerializer, tags=TAG,
                   summary="One entry: its place, match points, tiebreaks and every match with its result")
    def get(self, request, pk, entry_id):
        event = _event(request, pk)
        # An entry of another event raises Entry.DoesNotExist: a 404, as an id never used.
        record = entry_record(event, entry_id, reasons=policy.is_official(actor_for(request), event))
        return Response(EntryRecordSerializer(record).data)
