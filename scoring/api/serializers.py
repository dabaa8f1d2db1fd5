"""API shapes: parse input into typed values for one service call, and render stored objects.

No rules here: the services decide what is allowed and the engine what a hand scores.
"""

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from scoring.models import Game, Player

from .fields import IdField, WholeNumberField


class PersonalDataSerializer(serializers.Serializer):
    """Leaves out the ``PERSONAL`` fields (emails, addresses, browser strings, PIN state) unless the
    context says the reader is an organiser (``personal_data``): the schema marks them optional."""

    PERSONAL: tuple[str, ...] = ()

    def get_fields(self):
        fields = super().get_fields()
        for name in self.PERSONAL:
            fields[name].required = False
            if not self.context.get("personal_data"):
                del fields[name]
        return fields


class PlayerSerializer(PersonalDataSerializer, serializers.ModelSerializer):
    PERSONAL = ("email", "has_pin")
    has_pin = serializers.SerializerMethodField(help_text="organisers only")

    class Meta:
        model = Player
        fields = ["id", "display_name", "club", "rating", "email", "has_pin", "created_at"]
        read_only_fields = ["id", "created_at"]
        extra_kwargs = {"email": {"help_text": "organisers only"}}

    def get_has_pin(self, player) -> bool:
        return bool(player.confirm_pin)


class PlayerCreateSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=60)
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    pin = serializers.RegexField(r"^[0-9]{4,8}$", required=False, allow_blank=True, default="",
                                 error_messages={"invalid": "a PIN is 4 to 8 digits (0-9)"})


class PlayerUpdateSerializer(serializers.Serializer):
    """What PATCH changes; a field left out stays as it is."""

    display_name = serializers.CharField(max_length=60, required=False)
    club = serializers.CharField(max_length=80, required=False, allow_blank=True)
    email = serializers.EmailField(required=False, allow_blank=True)
    rating = WholeNumberField(required=False, allow_null=True, min_value=-(2**31 - 1), max_value=2**31 - 1,
                              help_text="the club's rating, if it keeps one (null: none); events seed by it")


class PinSerializer(serializers.Serializer):
    pin = serializers.RegexField(r"^[0-9]{4,8}$", error_messages={"invalid": "a PIN is 4 to 8 digits (0-9)"})


class MergeSerializer(serializers.Serializer):
    into = WholeNumberField(min_value=1, help_text="the id of the player to keep; this one is merged into it")


@extend_schema_field(OpenApiTypes.INT)
class SeatField(IdField):
    def get_queryset(self):
        return Player.objects.all()


class GameCreateSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=Game.Format.choices, default=Game.Format.STANDARD)
    players = serializers.ListField(child=SeatField(), min_length=2, max_length=4,
                                    help_text="player ids in sheet order (partnership: team 1 then team 2)")
    conventions = serializers.JSONField(default="classic", help_text="a preset name or {\"preset\": ..., overrides}")
    first_dealer = SeatField(required=False, allow_null=True, default=None)
    table_label = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    is_public = serializers.BooleanField(default=True)
    requires_confirmation = serializers.BooleanField(default=True)
    referees = serializers.ListField(
        child=IdField(queryset=get_user_model().objects.all()), required=False, default=list
    )


class GameSerializer(serializers.ModelSerializer):
    players = serializers.ListField(source="player_names", child=serializers.CharField())
    first_dealer = serializers.CharField(source="first_dealer_name")
    created_by = serializers.CharField(source="created_by.username", default=None, allow_null=True)
    url = serializers.HyperlinkedIdentityField(view_name="api:game-detail")

    class Meta:
        model = Game
        fields = ["id", "url", "format", "status", "table_label", "is_public", "requires_confirmation", "players",
                  "first_dealer", "conventions", "hand_count", "summary", "created_by", "created_at", "updated_at"]

    def to_representation(self, game):
        # Every table reads its game as a round is released: built directly, in the fields' order, rather
        # than by a model serializer's fields made anew per answer (a third of that read's time, profiled).
        # The fields above document it; a test holds the two equal.
        return game_data(game, self.context["request"])


