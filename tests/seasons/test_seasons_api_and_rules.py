"""The seasons API and pages: who may create or change a season (organisers only: anonymous 401 or the
sign-in page, everyone else 403, nothing stored), everyone reads the list and the ladder, JSON and CSV (safe
against CSV injection), in the OpenAPI schema; a private event is never named or counted."""

import pytest
import yaml
from django.urls import reverse

from scoring import services as scoring
from scoring.models import Player
from seasons import services
from seasons.models import Season
from tournaments import services as event_services

from ..factories import api_client, as_actor, organiser
from ..tournaments.stored import Officials, replace_officials
from .stored import club_game, day, round_robin

pytestmark = pytest.mark.django_db

BODY = {"name": "Autumn", "starts_on": "2025-09-01", "ends_on": "2025-11-30", "counts": "both",
        "placement_points": [10, 7, 5, 4, 3, 2], "finisher_points": 1, "night_points": 1, "best_nights": 8}
ROLES = ["anonymous", "referee", "director", "removed director", "organiser"]


@pytest.fixture
def people():
    """An event's officials: its director and referees, a director removed from it, an organiser."""
    people = Officials()
    event = event_services.create_event(actor=people.boss, name="Swiss", format="swiss",
                                        conventions={"preset": "classic"}, directors=[people.director],
                                        referees=[people.recorder])
    removed = replace_officials(people, event)["removed_director"]
    return {"anonymous": None, "referee": people.recorder, "director": people.director,
            "removed director": removed, "organiser": people.organiser}


@pytest.mark.parametrize("role", ROLES)
def test_only_an_organiser_creates_a_season_through_the_api(people, role):
    who = people[role]
    answer = api_client(who).post("/api/v1/seasons/", BODY, format="json")
    expected = {"anonymous": 401, "organiser": 201}.get(role, 403)
    assert answer.status_code == expected, answer.content
    if role == "organiser":
        assert answer.json() == {"id": answer.json()["id"], "name": "Autumn", "starts_on": "2025-09-01",
                                 "ends_on": "2025-11-30", "counts": "both", "placement_points": [10, 7, 5, 4, 3, 2],
                                 "finisher_points": 1, "night_points": 1, "best_nights": 8}
        assert Season.objects.count() == 1
    else:
        assert Season.objects.count() == 0
        assert answer.json()["errors"][0]["message"]


def test_a_referee_link_may_not_create_a_season():
    g = club_game("Ann", "Bob", days_ago=0, finished=False)
    link = scoring.create_referee_link(actor=as_actor(organiser()), game=g)
    assert api_client(referee_token=link.token).post("/api/v1/seasons/", BODY, format="json").status_code == 403
    assert Season.objects.count() == 0


@pytest.mark.parametrize(("change", "field"), [
    ({"ends_on": "2025-08-31"}, "ends_on"),
    ({"placement_points": [5, 7]}, "placement_points.1"),
    ({"placement_points": [10, 1.5]}, "placement_points.1"),
    ({"finisher_points": 3}, "finisher_points"),
    ({"best_nights": 0}, "best_nights"),
    ({"counts": "weekly"}, "counts"),
    ({"starts_on": "1 Sept"}, "starts_on"),
])
def test_a_refused_season_names_its_field_and_stores_nothing(change, field):
    answer = api_client(organiser()).post("/api/v1/seasons/", {**BODY, **change}, format="json")
    assert answer.status_code == 400, answer.content
    assert [e["field"] for e in answer.json()["errors"]] == [field]
    assert Season.objects.count() == 0


def test_a_second_season_of_the_same_name_is_refused():
    boss = api_client(organiser())
    assert boss.post("/api/v1/seasons/", BODY, format="json").status_code == 201
    again = boss.post("/api/v1/seasons/", {**BODY, "name": "autumn"}, format="json")
    assert again.status_code == 400
    assert again.json()["errors"][0]["message"] == "there is already a season called autumn"


@pytest.fixture
def ladder_scene():
    """A club night (Ann beats Cleo yesterday) and a round robin today; a player whose name a spreadsheet
    would run as a formula; a private event whose players appear nowhere else."""
    club_game("Ann", "=cmd|' /C calc'!A0", days_ago=1)
    round_robin(["Ann", "Bob"])
    round_robin(["Zed", "Yan"], is_public=False)
    return services.create_season(actor=as_actor(organiser()), name="Now", starts_on=day(-7), ends_on=day(7),
                                  placement_points=[10, 7], finisher_points=1, night_points=2)


