"""The REST API: tokens and referee links, permissions, idempotent retries, queries, OpenAPI."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring import services
from scoring.models import ApiToken, Hand, token_digest

from ..factories import ROLES, api_client, as_actor, game, gin, knock, organiser, permission_scene, player, user

pytestmark = pytest.mark.django_db


def client_for(u=None, link=None):
    return api_client(u, referee_token=link.token if link is not None else None)


def hands_url(g):
    return f"/api/v1/games/{g.pk}/hands/"


def test_an_organiser_creates_players_and_a_game_and_a_referee_records_a_hand():
    org, ref = organiser(), user("ref")
    api = client_for(org)
    ann = api.post("/api/v1/players/", {"display_name": "Ann", "pin": "1234"}, format="json").json()
    bob = api.post("/api/v1/players/", {"display_name": "Bob", "pin": "4321"}, format="json").json()
    created = api.post("/api/v1/games/", {"players": [ann["id"], bob["id"]], "conventions": "parlett",
                                         "table_label": "T1", "referees": [ref.pk]}, format="json")
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    assert created.json()["conventions"]["box_mode"] == "net"
    recorded = client_for(ref).post(f"/api/v1/games/{game_id}/hands/", knock("Ann", 6, 19), format="json")
    assert recorded.status_code == 201, recorded.json()
    assert recorded.json()["hand"]["status"] == "pending"
    confirmed = client_for(ref).post(f"/api/v1/games/{game_id}/hands/1/confirm/", {"player": "Bob", "pin": "4321"},
                                     format="json")
    assert confirmed.status_code == 200
    detail = APIClient().get(f"/api/v1/games/{game_id}/").json()
    assert detail["sheet"]["players"]["Ann"]["points"] == 13
    assert detail["summary"]["totals"] == {"Ann": 13, "Bob": 0}


def test_a_token_is_obtained_with_username_and_password_and_only_its_digest_is_stored():
    u = user("tokenuser")
    answer = APIClient().post("/api/v1/auth/token/", {"username": "tokenuser", "password": "pw-tokenuser"},
                              format="json")
    assert answer.status_code == 200
    key = answer.json()["token"]
    assert len(key) >= 43
    stored = ApiToken.objects.get(user=u)
    assert stored.digest == token_digest(key) != key
    assert key not in str(list(ApiToken.objects.values()))
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert me.post("/api/v1/ping/").status_code == 200
    me.credentials(HTTP_AUTHORIZATION=f"Token {stored.digest}")
    assert me.post("/api/v1/ping/").status_code == 401


def test_a_referee_link_token_records_hands_until_revoked():
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g, label="table phone")
    assert len(link.token) >= 43
    assert client_for(link=link).post(hands_url(g), knock("Ann", 6, 19), format="json").status_code == 201
    services.revoke_referee_link(actor=as_actor(org), link=link)
    refused = client_for(link=link).post(hands_url(g), knock("Ann", 6, 19), format="json")
    assert refused.status_code in (401, 403)
    assert "revoked" in refused.json()["errors"][0]["message"]


# who may do what (the entered hand was entered by "enterer", a referee of the game)
EXPECTED = {
    "record": {"anonymous": 401, "other_referee": 403, "referee": 201, "enterer": 201, "organiser": 201,
               "winner": 403, "loser": 403},
    "confirm": {"anonymous": 401, "other_referee": 403, "referee": 200, "enterer": 403, "organiser": 200,
                "winner": 403, "loser": 200},
    "correct": {"anonymous": 401, "other_referee": 403, "referee": 201, "enterer": 201, "organiser": 201,
                "winner": 403, "loser": 403},
    "void": {"anonymous": 401, "other_referee": 403, "referee": 201, "enterer": 201, "organiser": 201,
             "winner": 403, "loser": 403},
}


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("action", sorted(EXPECTED))
def test_permission_matrix_over_every_api_write(action, who):
    g, actor = permission_scene(who)
    api = client_for(actor)
    base = f"/api/v1/games/{g.pk}/hands/"
    response = {
        "record": lambda: api.post(base, knock("Bob", 2, 9), format="json"),
        "confirm": lambda: api.post(f"{base}1/confirm/", {}, format="json"),
        "correct": lambda: api.post(f"{base}1/correct/", {"hand": knock("Ann", 5, 19), "reason": "count"},
                                    format="json"),
        "void": lambda: api.post(f"{base}1/void/", {"reason": "misdeal"}, format="json"),
    }[action]()
    assert response.status_code == EXPECTED[action][who], response.json()
    if response.status_code >= 400:
        assert response.json()["errors"][0]["message"]
        assert Hand.objects.filter(game=g).count() == 1


def test_a_private_game_is_hidden_from_anonymous_readers_and_other_referees():
    ref = user()
    g = game(is_public=False, referees=[ref])
    assert APIClient().get(f"/api/v1/games/{g.pk}/").status_code == 404
    assert client_for(user()).get(f"/api/v1/games/{g.pk}/").status_code == 404
    assert client_for(ref).get(f"/api/v1/games/{g.pk}/").status_code == 200
    assert g.pk not in [x["id"] for x in APIClient().get("/api/v1/games/").json()["results"]]


def test_the_game_list_filters_by_status_format_and_player():
    org = organiser()
    done = game(by=org, requires_confirmation=False, referees=[org])
    services.record_hand(actor=as_actor(org), game=done, data=gin("Ann", 98))
    game(names=("Cat", "Dan", "Eve"), fmt="rotation", by=org)
    api = APIClient()
    assert [g["id"] for g in api.get("/api/v1/games/?status=complete").json()["results"]] == [done.pk]
    assert [g["format"] for g in api.get("/api/v1/games/?format=rotation").json()["results"]] == ["rotation"]
    assert [g["players"] for g in api.get("/api/v1/games/?player=Cat").json()["results"]] == [["Cat", "Dan", "Eve"]]


class TestIdempotency:
    def test_a_retried_post_records_the_hand_once_and_gets_the_first_answer(self):
        ref = user()
        g = game(referees=[ref])
        api = client_for(ref)
        first = api.post(hands_url(g), knock("Ann", 6, 19), format="json", HTTP_IDEMPOTENCY_KEY="phone-1-hand-1")
        again = api.post(hands_url(g), knock("Ann", 6, 19), format="json", HTTP_IDEMPOTENCY_KEY="phone-1-hand-1")
        assert first.status_code == again.status_code == 201
        assert again.json() == first.json()
        assert again["Idempotent-Replayed"] == "true"
        assert Hand.objects.filter(game=g).count() == 1

    def test_the_same_key_with_another_body_is_refused(self):
        ref = user()
        g = game(referees=[ref])
        api = client_for(ref)
        api.post(hands_url(g), knock("Ann", 6, 19), format="json", HTTP_IDEMPOTENCY_KEY="k")
        other = api.post(hands_url(g), knock("Bob", 6, 19), format="json", HTTP_IDEMPOTENCY_KEY="k")
        assert other.status_code == 422
        assert other.json()["errors"][0]["field"] == "Idempotency-Key"

    def test_without_a_key_two_posts_record_two_hands(self):
        ref = user()
        g = game(referees=[ref], requires_confirmation=False)
        api = client_for(ref)
        api.post(hands_url(g), knock("Ann", 6, 19), format="json")
        api.post(hands_url(g), knock("Ann", 6, 19), format="json")
        assert Hand.objects.filter(game=g).count() == 2


def test_errors_name_the_hand_and_field():
    ref = user()
    g = game(referees=[ref])
    answer = client_for(ref).post(hands_url(g), {"result": "knock", "knocker": "Zed", "knocker_deadwood": 3,
                                                 "opponent_deadwood": 20}, format="json")
    assert answer.status_code == 400
    assert answer.json() == {"errors": [{"hand": 1, "field": "knocker",
                                         "message": "'Zed' is not a player of this game (Ann, Bob)"}]}


def test_history_lists_every_version_with_who_and_when():
    ref, org = user("ref1"), organiser("boss")
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    services.correct_hand(actor=as_actor(org), game=g, number=1, data=knock("Ann", 5, 19), reason="recount")
    history = APIClient().get(f"/api/v1/games/{g.pk}/hands/1/history/").json()
    assert [(v["version"], v["action"], v["entered_by"], v["is_current"]) for v in history] == [
        (1, "entry", "ref1", False), (2, "correction", "boss", True)]
    assert history[1]["reason"] == "recount"


def without_throttle(captured):
    """The queries a page costs, less the anonymous throttle's counter (a fixed few per request)."""
    return [q for q in captured.captured_queries if "ginscore_cache" not in q["sql"] and "SAVEPOINT" not in q["sql"]]


