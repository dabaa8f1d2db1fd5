"""No request can crash or starve the service: shared throttles that a made-up header cannot escape,
capped sheets and bodies, bounded JSON nesting and pages, JSON 503 for a database outage, and never
a 500 for bad input."""

import json
import logging
import re

import pytest
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from core.logging_filters import DatabaseOutageOneLine
from scoring import services, sheets
from scoring.api import urls
from scoring.models import Hand
from scoring.throttles import CalculatorThrottle

from ..factories import as_actor, game, knock, organiser, user
from .test_api import client_for

pytestmark = pytest.mark.django_db

SHEET = {"conventions": "classic", "players": ["Ann", "Bob"], "hands": [knock("Ann", 6, 19)]}


@pytest.fixture
def calculator_rate(monkeypatch):
    monkeypatch.setitem(CalculatorThrottle.THROTTLE_RATES, "calculator", "5/minute")


def score(client, **headers):
    return client.post("/api/v1/score/", SHEET, format="json", **headers).status_code


def test_the_calculator_throttle_counts_in_the_shared_cache_and_answers_429_in_the_error_shape(calculator_rate):
    codes = [score(APIClient()) for _ in range(7)]  # a new client (connection) each time, like other workers
    assert codes == [200] * 5 + [429] * 2
    refused = APIClient().post("/api/v1/score/", SHEET, format="json")
    assert refused.json()["errors"][0]["message"].startswith("Request was throttled")
    assert int(refused["Retry-After"]) <= 60


def test_a_made_up_x_forwarded_for_does_not_escape_the_limit(calculator_rate):
    codes = [score(APIClient(), HTTP_X_FORWARDED_FOR=f"198.51.100.{i}") for i in range(7)]
    assert codes == [200] * 5 + [429] * 2


