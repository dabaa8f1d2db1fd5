"""PINs: a keyed hash (HMAC-SHA256 under the server's key, a salt each, the key's id to rotate it), at
most 5 wrong ones per player per 15 minutes (counted in the database), the caller's role checked
before the PIN, the PIN checked under the game's lock, ASCII digits only."""

import hashlib
import hmac
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from core.refusals import Refusal
from scoring import pins, services
from scoring.models import Hand, PinFailure, Player
from scoring.policy import NotAllowed

from ..factories import as_actor, game, knock, organiser, user
from .test_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending():
    """Ann's knock entered by the referee, awaiting Bob's PIN (2222)."""
    ref = user("referee")
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    return g, as_actor(ref)


def bob(g):
    return g.seats.get(position=1).player


def guess(g, actor, pin):
    return services.confirm_hand(actor=actor, game=g, number=1, player_name="Bob", pin=pin)


def test_five_wrong_pins_lock_the_player_out_for_15_minutes_even_for_the_right_pin(pending):
    g, ref = pending
    for i in range(4):
        with pytest.raises(NotAllowed, match=f"that is not Bob's PIN \\({4 - i} more tr"):
            guess(g, ref, f"000{i}")
    with pytest.raises(services.PinLocked, match=r"Too many wrong PINs for Bob: try again at \d\d:\d\d"):
        guess(g, ref, "0004")
    with pytest.raises(services.PinLocked, match="try again at"):
        guess(g, ref, "2222")
    assert PinFailure.objects.filter(player=bob(g)).count() == 5
    assert not Hand.objects.get(game=g).is_confirmed
    # the lockout is in the database: 15 minutes later (for any worker) the right PIN works again
    PinFailure.objects.update(failed_at=timezone.now() - timedelta(minutes=15, seconds=1))
    guess(g, ref, "2222")
    assert Hand.objects.get(game=g).is_confirmed


def test_the_lockout_names_the_time_the_pin_works_again(pending, settings):
    g, ref = pending
    settings.TIME_ZONE = "Europe/London"
    first = timezone.now() - timedelta(minutes=3)
    for _ in range(5):
        PinFailure.objects.create(player=bob(g), actor="elsewhere")
    PinFailure.objects.update(failed_at=first)
    until = timezone.localtime(first + timedelta(minutes=15, seconds=59))
    with pytest.raises(services.PinLocked) as caught:
        guess(g, ref, "2222")
    assert f"try again at {until:%H:%M}" in str(caught.value)


def test_the_api_answers_a_locked_pin_with_429_and_retry_after(pending):
    g, _ = pending
    api = client_for(g.referees.get())
    url = f"/api/v1/games/{g.pk}/hands/1/confirm/"
    codes = [api.post(url, {"player": "Bob", "pin": "9999"}, format="json").status_code for _ in range(6)]
    assert codes == [403, 403, 403, 403, 429, 429]
    locked = api.post(url, {"player": "Bob", "pin": "2222"}, format="json")
    assert locked.status_code == 429
    assert 800 <= int(locked["Retry-After"]) <= 900
    assert locked.json()["errors"][0]["field"] == "pin"


def test_failures_are_counted_even_when_the_request_carries_an_idempotency_key(pending):
    g, _ = pending
    api = client_for(g.referees.get())
    url = f"/api/v1/games/{g.pk}/hands/1/confirm/"
    for i in range(5):
        api.post(url, {"player": "Bob", "pin": "9999"}, format="json", HTTP_IDEMPOTENCY_KEY=f"guess-{i}")
    assert PinFailure.objects.filter(player=bob(g)).count() == 5
    assert api.post(url, {"player": "Bob", "pin": "2222"}, format="json").status_code == 429


def test_the_web_confirm_form_says_when_to_try_again(pending, client):
    g, _ = pending
    client.force_login(g.referees.get())
    for _ in range(5):
        client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Bob", "pin": "9999"})
    page = client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Bob", "pin": "2222",
                                                          "next": f"/games/{g.pk}/enter/"}, follow=True)
    assert "Too many wrong PINs for Bob: try again at" in page.content.decode()
    assert not Hand.objects.get(game=g).is_confirmed


