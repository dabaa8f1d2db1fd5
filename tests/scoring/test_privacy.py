"""Personal data (emails, addresses, browser strings, PIN state) is read by organisers only, on every
path; tokens are stored as digests, shown once, kept out of URLs, and referee links expire."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from scoring import services
from scoring.models import RefereeLink, token_digest

from ..factories import ROLES, as_actor, game, knock, organiser, permission_scene, user
from .test_api import client_for

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.7"
BROWSER = "SecretPhone/1.0"


def scene(who):
    g, actor = permission_scene(who)
    ann = g.seats.get(position=0).player
    ann.email = "ann@example.org"
    ann.save(update_fields=["email"])
    hand = g.hands.get()
    hand.entered_from = f"{ADDRESS} {BROWSER}"
    hand.save(update_fields=["entered_from"])
    return g, actor


# each read, and the personal data an organiser sees there (everyone else: none of it)
READS = {
    "players": ("/api/v1/players/", ["ann@example.org", "has_pin"]),
    "player": ("/api/v1/players/{ann}/", ["ann@example.org", "has_pin"]),
    "game history": ("/api/v1/games/{game}/history/", [ADDRESS, BROWSER]),
    "hand history": ("/api/v1/games/{game}/hands/1/history/", [ADDRESS, BROWSER]),
    "hands": ("/api/v1/games/{game}/hands/", [ADDRESS, BROWSER]),
    "history page": ("/games/{game}/history/", [ADDRESS, BROWSER]),
}
SECRETS = ["ann@example.org", "has_pin", ADDRESS, BROWSER]


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("read", sorted(READS))
def test_permission_matrix_over_every_read_of_personal_data(read, who, client):
    g, actor = scene(who)
    path, organisers_see = READS[read]
    url = path.format(game=g.pk, ann=g.seats.get(position=0).player_id)
    if url.startswith("/api/"):
        answer = client_for(actor).get(url)
    else:
        if actor is not None:
            client.force_login(actor)
        answer = client.get(url)
    assert answer.status_code == 200
    shown = [secret for secret in SECRETS if secret in answer.content.decode()]
    assert shown == ([s for s in SECRETS if s in organisers_see] if who == "organiser" else [])


def test_an_organiser_sees_whether_a_player_has_a_pin():
    g = game()
    rows = client_for(organiser()).get("/api/v1/players/").json()["results"]
    assert {r["display_name"]: r["has_pin"] for r in rows if r["id"] in {s.player_id for s in g.seats.all()}} == {
        "Ann": True, "Bob": True}


class TestRefereeLinks:
    def test_only_the_digest_is_stored_and_the_token_is_shown_once(self, client):
        org = organiser()
        g = game(by=org)
        client.force_login(org)
        client.post(f"/games/{g.pk}/links/", {"label": "table phone"})
        link = RefereeLink.objects.get(game=g)
        first = client.get(f"/games/{g.pk}/links/").content.decode()
        token = first.split("/r/#")[1].split("<")[0]
        assert link.token_digest == token_digest(token)
        assert "<svg" in first
        again = client.get(f"/games/{g.pk}/links/").content.decode()
        assert token not in again
        assert "/r/#" not in again
        assert token not in str(list(RefereeLink.objects.values()))

    def test_the_token_reaches_the_server_in_a_post_never_in_a_url(self, client):
        org = organiser()
        g = game(by=org)
        link = services.create_referee_link(actor=as_actor(org), game=g)
        page = client.get("/r/")
        assert page.status_code == 200
        assert 'method="post"' in page.content.decode()
        assert client.get(f"/r/{link.token}/").status_code == 404
        opened = client.post("/r/", {"token": link.token})
        assert opened["Location"] == f"/games/{g.pk}/enter/"
        assert link.token not in str(dict(client.session))

    def test_a_link_expires_24_hours_after_the_event_day_and_an_organiser_extends_it(self):
        org = organiser()
        g = game(by=org)
        link = services.create_referee_link(actor=as_actor(org), game=g)
        today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
        assert link.expires_at == today + timedelta(days=2)
        api = client_for(link=link)
        url = f"/api/v1/games/{g.pk}/hands/"
        assert api.post(url, knock("Ann", 6, 19), format="json").status_code == 201
        RefereeLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
        expired = api.post(url, knock("Ann", 6, 19), format="json")
        assert expired.status_code == 401
        assert "expired" in expired.json()["errors"][0]["message"]
        services.extend_referee_link(actor=as_actor(org), link=link, hours=24)
        assert RefereeLink.objects.get(pk=link.pk).is_active
        assert api.get(f"/api/v1/games/{g.pk}/").status_code == 200

    def test_a_link_remembered_by_a_phone_stops_working_when_it_expires(self, client):
        org = organiser()
        g = game(by=org)
        link = services.create_referee_link(actor=as_actor(org), game=g)
        client.post("/r/", {"token": link.token})
        assert client.get(f"/games/{g.pk}/enter/").status_code == 200
        RefereeLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        assert client.get(f"/games/{g.pk}/enter/").status_code == 302  # to the sign-in page

    def test_only_an_organiser_extends_a_link(self):
        org = organiser()
        g = game(by=org, referees=[])
        link = services.create_referee_link(actor=as_actor(org), game=g)
        with pytest.raises(services.NotAllowed):
            services.extend_referee_link(actor=as_actor(link=link), link=link)


def test_anonymous_readers_get_no_email_even_on_the_players_list():
    services.create_player(actor=as_actor(organiser()), display_name="Mailer", email="m@example.org")
    assert "m@example.org" not in APIClient().get("/api/v1/players/").content.decode()


def test_an_organiser_withdraws_an_api_token_in_the_admin_and_never_sees_its_digest(client):
    from scoring.models import ApiToken

    boss = organiser("tokenboss")
    boss.is_superuser = True
    boss.save(update_fields=["is_superuser"])
    key = services.issue_api_token(user=boss)
    token = ApiToken.objects.get(user=boss)
    client.force_login(boss)
    page = client.get(f"/admin/scoring/apitoken/{token.pk}/change/").content.decode()
    assert token.digest not in page
    assert key not in page
    client.post(f"/admin/scoring/apitoken/{token.pk}/delete/", {"post": "yes"})
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post("/api/v1/ping/").status_code == 401


PRIVATE_GAME_ROUTES = [
    ("get", "/api/v1/games/{game}/"), ("get", "/api/v1/games/{game}/hands/"), ("get", "/api/v1/games/{game}/history/"),
    ("get", "/api/v1/games/{game}/hands/{hand}/history/"), ("post", "/api/v1/games/{game}/hands/"),
    ("post", "/api/v1/games/{game}/hands/{hand}/confirm/"), ("post", "/api/v1/games/{game}/hands/{hand}/correct/"),
    ("post", "/api/v1/games/{game}/hands/{hand}/void/"), ("post", "/api/v1/games/{game}/abandon/"),
    ("post", "/api/v1/games/{game}/reopen/"), ("post", "/api/v1/games/{game}/end-at-time/"),
]
BODIES = {"hands/": knock("Ann", 6, 19), "confirm/": {"player": "Bob", "pin": "2222"},
          "correct/": {"hand": knock("Ann", 5, 19), "reason": "r"}, "void/": {"reason": "r"}}


@pytest.mark.parametrize("who", ["stranger", "referee_of_another_game"])
def test_a_private_game_answers_a_stranger_on_every_route_as_a_game_that_does_not_exist(who):
    ref = user()
    g = game(referees=[ref], is_public=False)
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    other = user()
    game(names=("Cat", "Dan"), referees=[other])
    api = client_for(user() if who == "stranger" else other)
    for method, path in PRIVATE_GAME_ROUTES:
        body = next((b for end, b in BODIES.items() if path.endswith(end)), {"reason": "r"})
        for hand in (1, 2):  # hand 2 does not exist: the answer must not say so
            there = getattr(api, method)(path.format(game=g.pk, hand=hand), body, format="json")
            nowhere = getattr(api, method)(path.format(game=999999, hand=hand), body, format="json")
            assert (there.status_code, there.json()) == (404, nowhere.json()), (path, hand)
    assert g.hands.count() == 1
    assert not g.hands.get().is_confirmed
