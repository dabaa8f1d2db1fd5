"""Whole numbers read in one place (``core.reading``): ids, round and hand numbers are JSON integers
in bodies and ASCII digits in URLs, query strings and forms; a float, a boolean, "²", "١٢" or 30
digits is refused in words (or is "not found"), never read as something else and never a 500."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import reading
from scoring import services
from scoring.models import Game, Player

from ..factories import as_actor, game, knock, organiser, user
from ..scoring.test_api import client_for

NOT_IDS = [1.5, 1.0, True, False, "1", "٣", None, [1], {"id": 1}, 0, -1, 2**63]


@pytest.mark.parametrize("value", NOT_IDS)
def test_a_json_id_is_a_json_integer_in_range_and_nothing_else(value):
    with pytest.raises(reading.NotANumber):
        reading.json_number(value, low=1)


@pytest.mark.parametrize("text", ["²", "¹²", "١٢", "１２", "1.0", "1e3", "-1", "0x10", "1" * 30, "1_000", "12a"])
def test_an_id_in_text_is_ascii_digits_in_range_and_nothing_else(text):
    with pytest.raises(reading.NotANumber):
        reading.text_number(text)
    assert reading.text_id(text) is None


def test_text_numbers_read_ascii_digits_and_blank_is_none():
    assert reading.text_number(" 42 ") == 42
    assert reading.text_number("") is None
    assert reading.text_number(None) is None
    assert reading.text_id("007") == 7
    with pytest.raises(reading.NotANumber, match="from 1 to 9; 10 given"):
        reading.text_number("10", low=1, high=9)


@given(st.text(max_size=30))
def test_any_text_is_read_as_its_ascii_digits_or_refused_in_words(text):
    try:
        number = reading.text_number(text)
    except reading.NotANumber as exc:
        str(exc).encode("utf-8")  # the message can always be sent
        return
    stripped = text.strip()
    assert (number is None and stripped == "") or (stripped.isascii() and int(stripped) == number)


def test_a_message_shows_a_lone_surrogate_escaped():
    with pytest.raises(reading.NotANumber) as refused:
        reading.json_number("\ud800")
    assert "\\ud800" in str(refused.value)
    str(refused.value).encode("utf-8")


@pytest.mark.django_db
@pytest.mark.parametrize("bad", [1.5, True, "1", 1.0])
def test_game_players_and_referees_are_ids_never_floats_booleans_or_text(bad):
    org = organiser()
    ann, bob = (services.create_player(actor=as_actor(org), display_name=n) for n in ("Ann", "Bob"))
    api = client_for(org)
    for body, field in (({"players": [ann.pk if bad != 1.0 else bad, bad]}, "players"),
                        ({"players": [ann.pk, bob.pk], "referees": [bad]}, "referees"),
                        ({"players": [ann.pk, bob.pk], "first_dealer": bad}, "first_dealer")):
        refused = api.post("/api/v1/games/", body, format="json")
        assert refused.status_code == 400, body
        assert refused.json()["errors"][0]["field"].split(".")[0] == field
        assert "whole number" in refused.json()["errors"][0]["message"]
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_ids_and_hand_numbers_in_urls_are_ascii_digits_of_at_most_18():
    org = organiser()
    g = game(by=org)
    api = client_for(org)
    for url in ("/api/v1/games/²/", "/api/v1/games/١/", f"/api/v1/games/{'9' * 19}/", f"/api/v1/players/{'1' * 30}/",
                f"/api/v1/games/{g.pk}/hands/²/history/"):
        assert api.get(url).status_code == 404, url
    assert api.post(f"/api/v1/games/{g.pk}/hands/¹/confirm/", {}, format="json").status_code == 404
    assert client_for().get(f"/games/{'1' * 30}/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "١", "1" * 30, "x"])
def test_a_games_filter_by_player_that_is_no_id_finds_by_name_only(value):
    g = game()
    listed = client_for().get(f"/api/v1/games/?player={value}")
    assert listed.status_code == 200
    assert listed.json()["count"] == 0
    assert client_for().get(f"/api/v1/games/?player={g.seats.first().player_id}").json()["count"] == 1


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "١", "1" * 30])
def test_the_entry_page_reads_its_hand_numbers_as_ascii_digits(client, value):
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    client.force_login(ref)
    page = client.post(f"/games/{g.pk}/enter/", {"number": value, "result": "knock", "knocker": "Ann"})
    assert page.status_code == 200
    preview = client.post(f"/games/{g.pk}/preview/?correct={value}", {"result": "gin", "knocker": "Ann",
                                                                       "opponent_deadwood": "20"})
    assert preview.status_code == 200
    assert preview.json()["hand"]["number"] == 2  # not a correction of any hand: the next hand


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["١", "1" * 30, "²"])
def test_a_new_game_form_refuses_a_player_that_is_no_id_on_the_form(client, value):
    org = organiser()
    _ann, bob = (services.create_player(actor=as_actor(org), display_name=n) for n in ("Ann", "Bob"))
    client.force_login(org)
    page = client.post("/games/new/", {"format": "standard", "player_1": value, "player_2": bob.pk,
                                       "preset": "classic", "referees": [value]})
    assert page.status_code == 200
    assert "Select a valid choice" in page.content.decode()
    assert "is not one of the choices" in page.content.decode()
    assert Game.objects.count() == 0
    assert Player.objects.count() == 2
