"""Changing an event: its name, whether it is public and a Swiss's rounds at any time (never below the
rounds paired), its other options only before round 1; deleting one that has no results (its unplayed
games with it), never one with results or a knockout made from it. Its directors and organisers only."""

import pytest
from django.test import Client

from scoring.models import Game
from tournaments import services
from tournaments.models import Event

from ..factories import api_client, organiser, user
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def test_a_director_renames_an_event_and_adds_swiss_rounds_but_never_below_those_paired():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    td = api_client(people.director)
    base = f"/api/v1/events/{event.pk}/"
    renamed = td.patch(base, {"name": "Thursday Swiss", "rounds": 5}, format="json")
    assert renamed.status_code == 200, renamed.content
    assert (renamed.json()["name"], renamed.json()["rounds"]) == ("Thursday Swiss", 5)
    too_few = td.patch(base, {"rounds": 0}, format="json")
    assert too_few.status_code == 400
    late = td.patch(base, {"match_format": "best_of_3", "bye_margin": 50}, format="json")
    assert late.status_code == 400
    assert sorted(e["field"] for e in late.json()["errors"]) == ["bye_margin", "match_format"]
    assert late.json()["errors"][0]["message"] == ("can change only before round 1 is paired: the results so far "
                                                   "were scored under it")
    event.refresh_from_db()
    assert (event.name, event.rounds, event.match_format, event.bye_margin) == ("Thursday Swiss", 5, "single_game", 0)


def test_the_rounds_can_never_go_below_those_already_paired():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    services.pair_next_round(actor=people.dir, event=event)
    refused = api_client(people.director).patch(f"/api/v1/events/{event.pk}/", {"rounds": 1}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0] == {"result": None, "field": "rounds",
                                           "message": "2 rounds are already paired: at least 2; 1 given"}
    assert Event.objects.get(pk=event.pk).rounds == 3


def test_every_option_changes_before_round_1_and_the_engine_checks_them():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2)
    td = api_client(people.director)
    base = f"/api/v1/events/{event.pk}/"
    changed = td.patch(base, {"match_format": "best_of_3", "bye_margin": 50, "forfeit_margin": 25,
                              "match_points": {"win": 3}, "is_public": False}, format="json")
    assert changed.status_code == 200, changed.content
    event.refresh_from_db()
    assert (event.match_format, event.bye_margin, event.forfeit_margin, event.match_points["win"], event.is_public) \
        == ("best_of_3", 50, 25, 3, False)
    wrong = td.patch(base, {"tiebreaks": ["no_such_tiebreak"]}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["errors"][0]["field"].startswith("tiebreaks")


@pytest.mark.parametrize(("who", "expected"), [("anonymous", 401), ("player", 403), ("referee", 403),
                                               ("director", 200), ("organiser", 200)])
def test_only_its_directors_and_organisers_change_an_event(who, expected):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    u = {"anonymous": None, "player": user(), "referee": people.recorder, "director": people.director,
         "organiser": organiser()}[who]
    answer = api_client(u).patch(f"/api/v1/events/{event.pk}/", {"name": "Renamed"}, format="json")
    assert answer.status_code == expected
    assert (Event.objects.get(pk=event.pk).name == "Renamed") is (expected == 200)


def test_an_event_without_results_is_deleted_with_its_unplayed_games():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    games = Game.objects.count()
    assert games == 2
    assert api_client(people.recorder).delete(f"/api/v1/events/{event.pk}/").status_code == 403
    answer = api_client(people.director).delete(f"/api/v1/events/{event.pk}/")
    assert answer.status_code == 204
    assert not Event.objects.filter(pk=event.pk).exists()
    assert Game.objects.count() == 0


def test_an_event_with_results_is_kept():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.pair_next_round(actor=people.dir, event=event)
    (m,) = open_matches(event, 1)
    play_match(people, m, "Ann")
    answer = api_client(people.director).delete(f"/api/v1/events/{event.pk}/")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["message"] == ("Test swiss has results (hands recorded or a director's "
                                                     "result): an event with results is kept")
    assert Event.objects.filter(pk=event.pk).exists()
    director = Client()
    director.force_login(people.director)
    page = director.get(f"/events/{event.pk}/").content.decode()
    assert "Delete Test swiss" not in page
    assert "It has results (or a knockout made from it), so it is kept" in page


def test_the_event_page_changes_the_name_and_rounds_and_deletes_an_event_without_results():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    director = Client()
    director.force_login(people.director)
    page = director.get(f"/events/{event.pk}/").content.decode()
    assert "Delete Test swiss" in page
    once = page.split('name="once" value="')[1].split('"')[0]
    saved = director.post(f"/events/{event.pk}/change/", {"once": f"{once}-change", "name": "Thursday Swiss",
                                                          "rounds": "4", "is_public": "on"}, follow=True)
    assert "Saved." in saved.content.decode()
    event.refresh_from_db()
    assert (event.name, event.rounds, event.is_public) == ("Thursday Swiss", 4, True)
    blank = director.post(f"/events/{event.pk}/change/", {"once": f"{once}-x", "name": "", "rounds": "4"},
                          follow=True)
    assert "Nothing was changed." in blank.content.decode()
    unticked = director.post(f"/events/{event.pk}/delete/", {"once": f"{once}-delete"}, follow=True)
    assert "Nothing was deleted: tick the box to delete Thursday Swiss." in unticked.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()
    gone = director.post(f"/events/{event.pk}/delete/", {"once": f"{once}-delete", "confirm": "1"}, follow=True)
    assert "Thursday Swiss deleted." in gone.content.decode()
    assert not Event.objects.filter(pk=event.pk).exists()