def game_data(game: Game, request) -> dict:
    """One game as ``GameSerializer`` declares it."""
    return {
        "id": game.pk,
        "url": reverse("api:game-detail", kwargs={"pk": game.pk}, request=request),
        "format": game.format,
        "status": game.status,
        "table_label": game.table_label,
        "is_public": game.is_public,
        "requires_confirmation": game.requires_confirmation,
        "players": [str(name) for name in game.player_names],
        "first_dealer": game.first_dealer_name,
        "conventions": game.conventions,
        "hand_count": game.hand_count,
        "summary": game.summary,
        "created_by": game.created_by.username if game.created_by is not None else None,
        "created_at": _DATETIME.to_representation(game.created_at),
        "updated_at": _DATETIME.to_representation(game.updated_at),
    }


def _who(user, link, player=None, auto=False):
    if player is not None:
        return f"{player.display_name} (PIN)"
    if user is not None:
        return user.get_username()
    if link is not None:
        return f"referee link {link.label or link.pk}"
    return "no confirmation needed" if auto else None


class HandVersionSerializer(PersonalDataSerializer):
    """One stored version of a hand. Fields are declared, not introspected from the model: this shape
    is built on every recorded hand. Where it was entered from is for organisers only."""

    PERSONAL = ("entered_from",)

    number = serializers.IntegerField()
    version = serializers.IntegerField()
    action = serializers.CharField()
    status = serializers.SerializerMethodField()
    data = serializers.JSONField()
    reason = serializers.CharField()
    is_current = serializers.BooleanField()
    entered_by = serializers.SerializerMethodField()
    entered_from = serializers.CharField(help_text="IP address and browser: organisers only")
    entered_at = serializers.DateTimeField()
    confirmed_by = serializers.SerializerMethodField()
    confirmed_at = serializers.DateTimeField(allow_null=True)

    def get_entered_by(self, hand) -> str | None:
        return _who(hand.entered_by, hand.entered_via)

    def get_confirmed_by(self, hand) -> str | None:
        if hand.confirmed_at is None:
            return None
        return _who(hand.confirmed_by, hand.confirmed_via, hand.confirmed_by_player, hand.auto_confirmed)

    def get_status(self, hand) -> str:
        return "confirmed" if hand.confirmed_at else "pending"

    def to_representation(self, hand):
        # Every recorded hand is answered with this shape: built directly, in the fields' order, rather
        # than field by field (which showed in the record path's profile). The fields above document it.
        return hand_version_data(hand, personal=bool(self.context.get("personal_data")))


_DATETIME = serializers.DateTimeField()


def hand_version_data(hand, *, personal: bool) -> dict:
    """One stored version of a hand, as ``HandVersionSerializer`` declares it (``entered_from`` for
    organisers only)."""
    data = {
        "number": hand.number,
        "version": hand.version,
        "action": hand.action,
        "status": "confirmed" if hand.confirmed_at else "pending",
        "data": hand.data,
        "reason": hand.reason,
        "is_current": hand.is_current,
        "entered_by": _who(hand.entered_by, hand.entered_via),
    }
    if personal:
        data["entered_from"] = hand.entered_from
    data["entered_at"] = _DATETIME.to_representation(hand.entered_at)
    data["confirmed_by"] = None if hand.confirmed_at is None else _who(
        hand.confirmed_by, hand.confirmed_via, hand.confirmed_by_player, hand.auto_confirmed)
    data["confirmed_at"] = _DATETIME.to_representation(hand.confirmed_at) if hand.confirmed_at else None
    return data


class HandAnswerSerializer(serializers.Serializer):
    """What a hand write answers: the stored version, and the game's counted sheet after it."""

    hand = HandVersionSerializer()
    sheet = serializers.DictField(help_text="the engine's scored sheet of the confirmed hands (SCORESHEET.md)")


class GameDetailSerializer(GameSerializer):
    sheet = serializers.DictField(help_text="the engine's scored sheet of the confirmed hands, with pending ones")

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "sheet"]


class ConfirmSerializer(serializers.Serializer):
    player = serializers.CharField(required=False, help_text="the confirming player's name, with their PIN")
    pin = serializers.CharField(required=False)


class CorrectSerializer(serializers.Serializer):
    hand = serializers.JSONField(help_text="the hand as in the score-sheet contract")
    reason = serializers.CharField(max_length=500)


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class AbandonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
