"""Players for organisers: found by part of a name with case and accents aside, renamed and moved between
clubs (names stay unique in a club; games made keep their names), PINs set and reset."""

import pytest

from scoring import pins, services
from scoring.models import Player
from scoring.policy import NotAllowed

from ..factories import api_client, as_actor, game, organiser, player, user

pytestmark = pytest.mark.django_db


def test_players_are_found_by_part_of_a_name_with_case_and_accents_aside():
    for name in ("Pétur Þórðarson", "Peter Pan", "Zoë", "Ann"):
        player(name)
    api = api_client(organiser())

    def found(search):
        return [p["display_name"] for p in api.get("/api/v1/players/", {"search": search}).json()["results"]]

    assert found("petur") == ["Pétur Þórðarson"]
    assert found("THORDARSON") == ["Pétur Þórðarson"]
    assert found("pet") == ["Peter Pan", "Pétur Þórðarson"]
    assert found("zoe") == ["Zoë"]
    assert found("") == ["Ann", "Peter Pan", "Pétur Þórðarson", "Zoë"]
    assert found("nobody") == []


def test_only_organisers_see_who_has_a_pin():
    player("Ann", pin="1234")
    player("Bob")
    rows = api_client(organiser()).get("/api/v1/players/").json()["results"]
    assert [(p["display_name"], p["has_pin"]) for p in rows] == [("Ann", True), ("Bob", False)]
    assert "has_pin" not in api_client(user()).get("/api/v1/players/").json()["results"][0]


def test_an_organiser_renames_a_player_and_the_games_made_keep_their_names():
    org = organiser()
    g = game(by=org, names=("Ann", "Bob"))
    ann = Player.objects.get(display_name="Ann")
    answer = api_client(org).patch(f"/api/v1/players/{ann.pk}/", {"display_name": "Ann Lee", "club": "Riverside"},
                                   format="json")
    assert answer.status_code == 200, answer.json()
    assert (answer.json()["display_name"], answer.json()["club"]) == ("Ann Lee", "Riverside")
    g.refresh_from_db()
    assert g.player_names == ["Ann", "Bob"]


def test_a_rename_onto_a_name_the_club_has_is_refused_naming_it_and_changes_nothing():
    org = organiser()
    player("Gail", club="Riverside")
    ann = player("Ann", club="Riverside")
    answer = api_client(org).patch(f"/api/v1/players/{ann.pk}/", {"display_name": "gail"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "display_name"
    assert answer.json()["errors"][0]["message"].startswith("Gail already exists in Riverside")
    assert Player.objects.get(pk=ann.pk).display_name == "Ann"
    blank = api_client(org).patch(f"/api/v1/players/{ann.pk}/", {"display_name": "  "}, format="json")
    assert blank.status_code == 400
    assert Player.objects.get(pk=ann.pk).display_name == "Ann"


@pytest.mark.parametrize(("who", "expected"), [("anonymous", 401), ("user", 403), ("organiser", 200)])
def test_only_organisers_change_a_player(who, expected):
    ann = player("Ann")
    client = {"anonymous": api_client(), "user": api_client(user()), "organiser": api_client(organiser())}[who]
    assert client.patch(f"/api/v1/players/{ann.pk}/", {"club": "X"}, format="json").status_code == expected
    assert Player.objects.get(pk=ann.pk).club == ("X" if expected == 200 else "")


def test_a_pin_is_reset_by_setting_a_new_one():
    org = organiser()
    ann = player("Ann", pin="1234")
    services.set_player_pin(actor=as_actor(org), player=ann, pin="98765")
    ann.refresh_from_db()
    assert pins.check_pin("98765", ann.confirm_pin).matches
    assert not pins.check_pin("1234", ann.confirm_pin).matches
    with pytest.raises(NotAllowed):
        services.set_player_pin(actor=as_actor(user()), player=ann, pin="1111")
