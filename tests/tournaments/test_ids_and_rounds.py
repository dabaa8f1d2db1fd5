"""Ids and round numbers of events, read by ``core.reading`` on the pages and the API: JSON integers
in bodies (never 1.5, true, 1.0 or "1"), ASCII digits in URLs, query strings and forms (never "²",
"¹²", "١٢" or 30 digits). Each is refused in words naming the field, or is "not found"; nothing changes
and nothing answers 500, for anonymous callers too."""

import pytest
from django.test import Client

from scoring.models import Game
from tournaments import services
from tournaments.models import Entry, Event, MatchResult, Round

from ..factories import api_client
from .stored import Officials, entry, new_event

pytestmark = pytest.mark.django_db

NOT_INTEGERS = [1.5, True, "1", 1.0]


def _state():
    return (Entry.objects.count(), Round.objects.count(), MatchResult.objects.count(), Event.objects.count(),
            Game.objects.count(), list(Entry.objects.order_by("pk").values_list("seed", "dropped_after_round")))


@pytest.fixture
def scene():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    return people, event


@pytest.mark.parametrize("bad", NOT_INTEGERS)
def test_every_id_and_number_in_an_event_body_is_a_json_integer(scene, bad):
    people, event = scene
    ann = entry(event, "Ann")
    base = f"/api/v1/events/{event.pk}"
    writes = [
        ("entries/", {"player": bad}, "player"),
        ("entries/", {"name": "Zed", "rating": bad}, "rating"),
        ("entries/", {"name": "Zed", "seed": bad}, "seed"),
        (f"entries/{ann.pk}/drop/", {"after_round": bad}, "after_round"),
        ("seed/", {"method": "manual", "order": [bad]}, "order.0"),
        ("officials/", {"directors": [people.director.pk], "referees": [bad]}, "referees.0"),
        ("knockout/", {"top_n": bad}, "top_n"),
        ("links/", {"round": bad}, "round"),
    ]
    td, boss = api_client(people.director), api_client(people.organiser)
    before = _state()
    for path, body, field in writes:
        refused = td.post(f"{base}/{path}", body, format="json")
        assert refused.status_code == 400, (path, refused.json())
        assert [e["field"] for e in refused.json()["errors"]] == [field], (path, refused.json())
        assert "whole number" in refused.json()["errors"][0]["message"]
    created = boss.post("/api/v1/events/", {"name": "New", "format": "swiss", "rounds": bad, "bye_margin": bad},
                        format="json")
    assert sorted(e["field"] for e in created.json()["errors"]) == ["bye_margin", "rounds"]
    assert _state() == before


@pytest.mark.parametrize("bad", NOT_INTEGERS)
def test_a_swap_and_a_directors_result_take_integer_entry_ids_only(scene, bad):
    people, event = scene
    services.pair_next_round(actor=people.dir, event=event, publish=False)
    base = f"/api/v1/events/{event.pk}"
    td = api_client(people.director)
    ann, bob = entry(event, "Ann"), entry(event, "Bob")
    before = _state()
    swap = td.post(f"{base}/rounds/1/swap/", {"first": bad, "second": bob.pk}, format="json")
    assert swap.status_code == 400
    assert swap.json()["errors"][0]["field"] == "first"
    services.publish_round(actor=people.dir, round=Round.objects.get(event=event))
    match = ann.match_places.get().match
    adjusted = td.post(f"{base}/matches/{match.pk}/adjust/", {"winner": ann.pk, "margin": bad, "reason": "r"},
                       format="json")
    assert adjusted.status_code == 400
    assert adjusted.json()["errors"][0]["field"] == "margin"
    if not isinstance(bad, str):  # a winner may be named: "1" is a name that is not an entry's
        forfeit = td.post(f"{base}/matches/{match.pk}/forfeit/", {"winner": bad, "reason": "r"}, format="json")
        assert forfeit.status_code == 400
        assert forfeit.json()["errors"][0]["field"] == "winner"
    assert MatchResult.objects.count() == before[2]


@pytest.mark.parametrize("digits", ["²", "¹²", "١٢", "1" * 30, "-1", "1.0"])
def test_match_ids_and_rounds_that_are_no_numbers_are_not_found_or_refused_never_a_500(scene, digits):
    people, event = scene
    opened = services.pair_next_round(actor=people.dir, event=event)
    base = f"/api/v1/events/{event.pk}"
    for client in (api_client(), api_client(people.director)):
        assert client.get(f"{base}/matches/{digits}/").status_code == 404
        for action in ("forfeit", "adjust", "clear"):
            answer = client.post(f"{base}/matches/{digits}/{action}/", {"reason": "r"}, format="json")
            assert answer.status_code in (401, 404)
        for path in ("standings/", "matches/"):
            refused = client.get(f"{base}/{path}?round={digits}")
            assert refused.status_code == 400, path
            assert refused.json()["errors"][0]["field"] == "round"
    director = Client()
    director.force_login(people.director)
    for client in (Client(), director):
        for page in ("", "pairings/", "standings/", "bracket/", "entries/"):
            shown = client.get(f"/events/{event.pk}/{page}?round={digits}")
            assert shown.status_code in (200, 302), page  # as with no round given (a Swiss has no bracket)
        assert client.get(f"/events/{event.pk}/matches/{digits}/").status_code == 404
        assert client.get(f"/events/{event.pk}/rounds/{digits}/").status_code == 404
    assert director.get(f"/events/{event.pk}/sheet/?round={digits}").status_code == 404
    assert director.get(f"/events/{event.pk}/sheet/?round=1").status_code == 200
    assert api_client().get(f"{base}/matches/{opened.matches[0].pk}/").status_code == 200


@pytest.mark.parametrize("value", ["²", "١", "1" * 30])
def test_the_entries_page_reads_seeds_and_entries_as_ascii_digits(scene, value):
    people, event = scene
    client = Client()
    client.force_login(people.director)
    before = _state()
    seeded = client.post(f"/events/{event.pk}/entries/", {"once": "s1", "action": "seed", "method": "manual",
                                                          f"seed-{entry(event, 'Ann').pk}": value}, follow=True)
    assert "A seed is a whole number" in seeded.content.decode()
    dropped = client.post(f"/events/{event.pk}/entries/", {"once": "s2", "action": "drop", "entry": value,
                                                           "reason": "ill"}, follow=True)
    assert "That entry is not in this event." in dropped.content.decode()
    added = client.post(f"/events/{event.pk}/entries/", {"once": "s3", "action": "add", "add-player": value})
    assert added.status_code == 400
    assert _state() == before


def test_a_30_digit_user_id_on_the_officials_form_is_a_form_error_and_changes_nothing(scene):
    people, event = scene
    client = Client()
    client.force_login(people.organiser)
    before = (list(event.directors.all()), list(event.referees.all()))
    for bad in ("1" * 30, "²", "١"):
        page = client.post(f"/events/{event.pk}/officials/", {"once": f"o{bad}", "directors": [people.director.pk],
                                                              "referees": [people.recorder.pk, bad]}, follow=True)
        assert page.status_code == 200
        said = page.content.decode()
        assert "Officials not saved. Referees:" in said
        assert "is not one of the choices: choose from the list" in said
    assert (list(event.directors.all()), list(event.referees.all())) == before
    created = client.post("/events/new/", {"name": "Mine", "format": "swiss", "match_format": "single_game",
                                           "preset": "classic", "grand_final": "reset", "directors": ["1" * 30]})
    assert created.status_code == 400
    assert not Event.objects.filter(name="Mine").exists()
