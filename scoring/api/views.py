"""API views: parse, call one service (or the engine, or a selector), answer. No scoring rules here."""

import django_filters
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Q
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import validated
from core.reading import text_id
from scoring import policy, selectors, services
from scoring.engine import CardError, SheetError, analyse, parse_cards
from scoring.models import Game, Player
from scoring.policy import Actor
from scoring.sheets import counted_sheet, score_bounded_sheet

from ..actors import actor_for
from ..throttles import AnonymousThrottle, CalculatorThrottle, LoginThrottle
from .idempotency import idempotent
from .serializers import (
    AbandonSerializer,
    ConfirmSerializer,
    CorrectSerializer,
    GameCreateSerializer,
    GameDetailSerializer,
    GameSerializer,
    HandAnswerSerializer,
    HandVersionSerializer,
    MergeSerializer,
    PinSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    VoidSerializer,
    hand_version_data,
)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class ScoreView(APIView):
    """The stateless calculator: a score sheet in (SCORESHEET.md), the scored sheet out. Stores nothing."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousThrottle, CalculatorThrottle]

    @extend_schema(request=dict, responses=dict)
    def post(self, request):
        return Response(score_bounded_sheet(request.data))


class MeldsView(APIView):
    """Card analysis: the best melds, deadwood cards and count of 10 or 11 cards. Stores nothing."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousThrottle, CalculatorThrottle]

    @extend_schema(request=dict, responses=dict)
    def post(self, request):
        data = request.data  # an object: the parser refuses any other body
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


class ObtainToken(APIView):
    """A new API token for a username and password. The key is in this answer only: keep it."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [LoginThrottle]

    @extend_schema(request=AuthTokenSerializer, responses={200: TokenSerializer}, auth=[])
    def post(self, request):
        data = validated(AuthTokenSerializer, request, context={"request": request})
        return Response({"token": services.issue_api_token(user=data["user"])})


class WriteAccess(IsAuthenticated):
    """Writes need a signed-in user or a referee link; the services decide the rest.

    A write's body is read here, before its view runs, even by a view that takes none (publishing a
    round): the parser refuses a body that is not a JSON object, so no write acts on a malformed call."""

    def has_permission(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        if not (request.user.is_authenticated or request.auth is not None):
            return False
        request.data  # noqa: B018  (parsed now: a malformed body is a 400 before anything is done)
        return True


def _sees_personal_data(request) -> bool:
    """May this reader see personal data (emails, addresses, PIN state)?"""
    return policy.sees_personal_data(actor_for(request))


def personal(request) -> dict:
    """Serializer context: may this reader see personal data (emails, addresses, PIN state)?"""
    return {"request": request, "personal_data": _sees_personal_data(request)}


class PersonalDataContext:
    def get_serializer_context(self):
        return {**super().get_serializer_context(), **personal(self.request)}


class PlayerFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(method="filter_search", help_text=(
        "part of a name, case and accents aside: petur finds Pétur"))

    class Meta:
        model = Player
        fields = ["club"]

    def filter_search(self, queryset, name, value):
        return queryset.filter(pk__in=selectors.players(value).values("pk"))


class PlayerList(PersonalDataContext, generics.ListCreateAPIView):
    serializer_class = PlayerSerializer
    permission_classes = [WriteAccess]
    filterset_class = PlayerFilter

    def get_queryset(self):
        return selectors.players()

    @extend_schema(request=PlayerCreateSerializer, responses={201: PlayerSerializer})
    @idempotent
    def post(self, request):
        data = validated(PlayerCreateSerializer, request)
        player = services.create_player(actor=actor_for(request), **data)
        return Response(PlayerSerializer(player, context=personal(request)).data, status=status.HTTP_201_CREATED)


class PlayerDetail(PersonalDataContext, generics.RetrieveAPIView):
    """A player; organisers change the name, club or email with PATCH (games already made keep the names
    their sheets were made with). The id of a duplicate merged into another player reads as that player."""

    serializer_class = PlayerSerializer
    queryset = Player.objects.all()
    permission_classes = [WriteAccess]

    def get_object(self):
        if self.request.method == "GET":
            merged = Player.everyone.filter(pk=self.kwargs["pk"]).values_list("merged_into", flat=True).first()
            if merged is not None:
                self.kwargs["pk"] = merged
        return super().get_object()

    @extend_schema(request=PlayerUpdateSerializer, responses={200: PlayerSerializer})
    @idempotent
    def patch(self, request, pk):
        data = validated(PlayerUpdateSerializer, request)
        player = services.update_player(actor=actor_for(request), player=self.get_object(), **data)
        return Response(PlayerSerializer(player, context=personal(request)).data)


class PlayerPin(APIView):
    """Set (or reset) a player's PIN, which the player types to accept hands on a referee's phone:
    organisers, and the directors of an event the player is entered in."""

    permission_classes = [WriteAccess]

    @extend_schema(request=PinSerializer, responses={204: None})
    @idempotent
    def post(self, request, pk):
        data = validated(PinSerializer, request)
        player = Player.objects.get(pk=pk)
        services.set_player_pin(actor=actor_for(request), player=player, pin=data["pin"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerMerge(APIView):
    """Merge this player, a duplicate, into the player to keep (organisers): its games, hands and event
    entries become that player's, and it leaves the players list. Answers the kept player."""

    permission_classes = [WriteAccess]

    @extend_schema(request=MergeSerializer, responses={200: PlayerSerializer})
    @idempotent
    def post(self, request, pk):
        data = validated(MergeSerializer, request)
        kept = services.merge_player(actor=actor_for(request), player=Player.objects.get(pk=pk),
                                     into=data["into"])
        return Response(PlayerSerializer(kept, context=personal(request)).data)