@pytest.mark.parametrize("who", ["signed_in_stranger", "other_games_link", "anonymous_session"])
@pytest.mark.parametrize("pin", ["2222", "9999"])
def test_a_caller_without_a_role_learns_nothing_from_a_pin_guess(pending, who, pin):
    g, _ = pending
    org = organiser()
    other = game(names=("Cat", "Dan"), by=org)
    actor = {"signed_in_stranger": as_actor(user()),
             "other_games_link": as_actor(link=services.create_referee_link(actor=as_actor(org), game=other)),
             "anonymous_session": as_actor()}[who]
    with pytest.raises(NotAllowed) as caught:
        guess(g, actor, pin)
    assert str(caught.value) == "only a player of this game or an official may confirm its hands"
    assert not PinFailure.objects.exists()
    assert not Hand.objects.get(game=g).is_confirmed


@pytest.mark.parametrize("pin", ["2222", "9999"])
def test_on_a_private_game_a_stranger_gets_the_same_answer_for_a_right_or_wrong_pin(pin):
    ref = user()
    g = game(referees=[ref], is_public=False)
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    answer = client_for(user()).post(f"/api/v1/games/{g.pk}/hands/1/confirm/", {"player": "Bob", "pin": pin},
                                     format="json")
    assert answer.status_code == 404  # the game does not exist for whoever may not read it
    assert answer.json()["errors"][0]["message"] == "not found"
    assert not PinFailure.objects.exists()


def test_the_pin_is_checked_under_the_games_lock_in_the_confirming_transaction(pending, monkeypatch):
    g, ref = pending
    order = []
    real_lock, real_check = services.hands.lock_game, pins.check_pin
    monkeypatch.setattr(services.hands, "lock_game", lambda *a, **k: order.append("lock game") or real_lock(*a, **k))
    monkeypatch.setattr(pins, "check_pin", lambda *a: order.append("check PIN") or real_check(*a))
    guess(g, ref, "2222")
    assert order == ["lock game", "check PIN"]
    assert Hand.objects.get(game=g).confirmed_by_player == bob(g)


def test_a_pin_is_stored_as_a_keyed_hash_with_a_salt_of_its_own_and_the_keys_id(pending):
    g, _ = pending
    stored = bob(g).confirm_pin
    scheme, key_id, salt, digest = stored.split("$")
    assert (scheme, key_id, len(salt), len(digest)) == ("hmac-sha256", "dev", 16, 64)
    assert "2222" not in (scheme, key_id, salt, digest)  # not "in stored": hex digits may spell it by chance
    expected = hmac.new(django_settings.PIN_KEYS["dev"], f"{salt}$2222".encode(), hashlib.sha256).hexdigest()
    assert digest == expected  # the PIN only as the key's HMAC of salt and PIN
    other = pins.hash_pin("2222")
    assert other != stored
    assert other.split("$")[2] != salt  # the same PIN, another salt


def test_a_database_alone_does_not_reveal_a_pin_the_key_is_needed(pending, settings):
    g, _ = pending
    stored = bob(g).confirm_pin
    assert pins.check_pin("2222", stored).matches
    settings.PIN_KEYS = {"dev": b"someone-elses-key-0123456789"}
    assert not any(pins.check_pin(f"{n:04d}", stored).matches for n in range(10000))


def test_an_old_pbkdf2_pin_works_and_is_stored_under_the_key_on_its_next_right_entry(pending, settings):
    g, ref = pending
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    old = PBKDF2PasswordHasher().encode("2222", "an-old-salt", iterations=1000)  # as make_password kept it
    Player.objects.filter(pk=bob(g).pk).update(confirm_pin=old)
    with pytest.raises(NotAllowed):
        guess(g, ref, "9999")
    assert bob(g).confirm_pin.startswith("pbkdf2_sha256$")  # a wrong PIN upgrades nothing
    guess(g, ref, "2222")
    assert bob(g).confirm_pin.startswith("hmac-sha256$dev$")
    assert pins.check_pin("2222", bob(g).confirm_pin).matches