@pytest.mark.parametrize("role", ROLES)
def test_everyone_reads_the_ladder_and_a_private_event_counts_for_nobody(people, ladder_scene, role):
    answer = api_client(people[role]).get(f"/api/v1/seasons/{ladder_scene.pk}/ladder/")
    assert answer.status_code == 200
    ann = Player.objects.get(display_name="Ann").pk
    bob = Player.objects.get(display_name="Bob").pk
    formula = Player.objects.get(display_name__startswith="=").pk
    assert answer.json() == [
        {"place": 1, "player": ann, "name": "Ann", "points": 12, "placement_points": 10, "night_points": 2,
         "events": 1, "nights": 1},
        {"place": 2, "player": bob, "name": "Bob", "points": 7, "placement_points": 7, "night_points": 0,
         "events": 1, "nights": 0},
        {"place": 3, "player": formula, "name": "=cmd|' /C calc'!A0", "points": 2, "placement_points": 0,
         "night_points": 2, "events": 0, "nights": 1},
    ]
    page = api_client(people[role]).get(f"/seasons/{ladder_scene.pk}/")
    assert page.status_code == 200
    assert "Zed" not in page.content.decode()
    assert "Ann" in page.content.decode()


@pytest.mark.parametrize("ask", [{"format": "csv"}, {"accept": "text/csv"}])
def test_the_ladder_as_csv_defuses_formulas(ladder_scene, ask):
    url = f"/api/v1/seasons/{ladder_scene.pk}/ladder/"
    answer = (api_client().get(url, {"format": "csv"}) if "format" in ask
              else api_client().get(url, HTTP_ACCEPT="text/csv"))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    ann = Player.objects.get(display_name="Ann").pk
    bob = Player.objects.get(display_name="Bob").pk
    formula = Player.objects.get(display_name__startswith="=").pk
    assert answer.content.decode().split("\r\n") == [
        "place,player,name,points,placement_points,night_points,events,nights",
        f"1,{ann},Ann,12,10,2,1,1",
        f"2,{bob},Bob,7,7,0,1,0",
        f"3,{formula},'=cmd|' /C calc'!A0,2,0,2,0,1",
        "",
    ]


def test_an_unknown_season_is_a_404_and_an_unknown_format_a_400():
    assert api_client().get("/api/v1/seasons/999/ladder/").status_code == 404
    assert api_client().get("/seasons/999/").status_code == 404
    s = services.create_season(actor=as_actor(organiser()), name="S", starts_on=day(0), ends_on=day(0))
    bad = api_client().get(f"/api/v1/seasons/{s.pk}/ladder/", {"format": "xml"})
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "format"
    assert api_client().get(f"/seasons/{s.pk}/players/999/").status_code == 404


def test_the_seasons_routes_are_in_the_openapi_schema(client):
    schema = yaml.safe_load(client.get(reverse("schema")).content)
    assert set(schema["paths"]["/api/v1/seasons/"]) == {"get", "post"}
    assert set(schema["paths"]["/api/v1/seasons/{id}/ladder/"]) == {"get"}
    assert "text/csv" in schema["paths"]["/api/v1/seasons/{id}/ladder/"]["get"]["responses"]["200"]["content"]


@pytest.mark.parametrize("role", ROLES)
def test_only_an_organiser_opens_or_sends_the_season_forms(client, people, role):
    s = services.create_season(actor=as_actor(organiser()), name="Spring", starts_on=day(0), ends_on=day(9))
    if people[role] is not None:
        client.force_login(people[role])
    form = {"name": "Spring", "starts_on": str(day(0)), "ends_on": str(day(20)), "counts": "events",
            "placement_points": "12, 8, 6", "finisher_points": "2", "night_points": "1", "best_nights": ""}
    for url in ("/seasons/new/", f"/seasons/{s.pk}/change/"):
        shown, sent = client.get(url), client.post(url, {**form, "name": "Summer" if "new" in url else "Spring"})
        if role == "anonymous":
            assert (shown.status_code, sent.status_code) == (302, 302)
            assert shown["Location"].startswith("/accounts/login/")
        elif role == "organiser":
            assert shown.status_code == 200
            assert sent.status_code == 302, sent.content.decode()[:2000]
        else:
            assert (shown.status_code, sent.status_code) == (403, 403)
    s.refresh_from_db()
    if role == "organiser":
        assert (s.ends_on, s.counts, s.placement_points, s.finisher_points) == (day(20), "events", [12, 8, 6], 2)
        assert Season.objects.filter(name="Summer").exists()
    else:
        assert (s.ends_on, s.counts, Season.objects.count()) == (day(9), "both", 1)
    assert client.get("/seasons/").status_code == 200
    assert client.get(f"/seasons/{s.pk}/").status_code == 200


