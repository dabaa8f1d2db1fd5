"""Limits that fit a hall behind one address (the venue's NAT): table links and signed-in users are counted
by their credential, password guesses by address and username under a higher ceiling per address,
wrong tokens per address; every counter is a row of its own key."""

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from core import rate_limits
from core.models import RateCounter
from scoring import actors as auth
from scoring import services
from scoring.throttles import RequestThrottle

from ..factories import as_actor, game, knock, organiser, user
from .test_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_remembered_guessers():
    auth._guessing.clear()
    yield
    auth._guessing.clear()


def test_a_hundred_and_thirty_tables_behind_one_address_record_and_accept_without_a_429():
    org = organiser()
    tables = []
    for i in range(130):
        g = game(names=(f"Ann{i}", f"Bob{i}"), by=org)
        tables.append((g, client_for(link=services.create_referee_link(actor=as_actor(org), game=g))))
    codes = []
    for g, table in tables:
        codes.append(table.post(f"/api/v1/games/{g.pk}/hands/", knock(g.player_names[0], 6, 19),
                                format="json").status_code)
        codes.append(table.post(f"/api/v1/games/{g.pk}/hands/1/confirm/", {"player": g.player_names[1],
                                                                            "pin": "2222"}, format="json").status_code)
    assert codes.count(201) == 130
    assert codes.count(200) == 130  # 260 requests from one address: the anonymous limit is 120 a minute


def test_signed_in_users_are_limited_per_account_not_per_address(monkeypatch):
    monkeypatch.setitem(RequestThrottle.THROTTLE_RATES, "user", "5/minute")
    first, second = client_for(user()), client_for(user())
    assert [first.get("/api/v1/games/").status_code for _ in range(6)] == [200] * 5 + [429]
    assert second.get("/api/v1/games/").status_code == 200


def test_a_table_link_is_limited_per_link(monkeypatch):
    monkeypatch.setitem(RequestThrottle.THROTTLE_RATES, "link", "3/minute")
    org = organiser()
    g = game(by=org)
    one, other = (client_for(link=services.create_referee_link(actor=as_actor(org), game=g)) for _ in range(2))
    assert [one.get(f"/api/v1/games/{g.pk}/").status_code for _ in range(4)] == [200] * 3 + [429]
    assert other.get(f"/api/v1/games/{g.pk}/").status_code == 200


def test_password_guesses_are_counted_per_address_and_username_under_a_ceiling_per_address(monkeypatch):
    monkeypatch.setitem(RequestThrottle.THROTTLE_RATES, "login_address", "25/minute")
    user("ann")
    user("bob")

    def guess(name, i):
        return APIClient().post("/api/v1/auth/token/", {"username": name, "password": f"g{i}"},
                                format="json").status_code

    assert [guess("ann", i) for i in range(11)] == [400] * 10 + [429]
    assert [guess("bob", i) for i in range(10)] == [400] * 10  # another account from the same hall
    assert [guess(f"someone{i}", i) for i in range(5)] == [400] * 4 + [429]  # 25 guesses from one address
    assert guess("ANN", 99) == 429  # a username is one however it is typed


@pytest.mark.parametrize("scheme", ["Referee", "Token"])
def test_wrong_tokens_are_limited_per_address_then_not_looked_up_at_all(scheme, django_assert_num_queries):
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION=f"{scheme} not-a-token")
    codes = [wrong.get(f"/api/v1/games/{g.pk}/").status_code for _ in range(22)]
    assert codes == [401] * 20 + [429] * 2
    refused = wrong.get(f"/api/v1/games/{g.pk}/")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) <= 60
    with django_assert_num_queries(0):
        assert client_for(link=link).get(f"/api/v1/games/{g.pk}/").status_code == 429


def test_wrong_links_on_the_referee_page_share_the_limit(client):
    answers = [client.post("/r/", {"token": f"guess-{i}"}) for i in range(21)]
    assert [a.status_code for a in answers] == [404] * 20 + [429]
    assert "Too many unknown links were opened from this address" in answers[-1].content.decode()
    assert int(answers[-1]["Retry-After"]) <= 60


@pytest.mark.skipif(bool(settings.REDIS_URL), reason="the counters are in Redis")
def test_every_counter_is_a_row_of_its_own_key():
    org = organiser()
    g = game(by=org)
    links = [services.create_referee_link(actor=as_actor(org), game=g) for _ in range(3)]
    for link in links:
        client_for(link=link).get(f"/api/v1/games/{g.pk}/")
    client_for(org).get("/api/v1/games/")
    APIClient().get("/api/v1/games/")
    keys = set(RateCounter.objects.values_list("key", flat=True))
    assert keys == {*(f"link:link:{link.pk}" for link in links), f"user:user:{org.pk}", "anon:addr:127.0.0.1"}
    assert set(RateCounter.objects.values_list("count", flat=True)) == {1}


@pytest.mark.parametrize("username", [r"ann\u0000", r"\ud830\ude98x\u0000", "\u00e9" * 3, "n" * 150 + r"\u0007"])
def test_a_username_no_text_column_can_hold_is_refused_as_a_bad_login_not_a_server_error(username):
    user("ann")
    body = f'{{"username": "{username}", "password": "x"}}'  # as JSON escapes: the client sends them so
    answer = APIClient().post("/api/v1/auth/token/", body, content_type="application/json")
    assert answer.status_code == 400
    if not settings.REDIS_URL:
        assert all(key.isascii() and key.isprintable() for key in RateCounter.objects.values_list("key", flat=True))


def test_a_counter_key_is_stored_as_itself_when_plain_and_as_a_digest_otherwise():
    assert rate_limits.stored_key("login:addr:10.0.0.1:user:ann") == "login:addr:10.0.0.1:user:ann"
    long_a, long_b = "u:" + "a" * 200 + "1", "u:" + "a" * 200 + "2"  # the same first 200 characters
    assert rate_limits.stored_key(long_a) != rate_limits.stored_key(long_b)
    assert rate_limits.stored_key("u:ann\x00").startswith("sha256:")
    assert len(rate_limits.stored_key("u:\ud800")) == len("sha256:") + 64
