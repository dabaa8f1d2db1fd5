"""The API of players signing up themselves: an event's sign-ups (``POST`` by anyone while registration is open;
the list for its directors), a director moving a waitlisted player in, and each player's own link (``GET`` it
to see where the sign-up stands, ``POST .../withdraw/`` to withdraw). A private event's sign-up answers only
with its key (``?key=``); without it the event is a 404, as everywhere else.

Views parse the body, call one service, answer."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import validated
from scoring.actors import actor_for
from scoring.api.idempotency import idempotent
from scoring.api.views import WriteAccess
from tournaments import policy, selectors, services
from tournaments.models import Registration

from .views import TAG, EventErrorsMixin

KEY = OpenApiParameter("key", OpenApiTypes.STR, description="a private event's sign-up key (from its link)")


class SignUpSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, allow_blank=True, help_text="as shown in the pairings")
    email = serializers.CharField(max_length=254, allow_blank=True, help_text="an existing player is found by it")
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    pin = serializers.CharField(max_length=20, required=False, allow_blank=True, default="",
                                help_text="4 to 8 digits: a new player's PIN, or an existing player's own")
    website = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                    help_text="leave empty (a field for robots)")


class SignedUpSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    entry = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    position = serializers.IntegerField(allow_null=True, help_text="waitlisted: the place in the queue (1 is next)")
    manage_url = serializers.URLField(help_text="the player's own link (its token is the only credential): "
                                                "GET it, POST withdraw/ or byes/ under it; shown in this "
                                                "answer only")


class RegistrationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    position = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class MyRegistrationSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    position = serializers.IntegerField(allow_null=True)
    event = serializers.IntegerField()
    entry = serializers.IntegerField(allow_null=True)
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="the rounds asked to sit out")


def manage_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("tournaments-api:my-registration", args=[token]))


def registration_row(registration: Registration, position: int | None) -> dict:
    return {"id": registration.pk, "name": registration.player.display_name, "email": registration.email,
            "status": registration.status, "position": position, "entry": registration.entry_id,
            "created_at": registration.created_at}


class EventRegistrations(EventErrorsMixin, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RegistrationSerializer(many=True), tags=TAG,
                   summary="The event's sign-ups, waitlisted ones with their place (its directors)")
    def get(self, request, pk):
        event = selectors.readable_event(actor_for(request), pk)
        policy.require_director(actor_for(request), event, "see the sign-ups")
        return Response([registration_row(r, p) for r, p in selectors.registrations(event)])

    @extend_schema(request=SignUpSerializer, responses={201: SignedUpSerializer}, parameters=[KEY], tags=TAG,
                   summary="Sign up for an event open for registration (anyone; a private event with its key)")
    @idempotent
    def post(self, request, pk):
        request.data  # noqa: B018  (read first, as every write: a body that is not a JSON object is a 400)
        event = selectors.sign_up_event(actor_for(request), pk, request.query_params.get("key", ""))
        data = validated(SignUpSerializer, request)
        signed = services.register(actor=actor_for(request), event=event, name=data["name"], email=data["email"],
                                   club=data["club"], pin=data["pin"], honeypot=data["website"])
        registration = signed.registration
        return Response({"id": registration.pk, "entry": registration.entry_id, "status": registration.status,
                         "position": signed.position, "manage_url": manage_url(request, signed.token)}, status=201)


class RegistrationEnter(EventErrorsMixin, APIView):
    permission_classes = [WriteAccess]

    @extend_schema(request=None, responses=RegistrationSerializer, tags=TAG,
                   summary="Move a waitlisted player in (the event's directors)")
    @idempotent
    def post(self, request, pk, registration_id):
        event = selectors.readable_event(actor_for(request), pk)
        registration = Registration.objects.select_related("player").get(pk=registration_id, event=event)
        entered = services.enter_from_waitlist(actor=actor_for(request), registration=registration)
        return Response(registration_row(entered, None))


def _mine(token: str) -> Registration:
    registration = services.registration_by_token(token)
    if registration is None:
        raise Registration.DoesNotExist("no sign-up has this link")
    return registration


def my_registration(registration: Registration) -> dict:
    return {"status": registration.status, "position": services.position_of(registration),
            "event": registration.event_id, "entry": registration.entry_id,
            "byes": selectors.requested_byes(registration.entry_id)}


class MyRegistration(EventErrorsMixin, APIView):
    permission_classes = [AllowAny]
    authentication_classes = []  # the link's token is the credential: no session, no CSRF

    @extend_schema(responses=MyRegistrationSerializer, tags=TAG, summary="Where my sign-up stands (my own link)")
    def get(self, request, token):
        return Response(my_registration(_mine(token)))


class MyWithdrawal(EventErrorsMixin, APIView):
    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(request=None, responses=MyRegistrationSerializer, tags=TAG,
                   summary="Withdraw (my own link): before round 1 the first waitlisted player takes the place")
    def post(self, request, token):
        request.data  # noqa: B018  (read first, as every write: a body that is not a JSON object is a 400)
        return Response(my_registration(services.withdraw(registration=_mine(token))))