class GameFilter(django_filters.FilterSet):
    player = django_filters.CharFilter(method="filter_player", help_text=(
        "a player's id (a merged duplicate's id too) or exact name"))

    class Meta:
        model = Game
        fields = ["status", "format", "is_public", "table_label"]

    def filter_player(self, queryset, name, value):
        match = Q(seats__player__display_name=value)
        if text_id(value) is not None:
            match |= Q(seats__player_id=text_id(value)) | Q(seats__player__aliases=text_id(value))
        return queryset.filter(pk__in=Game.objects.filter(match).values("pk"))


class GameList(generics.ListCreateAPIView):
    serializer_class = GameSerializer
    permission_classes = [WriteAccess]
    filterset_class = GameFilter

    def get_queryset(self):
        return selectors.with_seats(selectors.visible_games(actor_for(self.request)))

    @extend_schema(request=GameCreateSerializer, responses={201: GameSerializer})
    @idempotent
    def post(self, request):
        data = validated(GameCreateSerializer, request)
        game = services.create_game(actor=actor_for(request), **data)
        game = selectors.with_seats(Game.objects.filter(pk=game.pk)).get()
        return Response(GameSerializer(game, context={"request": request}).data, status=status.HTTP_201_CREATED)


def hand_answer(actor: Actor, hand, sheet) -> dict:
    """``HandAnswerSerializer``'s shape, built without a serializer: every recorded hand answers with it.
    ``actor``: the one the write was made as, built once per request."""
    return {"hand": hand_version_data(hand, personal=policy.sees_personal_data(actor)), "sheet": sheet}


def _game(request, pk) -> Game:
    return selectors.game_for_sheet(actor_for(request), pk)


def _game_to_write(pk) -> Game:
    """Only the game's identity (its other fields deferred): the service locks and loads the row itself,
    and a game that does not exist answers 404 from there. Saves a query on the path every hand takes."""
    return Game.from_db(DEFAULT_DB_ALIAS, ["id"], (pk,))


class GameDetail(APIView):
    """A game with the engine's scored sheet of its confirmed hands, and its pending hands."""

    @extend_schema(responses=GameDetailSerializer)
    def get(self, request, pk):
        game, lines = selectors.game_to_answer(actor_for(request), pk)
        data = GameSerializer(game, context={"request": request}).data
        data["sheet"] = counted_sheet(game, lines)
        return Response(data)