def test_the_form_says_what_is_wrong_beside_the_field_and_changes_nothing(client):
    boss = organiser()
    s = services.create_season(actor=as_actor(boss), name="Spring", starts_on=day(0), ends_on=day(9))
    client.force_login(boss)
    sent = client.post(f"/seasons/{s.pk}/change/", {
        "name": "Spring", "starts_on": str(day(0)), "ends_on": str(day(20)), "counts": "both",
        "placement_points": "5, 7", "finisher_points": "1", "night_points": "1", "best_nights": ""})
    assert sent.status_code == 200
    said = "Place 2 would earn more than place 1 (7 against 5): a better place never earns less"
    assert said in sent.content.decode()
    s.refresh_from_db()
    assert (s.ends_on, s.placement_points) == (day(9), [10, 7, 5, 4, 3, 2])


def test_the_menu_links_to_the_seasons(client):
    assert '<a href="/seasons/">Seasons</a>' in client.get("/seasons/").content.decode()


@pytest.mark.parametrize(("change", "field"), [
    ({"ends_on": "9999-12-31"}, "ends_on"),
    ({"starts_on": "0001-01-01"}, "starts_on"),
    ({"starts_on": "1899-12-31", "ends_on": "3000-01-01"}, "starts_on ends_on"),
])
def test_a_day_the_ladder_cannot_be_read_for_is_refused_in_words(change, field):
    answer = api_client(organiser()).post("/api/v1/seasons/", {**BODY, **change}, format="json")
    assert answer.status_code == 400, answer.content
    assert " ".join(e["field"] for e in answer.json()["errors"]) == field
    assert "must be in the years 1900 to 2999" in answer.json()["errors"][0]["message"]
    assert Season.objects.count() == 0


def test_a_season_stored_to_the_calendars_last_day_is_read_on_every_path(ladder_scene):
    """A season stored before the days were bounded (created through the API on 2026-11-27: 201) answered
    every read with a 500, for good: the ladder, its CSV, its page and a player's page."""
    Season.objects.filter(pk=ladder_scene.pk).update(starts_on="0001-01-01", ends_on="9999-12-31")
    ann = Player.objects.get(display_name="Ann").pk
    ladder = api_client().get(f"/api/v1/seasons/{ladder_scene.pk}/ladder/")
    assert ladder.status_code == 200
    assert [row["name"] for row in ladder.json()] == ["Ann", "Bob", "=cmd|' /C calc'!A0"]
    for url in (f"/api/v1/seasons/{ladder_scene.pk}/ladder/?format=csv", f"/seasons/{ladder_scene.pk}/",
                f"/seasons/{ladder_scene.pk}/players/{ann}/", "/seasons/", "/api/v1/seasons/"):
        assert api_client().get(url).status_code == 200, url


def test_the_form_names_every_problem_at_once_a_bad_day_beside_bad_points(client):
    boss = organiser()
    client.force_login(boss)
    sent = client.post("/seasons/new/", {
        "name": "Spring", "starts_on": "2026-02-30", "ends_on": "9999-12-31", "counts": "both",
        "placement_points": "5, 7", "finisher_points": "9", "night_points": "1", "best_nights": ""})
    assert sent.status_code == 200
    errors = sent.context["form"].errors
    assert sorted(errors) == ["ends_on", "finisher_points", "placement_points", "starts_on"]
    assert "must be in the years 1900 to 2999" in errors["ends_on"][0]
    assert "Place 2 would earn more than place 1 (7 against 5)" in errors["placement_points"][0]
    assert Season.objects.count() == 0