def test_keys_rotate_an_older_keys_pin_still_works_and_moves_to_the_current_key(pending, settings):
    g, ref = pending
    settings.PIN_KEYS = {"k2": b"the-new-key-0123456789", "dev": b"ginscore-development-only-pin-key"}
    assert bob(g).confirm_pin.split("$")[1] == "dev"
    guess(g, ref, "2222")
    assert bob(g).confirm_pin.split("$")[1] == "k2"


def test_a_pin_under_a_key_no_longer_listed_is_a_loud_configuration_error(pending, settings):
    g, ref = pending
    settings.PIN_KEYS = {"k2": b"the-new-key-0123456789"}
    with pytest.raises(ImproperlyConfigured, match="PIN key 'dev' is no longer in PIN_KEYS"):
        guess(g, ref, "2222")
    assert not Hand.objects.get(game=g).is_confirmed
    assert not PinFailure.objects.exists()


def test_production_refuses_to_start_without_pin_keys(settings):
    from scoring.checks import pin_keys_are_set

    settings.PIN_KEYS = {}
    assert [e.id for e in pin_keys_are_set(None)] == ["scoring.E002"]


@pytest.mark.parametrize("pin", ["١٢٣٤", "۱۲۳۴", "１２３４", "12a4", "123"])
def test_a_pin_is_ascii_digits_on_every_path(pin, client):
    org = organiser()
    with pytest.raises(Exception, match="4 to 8 digits"):
        services.create_player(actor=as_actor(org), display_name="Zed", pin=pin)
    api = client_for(org)
    created = api.post("/api/v1/players/", {"display_name": "Zed", "pin": pin}, format="json")
    assert (created.status_code, created.json()["errors"][0]["field"]) == (400, "pin")
    ann = services.create_player(actor=as_actor(org), display_name="Ann", pin="1111")
    assert api.post(f"/api/v1/players/{ann.pk}/pin/", {"pin": pin}, format="json").status_code == 400
    client.force_login(org)
    page = client.post("/players/new/", {"display_name": "Web Zed", "pin": pin}).content.decode()
    assert "4 to 8 digits" in page
    assert not Player.objects.filter(display_name__in=["Zed", "Web Zed"]).exists()


@pytest.mark.parametrize("pin", ["12", "12a4", "123456789", ""])
def test_a_mistyped_pin_spends_no_try(pending, pin):
    """A PIN that cannot be anyone's (too short, not digits) is a typing slip: it is said so, not counted."""
    g, ref = pending
    with pytest.raises(Refusal, match="a PIN is 4 to 8 digits"):
        guess(g, ref, pin)
    assert not PinFailure.objects.exists()
    assert not Hand.objects.get(game=g).is_confirmed


def test_the_accept_card_offers_no_pin_box_while_the_pin_is_locked_and_says_until_when(pending, client):
    from scoring import selectors

    g, ref = pending
    for i in range(5):
        with pytest.raises(NotAllowed):
            guess(g, ref, f"000{i}")
    assert set(selectors.pin_locks([bob(g).pk])) == {bob(g).pk}
    client.force_login(ref.user)
    page = client.get(f"/games/{g.pk}/enter/").content.decode()
    assert "Bob&#x27;s PIN is locked after too many wrong tries: try again at" in page
    assert 'name="pin"' not in page.split('id="accept-1"')[1].split("</section>")[0]
    PinFailure.objects.update(failed_at=timezone.now() - timedelta(minutes=15, seconds=1))
    assert selectors.pin_locks([bob(g).pk]) == {}
    assert 'name="pin"' in client.get(f"/games/{g.pk}/enter/").content.decode()