def add_hands(g, actor, count):
    first, second = (seat.player.display_name for seat in g.seats.order_by("position"))
    for i in range(count):
        services.record_hand(actor=actor, game=g, data=knock(first if i % 2 else second, 1, 2))


@pytest.mark.parametrize("path", ["/api/v1/games/{pk}/", "/api/v1/games/{pk}/hands/", "/api/v1/games/{pk}/history/"])
def test_a_game_costs_the_same_queries_with_2_hands_or_200(path, django_assert_num_queries):
    org = organiser()
    small = game(by=org, requires_confirmation=False, referees=[org],
                 conventions={"preset": "classic", "target": 10000})
    big = game(names=("Cat", "Dan"), by=org, requires_confirmation=False, referees=[org],
               conventions={"preset": "classic", "target": 10000})
    add_hands(small, as_actor(org), 2)
    add_hands(big, as_actor(org), 200)
    api = APIClient()
    api.get(path.format(pk=small.pk))  # warm-up: content types and the like
    with CaptureQueriesContext(connection) as small_queries:
        assert api.get(path.format(pk=small.pk)).status_code == 200
    assert len(without_throttle(small_queries)) <= 8
    with django_assert_num_queries(len(small_queries.captured_queries)):
        assert api.get(path.format(pk=big.pk)).status_code == 200


