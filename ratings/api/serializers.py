"""The ratings API's answers: names and numbers only (never an email)."""

from rest_framework import serializers

from ratings.engine import PROVISIONAL_GAMES


class RatingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", help_text="the player's id")
    name = serializers.CharField(source="player.display_name")
    club = serializers.CharField(source="player.club")
    rank = serializers.IntegerField(help_text="place in the rating list, 1 best")
    mu = serializers.FloatField(help_text="OpenSkill's estimate of the player's skill")
    sigma = serializers.FloatField(help_text="its uncertainty")
    rating = serializers.FloatField(help_text="mu - 3 sigma: what the list is ranked by")
    games = serializers.IntegerField(help_text="rated results: club games and tournament matches")
    provisional = serializers.BooleanField(help_text=f"fewer than {PROVISIONAL_GAMES} rated games")


class RatingPointSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="the player's 1st, 2nd, ... rated result")
    at = serializers.DateTimeField(help_text="when that result was played")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.FloatField(help_text="mu - 3 sigma")


class RatingHistorySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    rating = RatingSerializer(allow_null=True, help_text="the player's rating now; null before a rated game")
    history = RatingPointSerializer(many=True, help_text="the rating after each result, oldest first")