def _change_status(request, pk, form_class, service) -> Response:
    data = validated(form_class, request)
    service(actor=actor_for(request), game=_game_to_write(pk), reason=data["reason"])
    return Response(GameSerializer(_game(request, pk), context={"request": request}).data)


class GameAbandon(APIView):
    """Abandon a game (organisers): it is frozen until an organiser reopens it."""

    permission_classes = [WriteAccess]

    @extend_schema(request=AbandonSerializer, responses=GameSerializer)
    @idempotent
    def post(self, request, pk):
        return _change_status(request, pk, AbandonSerializer, services.abandon_game)


class GameReopen(APIView):
    """Reopen an abandoned game (organisers), saying why."""

    permission_classes = [WriteAccess]

    @extend_schema(request=VoidSerializer, responses=GameSerializer)
    @idempotent
    def post(self, request, pk):
        return _change_status(request, pk, VoidSerializer, services.reopen_game)


class GameEndAtTime(APIView):
    """Time is up and no hand is in play: the table ends its game at time (its referees and officials), as the
    entry page's "end the game at time now" does."""

    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses=GameSerializer,
                   summary="End the game at time: the round's clock reads Time and no hand is in play")
    @idempotent
    def post(self, request, pk):
        services.end_game_at_time(actor=actor_for(request), game=_game_to_write(pk))
        return Response(GameSerializer(_game(request, pk), context={"request": request}).data)


class HandList(APIView):
    permission_classes = [WriteAccess]

    @extend_schema(responses=HandVersionSerializer(many=True))
    def get(self, request, pk):
        game = _game(request, pk)
        current = [h for h in game.hands.all() if h.is_current]
        return Response(HandVersionSerializer(current, many=True, context=personal(request)).data)

    @extend_schema(request=dict, responses={201: HandAnswerSerializer})
    @idempotent
    def post(self, request, pk):
        actor = actor_for(request)
        hand, sheet = services.record_hand(actor=actor, game=_game_to_write(pk), data=request.data)
        return Response(hand_answer(actor, hand, sheet), status=status.HTTP_201_CREATED)


class HandConfirm(APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=ConfirmSerializer, responses=HandAnswerSerializer)
    @idempotent
    def post(self, request, pk, number):
        data = validated(ConfirmSerializer, request)
        actor = actor_for(request)
        hand, sheet = services.confirm_hand(
            actor=actor, game=_game_to_write(pk), number=number,
            player_name=data.get("player"), pin=data.get("pin"),
        )
        return Response(hand_answer(actor, hand, sheet))


class HandCorrect(APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=CorrectSerializer, responses={201: HandAnswerSerializer})
    @idempotent
    def post(self, request, pk, number):
        data = validated(CorrectSerializer, request)
        actor = actor_for(request)
        hand, sheet = services.correct_hand(
            actor=actor, game=_game_to_write(pk), number=number,
            data=data["hand"], reason=data["reason"],
        )
        return Response(hand_answer(actor, hand, sheet), status=status.HTTP_201_CREATED)


class HandVoid(APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=VoidSerializer, responses={201: HandAnswerSerializer})
    @idempotent
    def post(self, request, pk, number):
        data = validated(VoidSerializer, request)
        actor = actor_for(request)
        hand, sheet = services.void_hand(
            actor=actor, game=_game_to_write(pk), number=number,
            reason=data["reason"],
        )
        return Response(hand_answer(actor, hand, sheet), status=status.HTTP_201_CREATED)


class HandHistory(APIView):
    @extend_schema(responses=HandVersionSerializer(many=True))
    def get(self, request, pk, number=None):
        game = _game(request, pk)
        versions = [h for h in game.hands.all() if number is None or h.number == number]
        if number is not None and not versions:
            raise SheetError.one(number, None, f"there is no hand {number} in this game")
        return Response(HandVersionSerializer(versions, many=True, context=personal(request)).data)


class Ping(APIView):
    """A trivial authenticated endpoint: the reference for the API benchmark."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=inline_serializer("Pong", {"ok": serializers.BooleanField()}))
    def post(self, request):
        return Response({"ok": True})