def test_behind_one_trusted_proxy_clients_are_told_apart_by_the_address_it_saw(calculator_rate, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    from rest_framework.settings import api_settings

    api_settings.reload()
    try:
        first = [score(APIClient(), HTTP_X_FORWARDED_FOR="made-up, 198.51.100.1") for _ in range(6)]
        other = score(APIClient(), HTTP_X_FORWARDED_FOR="198.51.100.1, 198.51.100.2")
    finally:
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
        api_settings.reload()
    assert first == [200] * 5 + [429]
    assert other == 200


def test_password_guesses_for_a_token_are_throttled():
    user("guessed")
    codes = [APIClient().post("/api/v1/auth/token/", {"username": "guessed", "password": f"guess{i}"},
                              format="json").status_code for i in range(12)]
    assert codes == [400] * 10 + [429] * 2


def test_a_sheet_of_more_than_500_hands_is_refused_before_it_is_scored():
    big = {**SHEET, "hands": [knock("Ann", 1, 2)] * 501}
    answer = APIClient().post("/api/v1/score/", big, format="json")
    assert answer.status_code == 400
    assert answer.json() == {"errors": [{"hand": None, "field": "hands",
                                         "message": "a sheet has at most 500 hands; 501 given"}]}


def test_a_stored_game_takes_no_more_than_the_cap(monkeypatch):
    monkeypatch.setattr(services.hands, "MAX_HANDS", 2)  # where recording a hand finds it
    ref = user()
    g = game(referees=[ref], requires_confirmation=False)
    for _ in range(2):
        services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 1, 2))
    answer = client_for(ref).post(f"/api/v1/games/{g.pk}/hands/", knock("Ann", 1, 2), format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["message"] == "a game has at most 2 hands"
    assert sheets.MAX_HANDS == 500


def test_a_body_over_the_size_limit_gets_413_json_on_the_api_and_a_short_answer_on_the_web(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({**SHEET, "padding": "x" * 2000})
    answer = APIClient().post("/api/v1/score/", body, content_type="application/json")
    assert answer.status_code == 413
    assert answer.json()["errors"][0]["message"].endswith("at most 1000 are accepted")
    page = client.post("/accounts/login/", {"username": "x" * 2000, "password": "y"})
    assert page.status_code == 413


def post_urls():
    """Every route of the scoring API, with sample arguments (those that take no POST answer 405)."""
    return ["/api/v1/" + re.sub(r"<\w+:\w+>", "1", str(p.pattern))
            for p in urls.urlpatterns if p.name != "ping"]  # ping reads no body


@pytest.mark.parametrize("url", post_urls())
def test_json_nested_950_levels_deep_gets_a_400_naming_the_limit_on_every_post(url):
    org = organiser()
    game(by=org, referees=[org])
    body = "[" * 950 + "]" * 950
    answer = client_for(org).post(url, body, content_type="application/json")
    assert answer.status_code in (400, 405), answer.content
    if answer.status_code == 400:
        assert answer.json()["errors"][0]["message"] == "JSON nested deeper than 20 levels"


def test_pages_cap_limit_and_offset_beyond_2_to_the_63(client):
    game()
    huge = 2**64
    listed = APIClient().get(f"/api/v1/games/?limit={huge}")
    assert listed.status_code == 200
    assert len(listed.json()["results"]) == 1
    assert APIClient().get(f"/api/v1/games/?offset={huge}").json()["results"] == []
    assert APIClient().get(f"/api/v1/players/?limit={huge}&offset={huge}").status_code == 200


@pytest.mark.parametrize("target", ["javascript:alert(1)", "https://evil.example/", "//evil.example/x"])
def test_the_confirm_form_never_redirects_off_the_site(client, target):
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    client.force_login(ref)
    answer = client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Bob", "pin": "2222", "next": target})
    assert (answer.status_code, answer["Location"]) == (302, f"/games/{g.pk}/")
    assert Hand.objects.get(game=g).is_confirmed
    # refused (the referee entered it), it goes back to the same site's page, at the hand's accept card
    same_site = client.post(f"/games/{g.pk}/hands/1/confirm/", {"next": f"/games/{g.pk}/enter/"})
    assert same_site["Location"] == f"/games/{g.pk}/enter/#accept-1"


def database_down(execute, sql, params, many, context):
    raise OperationalError("server closed the connection unexpectedly")


def test_a_database_outage_answers_a_json_503_on_the_api_and_a_503_page_on_the_web(client):
    game()
    api = APIClient()
    api.raise_request_exception = False
    client.raise_request_exception = False
    with connection.execute_wrapper(database_down):
        answer = api.get("/api/v1/games/")
        page = client.get("/games/")
        health = client.get("/healthz")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    assert "database is unavailable" in answer.json()["errors"][0]["message"]
    assert page.status_code == 503
    assert "Back in a moment" in page.content.decode()
    assert (health.status_code, health.content) == (503, b"database unavailable")
    assert client.get("/healthz").content == b"ok"


def test_a_database_outage_is_logged_as_one_line_per_request_not_a_traceback(client, caplog):
    game()
    client.raise_request_exception = False
    with connection.execute_wrapper(database_down), caplog.at_level(logging.WARNING):
        assert client.get("/games/").status_code == 503
        assert APIClient().get("/api/v1/games/").status_code == 503
    failures = [r for r in caplog.records if r.name == "django.request"]
    assert len(failures) == 2
    for record in failures:
        assert record.exc_info is None
        assert record.getMessage() in ("Service Unavailable: /games/", "Service Unavailable: /api/v1/games/")
    assert "Traceback" not in caplog.text


def test_a_bugs_traceback_is_still_logged_whole(caplog):
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: /x", (),
                               (ValueError, ValueError("a bug"), None))
    assert DatabaseOutageOneLine().filter(record)
    assert record.exc_info is not None


def test_connections_are_health_checked_before_reuse(settings):
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_an_unknown_route_or_object_under_the_api_answers_json_404():
    for url in ("/api/v1/players/999999/", "/api/v1/games/null,null/", "/api/v1/nothing-here/"):
        answer = APIClient().get(url)
        assert answer.status_code == 404, url
        assert answer.json()["errors"][0]["message"] == "not found"


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_password_guesses_on_the_web_share_the_limit_of_the_token_endpoint(client, url):
    user("webguessed")
    for i in range(7):
        APIClient().post("/api/v1/auth/token/", {"username": "webguessed", "password": f"g{i}"}, format="json")
    pages = [client.post(url, {"username": "webguessed", "password": f"w{i}"}).content.decode() for i in range(4)]
    assert ["Too many sign-in attempts" in page for page in pages] == [False, False, False, True]
    # the right password does not get through either until the window passes
    right = client.post(url, {"username": "webguessed", "password": "pw-webguessed"})
    assert "Too many sign-in attempts from this address: try again in" in right.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_web_game_form_takes_no_json_and_refuses_out_of_range_conventions_in_words(client):
    org = organiser()
    client.force_login(org)
    g = game(by=org)
    ann, bob = (s.player for s in g.seats.all())
    page = client.post("/games/new/", {"format": "standard", "player_1": ann.pk, "player_2": bob.pk,
                                       "preset": "classic", "overrides": "[" * 950 + "]" * 950,
                                       "conv_knock_limit": "[" * 950, "conv_tie_rule": "sometimes"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Knock limit: a whole number from 0 to 10" in text
    assert "A tie: choose one of the values listed" in text


def _raised(exc: BaseException, cause: BaseException | None = None) -> BaseException:
    try:
        raise exc from cause
    except BaseException as caught:  # raised for real, so the cause is set as procrastinate sets it
        return caught


def test_the_job_workers_outage_through_procrastinate_is_one_line():
    """procrastinate wraps psycopg's own error in ConnectorException: a PostgreSQL restart logged a
    traceback per listener and pool failure in the worker's log before."""
    import psycopg
    from procrastinate.exceptions import ConnectorException

    down = psycopg.OperationalError('connection failed: FATAL:  the database system is shutting down')
    exc = _raised(ConnectorException("\n    Database error.\n    "), _raised(down))
    record = logging.LogRecord("procrastinate.worker", logging.ERROR, __file__, 1,
                               "Side task listener failed with exception: %s, stopping worker", (exc,),
                               (type(exc), exc, None))
    assert DatabaseOutageOneLine().filter(record)
    assert record.exc_info is None
    assert record.getMessage() == ("Side task listener failed with exception: Database error. , stopping worker "
                                   "(database unavailable: ConnectorException: Database error.)")


def test_a_bug_raised_while_handling_an_outage_keeps_its_traceback():
    import psycopg
    from procrastinate.exceptions import ConnectorException

    bug = _raised(ValueError("a bug"), _raised(psycopg.OperationalError("connection failed")))
    for exc in (bug, _raised(ConnectorException("Database error."), _raised(ValueError("a bug")))):
        record = logging.LogRecord("procrastinate.worker", logging.ERROR, __file__, 1, "failed", (),
                                   (type(exc), exc, None))
        assert DatabaseOutageOneLine().filter(record)
        assert record.exc_info is not None
