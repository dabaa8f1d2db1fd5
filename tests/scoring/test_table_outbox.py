"""The table's outbox on the server's side: a hand sent from the phone with the id the phone made for it
(``Idempotency-Key``) is recorded once however often and however late it comes (the id is kept with the
hand under a constraint per game, beyond the 24 hours an API key's answer is kept); each answer says in
words what became of the hand; a refused hand records nothing; the PIN sent with a hand is checked once,
never again on a copy. And the service worker that keeps the table's page on the phone."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from core import once
from core.models import OnceKey
from scoring import services
from scoring.models import Hand, PinFailure

from ..factories import as_actor, game, knock, user

pytestmark = pytest.mark.django_db

KNOCK = {"play": "knock:Ann", "knocker_deadwood": "6", "opponent_deadwood": "19", "number": "1"}


@pytest.fixture
def table(client):
    ref = user("referee")
    g = game(referees=[ref])
    client.force_login(ref)
    return g, ref


def send(client, g, key, form=KNOCK, **more):
    return client.post(f"/games/{g.pk}/send/", {**form, **more}, headers={"Idempotency-Key": key})


def test_a_hand_sent_with_the_losers_pin_is_recorded_and_accepted(table, client):
    g, _ = table
    answer = send(client, g, "phone-1", accept_player="Bob", accept_pin="2222")
    assert answer.status_code == 201
    assert answer.json() == {"outcome": "accepted", "message": "Hand 1 recorded and accepted by Bob.",
                             "number": 1, "next_number": 2}
    hand = Hand.objects.get(game=g)
    assert (hand.phone_id, hand.confirmed_by_player.display_name) == ("phone-1", "Bob")


def test_a_hand_sent_again_is_recorded_once_and_answers_as_it_stands(table, client):
    g, _ = table
    send(client, g, "phone-1", accept_player="Bob", accept_pin="2222")
    again = send(client, g, "phone-1", accept_player="Bob", accept_pin="2222")
    assert again.status_code == 200
    assert again.json() == {
        "outcome": "sent_before", "number": 1, "next_number": 2, "accepted": True,
        "message": "Hand 1 was recorded when this phone first sent it (sent again, recorded once)."}
    assert Hand.objects.filter(game=g).count() == 1


def test_a_hand_sent_again_a_week_later_is_still_recorded_once(table, client):
    """Beyond the 24 hours one-time keys are kept: the id stored with the hand still finds it."""
    g, _ = table
    send(client, g, "phone-1")
    Hand.objects.filter(game=g).update(entered_at=timezone.now() - timedelta(days=7))
    OnceKey.objects.update(created_at=timezone.now() - timedelta(days=7))
    once.forget_expired()
    again = send(client, g, "phone-1")
    assert again.json()["outcome"] == "sent_before"
    assert again.json()["accepted"] is False
    assert again.json()["message"].endswith("(sent again, recorded once): it awaits acceptance.")
    assert Hand.objects.filter(game=g).count() == 1


def test_a_wrong_pin_leaves_the_hand_recorded_and_a_copy_tries_no_pin_again(table, client):
    g, _ = table
    answer = send(client, g, "phone-1", accept_player="Bob", accept_pin="9999")
    assert answer.status_code == 201
    assert answer.json()["outcome"] == "not_accepted"
    assert answer.json()["message"].startswith("Hand 1 recorded, not accepted yet: that is not Bob's PIN")
    again = send(client, g, "phone-1", accept_player="Bob", accept_pin="9999")
    assert again.json()["outcome"] == "sent_before"
    assert PinFailure.objects.count() == 1
    assert not Hand.objects.get(game=g).is_confirmed
    # the page asks again: the hand's card says why, beside its PIN box
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert "Hand 1 awaits Bob" in page
    assert "that is not Bob&#x27;s PIN" in page


def test_a_hand_the_server_refuses_records_nothing_and_says_why(table, client):
    g, _ = table
    answer = send(client, g, "phone-1", {"number": "1"})
    assert answer.status_code == 400
    assert answer.json()["outcome"] == "refused"
    assert answer.json()["message"] == ("Hand 1 not recorded: Choose the result: who knocked or went gin, "
                                        "or a dead hand.")
    assert not Hand.objects.filter(game=g).exists()


def test_a_hand_made_for_a_number_already_recorded_elsewhere_is_refused_in_words(table, client):
    g, ref = table
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Bob", 2, 30))
    answer = send(client, g, "phone-1")
    assert answer.status_code == 400
    assert answer.json()["message"] == ("Hand 1 not recorded: hand 1 is already recorded (this form was made "
                                        "for it); the next hand is 2. Hand 1: Bob knocks with 2, Ann has 30: "
                                        "Bob scores 28 (+1 box).")
    assert answer.json()["next_number"] == 2
    assert Hand.objects.filter(game=g).count() == 1


def test_a_mistyped_pin_records_nothing(table, client):
    g, _ = table
    answer = send(client, g, "phone-1", accept_player="Bob", accept_pin="12")
    assert answer.status_code == 400
    assert "PIN" in answer.json()["message"]
    assert not Hand.objects.filter(game=g).exists()
    assert PinFailure.objects.count() == 0


def test_a_copy_of_the_hand_that_ended_the_game_still_answers_with_that_hand(client):
    ref = user("referee")
    g = game(referees=[ref], requires_confirmation=False)
    client.force_login(ref)
    for _ in range(3):
        services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 1, 30))
    last = {"play": "knock:Ann", "knocker_deadwood": "1", "opponent_deadwood": "30", "number": "4"}
    first = send(client, g, "phone-4", last)
    assert (first.status_code, first.json()["outcome"]) == (201, "accepted")
    g.refresh_from_db()
    assert g.status == "complete"
    again = send(client, g, "phone-4", last)
    assert (again.status_code, again.json()["outcome"], again.json()["number"]) == (200, "sent_before", 4)
    assert Hand.objects.filter(game=g).count() == 4


def test_without_the_phones_id_nothing_is_recorded(table, client):
    g, _ = table
    answer = client.post(f"/games/{g.pk}/send/", KNOCK)
    assert answer.status_code == 400
    assert "Idempotency-Key" in answer.json()["message"]
    assert not Hand.objects.filter(game=g).exists()


def test_only_the_games_officials_may_send_a_hand(client):
    g = game()
    client.force_login(user("stranger"))
    answer = send(client, g, "phone-1")
    assert answer.status_code == 403
    assert answer.json()["message"] == "Hand 1 not recorded: only an organiser or this game's referee may " \
                                       "record hands in it."
    client.logout()
    assert send(client, g, "phone-1").status_code == 403
    assert not Hand.objects.filter(game=g).exists()


def test_a_private_game_answers_not_found_to_an_outsider(client):
    g = game(is_public=False)
    client.force_login(user("stranger"))
    assert send(client, g, "phone-1").status_code == 404


def test_the_phones_id_is_unique_within_a_game_and_only_on_an_entry(table):
    g, ref = table
    other = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19), phone_id="same")
    services.record_hand(actor=as_actor(ref), game=other, data=knock("Ann", 6, 19), phone_id="same")
    hand = Hand.objects.get(game=g)
    with pytest.raises(IntegrityError, match="phone_id"), transaction.atomic():
        Hand.objects.filter(pk=Hand.objects.get(game=other).pk).update(
            game=g, number=2, slot=f"{g.pk}:2", previous_slot=f"{g.pk}:1")
    with pytest.raises(IntegrityError, match="hand_phone_id_only_on_the_entry"), transaction.atomic():
        Hand.objects.create(game=g, number=1, version=2, action="void", phone_id="another", entered_by=ref,
                            entered_at=timezone.now(), is_current=False)
    assert hand.phone_id == "same"


def test_the_service_raises_sent_before_with_the_hand_as_it_stands(table):
    g, ref = table
    first, _ = services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19), phone_id="p")
    with pytest.raises(services.SentBefore) as sent:
        services.record_hand(actor=as_actor(ref), game=g, data=knock("Bob", 2, 30), phone_id="p")
    assert (sent.value.hand.pk, sent.value.hand.number) == (first.pk, 1)


def test_the_entry_page_brings_its_outbox_and_who_has_a_pin(table, client):
    g, _ = table
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert f'data-send="/games/{g.pk}/send/"' in page
    assert 'data-worker="/table-worker.js"' in page
    assert 'data-pin-players="[&quot;Ann&quot;, &quot;Bob&quot;]"' in page
    assert page.index("js/outbox.js") < page.index("js/entry.js")


def test_the_service_worker_is_served_from_the_root_with_the_pages_assets(client):
    answer = client.get("/table-worker.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Cache-Control"] == "no-cache"
    text = answer.content.decode()
    for asset in ("/static/css/site.css", "/static/js/entry.js", "/static/js/outbox.js"):
        assert f'"{asset}"' in text
    assert 'const VERSION = "' in text
    assert 'const VERSION = ""' not in text


def test_a_table_link_sends_hands_until_it_expires_and_then_says_to_open_it_again(client):
    from scoring.models import RefereeLink

    from ..factories import organiser

    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    client.post("/r/", {"token": link.token})
    assert send(client, g, "phone-1").json()["outcome"] == "recorded"
    assert Hand.objects.get(game=g).entered_via == link
    RefereeLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    answer = send(client, g, "phone-2", {**KNOCK, "number": "2"})
    assert answer.status_code == 403
    assert answer.json()["message"] == ("Hand 2 not recorded: this phone is no longer signed in: sign in (or "
                                        "open the table's link) again, then send it.")
    assert Hand.objects.filter(game=g).count() == 1
