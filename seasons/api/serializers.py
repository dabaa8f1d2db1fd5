"""What the seasons API reads and writes: a season, a new season's body, a ladder row. No rules here: the
values are checked together by ``seasons.services``."""

from rest_framework import serializers

from scoring.api.fields import WholeNumberField

from ..models import Season
from ..services import MAX_PLACES, MAX_POINTS


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on", "counts", "placement_points", "finisher_points",
                  "night_points", "best_nights"]
        read_only_fields = fields

    placement_points = serializers.ListField(child=serializers.IntegerField(), help_text="points for 1st, 2nd, ...")


class SeasonCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    starts_on = serializers.DateField(help_text="the first day, YYYY-MM-DD")
    ends_on = serializers.DateField(help_text="the last day, YYYY-MM-DD (not before the first)")
    counts = serializers.ChoiceField(choices=Season.Counts.choices, default=Season.Counts.BOTH,
                                     help_text="club nights, events, or both")
    placement_points = serializers.ListField(
        child=WholeNumberField(min_value=0, max_value=MAX_POINTS), min_length=1, max_length=MAX_PLACES,
        required=False, help_text="points for 1st, 2nd, ... of an event, never rising (default 10, 7, 5, 4, 3, 2)")
    finisher_points = WholeNumberField(min_value=0, max_value=MAX_POINTS, default=1,
                                       help_text="every finisher placed beyond the table")
    night_points = WholeNumberField(min_value=0, max_value=MAX_POINTS, default=1, help_text="per club night")
    best_nights = WholeNumberField(min_value=1, max_value=366, required=False, allow_null=True, default=None,
                                   help_text="only this many club nights count (null: every night)")


class LadderRowSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="equal points share a place (1, 2, 2, 4)")
    player = serializers.IntegerField(help_text="the player's id")
    name = serializers.CharField()
    points = serializers.IntegerField()
    placement_points = serializers.IntegerField()
    night_points = serializers.IntegerField()
    events = serializers.IntegerField(help_text="events placed in")
    nights = serializers.IntegerField(help_text="club nights counted")
