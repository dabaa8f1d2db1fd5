"""Recording a hand and accepting it in one tap on the entry page: the PIN typed under the hand read
back. The hand is recorded by ``record_hand`` and accepted by ``confirm_hand`` with every rule of the
two: a refused acceptance leaves the hand recorded and pending, a refused hand records nothing and no
PIN is looked at, a form sent twice tries no PIN twice; who has a PIN is told only to the game's
officials."""

import pytest

from core.refusals import Refusal
from scoring import services
from scoring.models import Hand, PinFailure

from ..factories import as_actor, game, knock, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    ref = user("referee")
    return game(referees=[ref]), ref


def test_the_hand_is_recorded_and_accepted_by_the_player_it_goes_against(table):
    g, ref = table
    hand, _ = services.record_and_accept_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19),
                                              player_name="Bob", pin="2222")
    hand.refresh_from_db()
    assert (hand.number, hand.confirmed_by_player.display_name, hand.entered_by) == (1, "Bob", ref)


def test_a_wrong_pin_leaves_the_hand_recorded_and_pending_and_counts_one_try(table):
    g, ref = table
    with pytest.raises(services.NotAccepted, match="that is not Bob's PIN") as refused:
        services.record_and_accept_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19),
                                        player_name="Bob", pin="9999")
    assert refused.value.hand.number == 1
    assert not Hand.objects.get(game=g).is_confirmed
    assert PinFailure.objects.filter(player__display_name="Bob").count() == 1


def test_the_winner_cannot_accept_it_and_no_pin_of_theirs_is_tried(table):
    g, ref = table
    with pytest.raises(services.NotAccepted, match="Ann cannot accept this hand"):
        services.record_and_accept_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19),
                                        player_name="Ann", pin="1111")
    assert not Hand.objects.get(game=g).is_confirmed
    assert PinFailure.objects.count() == 0


def test_a_hand_the_engine_refuses_records_nothing_and_tries_no_pin(table):
    g, ref = table
    with pytest.raises(Refusal, match="deadwood"):
        services.record_and_accept_hand(actor=as_actor(ref), game=g, data=knock("Ann", 12, 19),
                                        player_name="Bob", pin="9999")
    assert not Hand.objects.filter(game=g).exists()
    assert PinFailure.objects.count() == 0


def test_a_form_sent_twice_records_once_and_tries_the_pin_once(table, client):
    g, ref = table
    client.force_login(ref)
    form = {"play": "knock:Ann", "knocker_deadwood": "6", "opponent_deadwood": "19", "once": "k" * 16,
            "number": "1", "accept_player": "Bob", "accept_pin": "9999"}
    client.post(f"/games/{g.pk}/enter/", form)
    again = client.post(f"/games/{g.pk}/enter/", form, follow=True).content.decode()
    assert "Nothing recorded" in again
    assert Hand.objects.filter(game=g).count() == 1
    assert PinFailure.objects.count() == 1


def test_the_entry_page_says_recorded_and_accepted(table, client):
    g, ref = table
    client.force_login(ref)
    page = client.post(f"/games/{g.pk}/enter/", {"play": "gin:Bob", "opponent_deadwood": "31",
                                                 "accept_player": "Ann", "accept_pin": "1111"}, follow=True)
    assert "Hand 1 recorded and accepted by Ann." in page.content.decode()
    assert Hand.objects.get(game=g).confirmed_by_player.display_name == "Ann"


@pytest.mark.parametrize("pin", ["12a4", "123", "123456789"])
def test_a_mistyped_pin_sends_the_form_back_recording_nothing_and_spending_no_try(table, client, pin):
    g, ref = table
    client.force_login(ref)
    page = client.post(f"/games/{g.pk}/enter/", {"play": "knock:Ann", "knocker_deadwood": "6",
                                                 "opponent_deadwood": "19", "accept_player": "Bob",
                                                 "accept_pin": pin}).content.decode()
    assert "Hand 1 not recorded" in page
    assert "a PIN is 4 to 8 digits (0-9): type it again" in page
    assert not Hand.objects.filter(game=g).exists()
    assert PinFailure.objects.count() == 0


def test_a_pin_without_a_player_chosen_is_sent_back_never_tried_against_anyone(table, client):
    g, ref = table
    client.force_login(ref)
    page = client.post(f"/games/{g.pk}/enter/", {"play": "dead", "accept_pin": "2222"}).content.decode()
    assert "Choose who is accepting: tap your name, then type your PIN" in page
    assert not Hand.objects.filter(game=g).exists()
    assert PinFailure.objects.count() == 0


def test_only_an_official_learns_from_the_preview_who_may_accept_with_a_pin(table, client):
    g, ref = table
    hand = {"play": "knock:Ann", "knocker_deadwood": "6", "opponent_deadwood": "19"}
    anyone = client.post(f"/games/{g.pk}/preview/", hand).json()  # a public game: anyone sees its preview
    assert (anyone["accepters"], anyone["accept"]) == (["Bob"], {"pin_players": []})
    client.force_login(ref)
    assert client.post(f"/games/{g.pk}/preview/", hand).json()["accept"] == {"pin_players": ["Bob"]}
    no_pin = game(names=("Cy", "Di"), pins=("1111", ""), referees=[ref])
    answer = client.post(f"/games/{no_pin.pk}/preview/", {"play": "knock:Cy", "knocker_deadwood": "6",
                                                         "opponent_deadwood": "19"}).json()
    assert answer["accept"] == {"pin_players": []}  # Di has no PIN: no box to type into
    # a correction is accepted later, on its card: its preview offers no PIN box
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    assert "accept" not in client.post(f"/games/{g.pk}/preview/?correct=1", hand).json()