def test_the_game_list_costs_the_same_queries_for_2_games_or_30(django_assert_num_queries):
    org = organiser()
    for _ in range(2):
        game(by=org)
    api = APIClient()
    api.get("/api/v1/games/")
    with CaptureQueriesContext(connection) as few:
        api.get("/api/v1/games/")
    assert len(without_throttle(few)) <= 5
    for i in range(28):
        game(names=(f"X{i}", f"Y{i}"), by=org)
    with django_assert_num_queries(len(few.captured_queries)):
        assert len(api.get("/api/v1/games/").json()["results"]) == 30


def test_the_openapi_schema_and_docs_are_served_with_local_assets(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/games/{id}/hands/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert "cdn" not in page.lower()
    assert "/static/drf_spectacular_sidecar/" in page


def test_players_are_listed_and_only_organisers_add_them():
    player("Listed")
    assert "Listed" in [p["display_name"] for p in APIClient().get("/api/v1/players/").json()["results"]]
    refused = client_for(user()).post("/api/v1/players/", {"display_name": "Nope"}, format="json")
    assert refused.status_code == 403


def test_an_organiser_sets_a_players_pin_which_then_accepts_hands():
    ref = user()
    g = game(referees=[ref])
    bob = g.seats.get(position=1).player
    assert client_for(user()).post(f"/api/v1/players/{bob.pk}/pin/", {"pin": "8642"}, format="json").status_code == 403
    bad = client_for(organiser()).post(f"/api/v1/players/{bob.pk}/pin/", {"pin": "12"}, format="json")
    assert (bad.status_code, bad.json()["errors"][0]["field"]) == (400, "pin")
    assert client_for(organiser()).post(f"/api/v1/players/{bob.pk}/pin/", {"pin": "8642"},
                                        format="json").status_code == 204
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    confirmed = client_for(ref).post(f"{hands_url(g)}1/confirm/", {"player": "Bob", "pin": "8642"}, format="json")
    assert confirmed.status_code == 200


def test_the_openapi_schema_is_made_once_per_process_for_each_audience(client, monkeypatch):
    """An organiser's schema lists the personal fields (a player's email, whether they have a PIN) that
    everyone else's answers leave out: each audience gets its own schema, each made once."""
    import yaml
    from drf_spectacular.generators import SchemaGenerator

    from core.api import schema

    schema._made.clear()
    made = []
    real = SchemaGenerator.get_schema
    monkeypatch.setattr(SchemaGenerator, "get_schema", lambda self, **kw: made.append(1) or real(self, **kw))
    first = client.get("/api/schema/")
    second = client.get("/api/schema/")
    assert (first.status_code, second.status_code, len(made)) == (200, 200, 1)
    assert first.content == second.content
    boss = client_for(organiser())
    organisers = [boss.get("/api/schema/"), boss.get("/api/schema/")]
    assert len(made) == 2
    player = {who: yaml.safe_load(answer.content)["components"]["schemas"]["Player"]
              for who, answer in (("anyone", first), ("organiser", organisers[1]))}
    assert "has_pin" not in player["anyone"]["properties"]
    assert "has_pin" in player["organiser"]["required"]
