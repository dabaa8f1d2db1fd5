"""The hand answer every recorded hand gets is built directly (the record path's profile showed the
field-by-field serializer): it must stay exactly what the serializer's declared fields give."""

import pytest
from rest_framework import serializers

from scoring import services
from scoring.api.serializers import HandVersionSerializer
from scoring.models import Hand

from ..factories import as_actor, game, knock, organiser, user

pytestmark = pytest.mark.django_db


def field_by_field(hand, personal):
    declared = HandVersionSerializer(hand, context={"personal_data": personal})
    return serializers.Serializer.to_representation(declared, hand)


@pytest.mark.parametrize("personal", [True, False])
def test_the_direct_hand_answer_is_what_the_declared_fields_give(personal):
    org, ref = organiser(), user("ref")
    g = game(referees=[ref], by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    services.record_hand(actor=as_actor(link=link), game=g, data=knock("Ann", 6, 19))  # a link's, pending
    services.confirm_hand(actor=as_actor(ref), game=g, number=1, player_name="Bob", pin="2222")  # a PIN's
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Bob", 2, 30))  # a user's
    services.confirm_hand(actor=as_actor(link=link), game=g, number=2)  # confirmed by the link
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 3, 9))  # still pending
    services.void_hand(actor=as_actor(ref), game=g, number=3, reason="wrong table")
    relaxed = game(requires_confirmation=False, by=org)
    services.record_hand(actor=as_actor(org), game=relaxed, data=knock("Ann", 1, 9))  # no confirmation needed
    hands = list(Hand.objects.select_related("entered_by", "entered_via", "confirmed_by", "confirmed_via",
                                             "confirmed_by_player"))
    assert len(hands) == 5
    for hand in hands:
        assert HandVersionSerializer(hand, context={"personal_data": personal}).data == field_by_field(hand, personal)
    assert ("entered_from" in HandVersionSerializer(hands[0], context={"personal_data": personal}).data) is personal


def test_the_direct_game_answer_is_what_the_model_serializers_fields_give():
    from rest_framework.test import APIRequestFactory

    from scoring.api.serializers import GameSerializer
    from scoring.models import Game

    org = organiser()
    g = game(by=org, names=("Ann", "Bob", "Cat"), fmt="rotation", pins=("1111", "2222", "3333"))
    services.record_hand(actor=as_actor(org), game=g, data=knock("Bob", 6, 19))
    nobody_made = Game.objects.filter(pk=game(by=org).pk)
    nobody_made.update(created_by=None, table_label="Table 7", is_public=False)
    request = APIRequestFactory().get("/api/v1/games/")
    for stored in Game.objects.select_related("created_by"):
        declared = GameSerializer(stored, context={"request": request})
        assert declared.data == serializers.ModelSerializer.to_representation(declared, stored)
    assert {GameSerializer(x, context={"request": request}).data["created_by"] for x in Game.objects.all()} == \
        {org.username, None}
