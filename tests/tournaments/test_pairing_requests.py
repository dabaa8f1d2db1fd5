"""Requested byes and pairs to avoid in stored events, through the services and the API: a bye scored as a draw
and refused once its round is paired, "never" pairs honoured and an impossible set refused in words, same club
avoided in round 1, the permission matrix of the new routes (private events a 404 to outsiders), the schema, and
the calculator answering the new fields."""

import pytest
import yaml
from django.test import Client
from django.urls import reverse

from core.refusals import Refusal
from scoring.models import Player
from tournaments import selectors, services
from tournaments.models import AvoidPair, Event, RequestedBye

from ..factories import api_client, organiser, user
from .stored import QUICK, Officials, entry, new_event, open_matches, play_match, replace_officials

pytestmark = pytest.mark.django_db


def _pairs(event, round_number):
    return sorted(sorted(p.entry.player.display_name for p in m.players.all())
                  for m in open_matches(event, round_number))


def _row(event, name):
    return next(r for r in selectors.standings(event) if r["name"] == name)


def test_a_requested_bye_is_scored_as_a_draw_and_refused_once_its_round_is_paired():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3)
    td = api_client(people.director)
    eve = entry(event, "Eve")
    asked = td.post(f"/api/v1/events/{event.pk}/entries/{eve.pk}/byes/", {"round": 1}, format="json")
    assert asked.status_code == 201
    assert asked.json() == {"entry": eve.pk, "byes": [1]}
    services.pair_next_round(actor=people.dir, event=event)
    assert _pairs(event, 1) == [["Ann", "Cleo"], ["Bob", "Dev"]]
    assert not event.matches.filter(is_bye=True).exists()  # Eve is not the odd one out: she asked to sit out
    page = Client().get(f"/events/{event.pk}/pairings/").content.decode()
    assert "Sitting out this round, as they asked: Eve." in page
    for m in open_matches(event, 1):
        play_match(people, m, sorted(p.entry.player.display_name for p in m.players.all())[0])
    eve_row = _row(event, "Eve")
    assert (eve_row["match_points"], eve_row["requested_byes"], eve_row["played"], eve_row["byes"]) == (1, 1, 0, 0)
    refused = td.post(f"/api/v1/events/{event.pk}/entries/{entry(event, 'Ann').pk}/byes/", {"round": 1},
                      format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"result": None, "field": "round", "message": "round 1 is already paired: a "
                                         "bye can be asked only for a round not yet paired"}]
    assert RequestedBye.objects.count() == 1


def test_the_player_asks_by_their_own_link_at_most_the_events_max_requested_byes():
    people = Officials()
    event = services.create_event(actor=people.boss, name="Open", format="swiss", rounds=4, conventions=QUICK,
                                  directors=[people.director], registration_open=True)
    assert event.max_requested_byes == 1
    signed = [api_client().post(f"/api/v1/events/{event.pk}/registrations/",
                                {"name": n, "email": f"{n.lower()}@example.org"}, format="json").json()
              for n in ("Ann", "Bob", "Cleo")]
    link = signed[0]["manage_url"]
    assert api_client().post(link + "byes/", {"round": 2}, format="json").status_code == 201
    mine = api_client().get(link).json()
    assert mine["byes"] == [2]
    again = api_client().post(link + "byes/", {"round": 3}, format="json")
    assert again.status_code == 400
    assert again.json()["errors"] == [{"result": None, "field": "round",
                                       "message": "Open allows 1 requested bye per player; Ann has asked for round 2"}]
    raised = api_client(people.director).patch(f"/api/v1/events/{event.pk}/", {"max_requested_byes": 2},
                                               format="json")
    assert raised.json()["max_requested_byes"] == 2
    assert api_client().post(link + "byes/", {"round": 3}, format="json").json()["byes"] == [2, 3]
    beyond = api_client().post(signed[1]["manage_url"] + "byes/", {"round": 5}, format="json")
    assert beyond.json()["errors"][0]["message"] == "Open has 4 rounds; round 5 is beyond the last"
    assert api_client().post(signed[1]["manage_url"] + "byes/", {"round": "two"}, format="json").status_code == 400
    assert api_client().post("/api/v1/registrations/nope/byes/", {"round": 2}, format="json").status_code == 404


def test_never_pairs_hold_in_stored_rounds_and_an_impossible_set_is_refused_in_words():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    td = api_client(people.director)
    ids = {n: entry(event, n).pk for n in ("Ann", "Bob", "Cleo", "Dev")}
    made = td.post(f"/api/v1/events/{event.pk}/avoid/", {"entries": [ids["Ann"], ids["Cleo"]], "strength": "never"},
                   format="json")
    assert made.status_code == 201
    assert made.json() == {"id": made.json()["id"], "entries": sorted([ids["Ann"], ids["Cleo"]]),
                           "names": ["Ann", "Cleo"], "strength": "never"}
    for other in ("Bob", "Dev"):
        assert td.post(f"/api/v1/events/{event.pk}/avoid/", {"entries": [ids["Ann"], ids[other]],
                                                             "strength": "never"}, format="json").status_code == 201
    refused = td.post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"result": None, "field": "avoid", "message": (
        "round 1 cannot be paired without pairing Ann with Cleo, whom a \"never\" pair keeps apart: every pairing "
        "of the entries still in breaks one")}]
    assert not event.event_rounds.exists()
    assert api_client().get(f"/api/v1/events/{event.pk}/standings/").status_code == 200  # the reads stand
    bob_pair = AvoidPair.objects.get(event=event, second_id=ids["Bob"]) if ids["Ann"] < ids["Bob"] else \
        AvoidPair.objects.get(event=event, first_id=ids["Bob"])
    assert td.delete(f"/api/v1/events/{event.pk}/avoid/{bob_pair.pk}/").status_code == 204
    listed = td.get(f"/api/v1/events/{event.pk}/avoid/").json()
    assert sorted(tuple(p["names"]) for p in listed) == [("Ann", "Cleo"), ("Ann", "Dev")]
    assert td.post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json").status_code == 201
    assert _pairs(event, 1) == [["Ann", "Bob"], ["Cleo", "Dev"]]
    for m in open_matches(event, 1):
        play_match(people, m, "Ann" if "Ann" in [p.entry.player.display_name for p in m.players.all()] else "Cleo")
    services.pair_next_round(actor=people.dir, event=event)
    assert _pairs(event, 2) == [["Ann", "Bob"], ["Cleo", "Dev"]]  # two rematches rather than a "never" pair


def test_same_club_is_avoided_in_round_1_of_a_16_player_swiss_with_4_clubs():
    people = Officials()
    event = new_event(people, names=[f"{club}{i}" for i in range(1, 5) for club in "WXYZ"], rounds=4,
                      avoid_same_club_rounds=1)
    for player in Player.objects.filter(event_entries__event=event):
        player.club = {"W": "Westside", "X": "Xanadu", "Y": "Yardley", "Z": "Zenith"}[player.display_name[0]]
        player.save(update_fields=["club"])
    services.pair_next_round(actor=people.dir, event=event)
    paired = _pairs(event, 1)
    assert len(paired) == 8
    assert [p for p in paired if p[0][0] == p[1][0]] == []
    assert paired == sorted([["W1", "X3"], ["W3", "X1"], ["Y1", "Z3"], ["Y3", "Z1"],
                             ["W2", "X4"], ["W4", "X2"], ["Y2", "Z4"], ["Y4", "Z2"]])


def test_pairs_to_avoid_are_refused_where_they_cannot_apply():
    people = Officials()
    td = api_client(people.director)
    robin = new_event(people, names=["Ann", "Bob", "Cleo"], fmt="round_robin")
    ids = [entry(robin, n).pk for n in ("Ann", "Bob")]
    refused = td.post(f"/api/v1/events/{robin.pk}/avoid/", {"entries": ids, "strength": "avoid"}, format="json")
    assert refused.json()["errors"][0] == {"result": None, "field": "entries",
                                           "message": "a round robin plays its schedule: everyone meets everyone"}
    swiss = new_event(people, names=["Ann", "Bob"])
    same = td.post(f"/api/v1/events/{swiss.pk}/avoid/", {"entries": [ids[0], ids[0]], "strength": "sometimes"},
                   format="json")
    assert same.status_code == 400
    assert same.json()["errors"][0]["field"] == "strength"
    club = td.patch(f"/api/v1/events/{robin.pk}/", {"avoid_same_club_rounds": 2}, format="json")
    assert club.json()["errors"][0]["field"] == "avoid_same_club_rounds"
    assert AvoidPair.objects.count() == 0


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 401), ("player", 403), ("referee", 403), ("other_director", 403), ("removed_director", 403),
    ("added_director", None), ("director", None), ("organiser", None)])
def test_pairs_to_avoid_and_requested_byes_are_listed_and_removed_by_the_events_directors_only(who, expected,
                                                                                            public):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], is_public=public, rounds=3)
    pair = services.add_avoid_pair(actor=people.dir, event=event, entries=[entry(event, "Ann").pk,
                                                                           entry(event, "Bob").pk], strength="avoid")
    ann = entry(event, "Ann")
    services.request_bye(actor=people.dir, event=event, entry=ann, round=3)
    changed = replace_officials(people, event)
    other = new_event(Officials(), names=["Cat", "Dan"])
    client = {"anonymous": lambda: api_client(), "player": lambda: api_client(user()),
              "referee": lambda: api_client(people.recorder),
              "other_director": lambda: api_client(other.directors.get()),
              **{role: (lambda u=u: api_client(u)) for role, u in changed.items()},
              "director": lambda: api_client(people.director), "organiser": lambda: api_client(organiser())}[who]()
    if not public and who in ("player", "other_director", "removed_director"):
        expected = 404  # a private event does not exist for whoever may not read it
    listed = client.get(f"/api/v1/events/{event.pk}/avoid/")
    removed = client.delete(f"/api/v1/events/{event.pk}/avoid/{pair.pk}/")
    taken_back = client.delete(f"/api/v1/events/{event.pk}/entries/{ann.pk}/byes/3/")
    if expected is None:
        assert listed.status_code == 200
        assert [p["names"] for p in listed.json()] == [["Ann", "Bob"]]
        assert removed.status_code == 204
        assert not AvoidPair.objects.exists()
        assert taken_back.status_code == 204
        assert not RequestedBye.objects.exists()
    else:
        # reading is open to anyone who can read the event, so an anonymous reader is refused, not asked to sign in
        assert listed.status_code == ((403 if public else 404) if who == "anonymous" else expected)
        assert removed.status_code == expected
        assert set(removed.json()["errors"][0]) == {"result", "field", "message"}
        assert taken_back.status_code == expected
        assert AvoidPair.objects.count() == 1
        assert RequestedBye.objects.count() == 1


def test_private_events_answer_404_to_outsiders_on_the_new_routes():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], is_public=False, rounds=3)
    ann, bob = entry(event, "Ann").pk, entry(event, "Bob").pk
    pair = services.add_avoid_pair(actor=people.dir, event=event, entries=[ann, bob], strength="never")
    for outsider in (user(), Officials().director):
        client = api_client(outsider)
        base = f"/api/v1/events/{event.pk}"
        assert client.get(f"{base}/avoid/").status_code == 404
        assert client.post(f"{base}/avoid/", {"entries": [ann, bob], "strength": "avoid"},
                           format="json").status_code == 404
        assert client.delete(f"{base}/avoid/{pair.pk}/").status_code == 404
        assert client.post(f"{base}/entries/{ann}/byes/", {"round": 2}, format="json").status_code == 404
        assert client.delete(f"{base}/entries/{ann}/byes/2/").status_code == 404
    assert AvoidPair.objects.count() == 1
    assert RequestedBye.objects.count() == 0


def test_the_new_routes_are_in_the_openapi_schema(client):
    schema = yaml.safe_load(client.get(reverse("schema")).content)
    paths = schema["paths"]
    assert set(paths["/api/v1/events/{id}/avoid/"]) == {"get", "post"}
    assert set(paths["/api/v1/events/{id}/avoid/{avoid_id}/"]) == {"delete"}
    assert set(paths["/api/v1/events/{id}/entries/{entry_id}/byes/"]) == {"post"}
    assert set(paths["/api/v1/registrations/{token}/byes/"]) == {"post"}
    assert "requested_byes" in paths["/api/v1/event/"]["post"]["requestBody"]["content"]["application/json"][
        "schema"]["properties"]


def test_the_calculator_answers_requested_byes_and_pairs_to_avoid():
    request = {"format": "swiss", "entries": [{"name": n} for n in ("Ann", "Bob", "Cleo", "Dev", "Eve")],
               "rounds": 3, "requested_byes": [{"round": 1, "name": "Eve"}],
               "avoid": [{"players": ["Ann", "Cleo"], "never": True}]}
    answer = api_client().post("/api/v1/event/", request, format="json")
    assert answer.status_code == 200
    upcoming = answer.json()["next_round"]
    assert upcoming["pairings"] == [{"table": 1, "players": ["Ann", "Dev"]}, {"table": 2, "players": ["Bob", "Cleo"]}]
    assert (upcoming["byes"], upcoming["requested_byes"], upcoming["avoids_broken"]) == ([], ["Eve"], 0)
    refused = api_client().post("/api/v1/event/", {**request, "avoid": [{"players": ["Ann", "Ann"]}]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"result": None, "field": "avoid.0.players",
                                         "message": "Ann is named twice: a pair to avoid is two different entries"}]


def test_the_events_options_are_set_at_creation_and_shown():
    people = Officials()
    made = api_client(people.organiser).post("/api/v1/events/", {"name": "Club night", "format": "swiss",
                                                                 "max_requested_byes": 2, "avoid_same_club_rounds": 3},
                                             format="json")
    assert made.status_code == 201
    assert (made.json()["max_requested_byes"], made.json()["avoid_same_club_rounds"]) == (2, 3)
    stored = Event.objects.get(pk=made.json()["id"])
    assert (stored.max_requested_byes, stored.avoid_same_club_rounds) == (2, 3)


def test_a_bye_beyond_the_rounds_left_after_entries_withdraw_is_left_out_not_a_broken_answer():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"])  # no rounds given: 3 for five entries
    services.request_bye(actor=people.dir, event=event, entry=entry(event, "Ann"), round=3)
    for name in ("Dev", "Eve"):
        services.remove_entry(actor=people.dir, entry=entry(event, name))
    answer = api_client().get(f"/api/v1/events/{event.pk}/")
    assert answer.status_code == 200
    assert answer.json()["answer"]["rounds"] == 2


def test_who_is_kept_apart_is_shown_to_the_events_directors_only():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.add_avoid_pair(actor=people.dir, event=event, entries=[entry(event, "Ann").pk, entry(event, "Bob").pk],
                            strength="never")
    for path in ("export/", ""):
        seen = api_client(people.director).get(f"/api/v1/events/{event.pk}/{path}").json()
        public = api_client(user()).get(f"/api/v1/events/{event.pk}/{path}").json()
        if path:
            assert seen["avoid"] == [{"players": ["Ann", "Bob"], "never": True}]
            assert "avoid" not in public
        else:
            assert seen["answer"]["pairing_refused"][0].startswith("round 1 cannot be paired without pairing Ann")
            assert "pairing_refused" not in public["answer"]
            assert public["answer"]["standings"] == seen["answer"]["standings"]


def test_a_swap_by_hand_that_pairs_a_pair_to_avoid_says_so_and_needs_confirming():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    ann, bob, cleo, dev = (entry(event, n) for n in ("Ann", "Bob", "Cleo", "Dev"))
    services.add_avoid_pair(actor=people.dir, event=event, entries=[ann.pk, bob.pk], strength="never")
    rnd = services.pair_next_round(actor=people.dir, event=event, publish=False).round
    assert _pairs(event, 1) == [["Ann", "Cleo"], ["Bob", "Dev"]]  # a draft, to swap by hand
    with pytest.raises(Refusal) as refused:
        services.swap_entries(actor=people.dir, round=rnd, first=cleo, second=bob)
    assert [p.message for p in refused.value.problems] == [
        "this swap pairs Bob with Ann, a pair to never pair. Confirm to swap anyway"]
    assert services.swap_warnings(round=rnd, first=cleo, second=dev) == []


def test_a_requested_bye_is_taken_back_until_its_round_is_paired():
    people = Officials()
    event = services.create_event(actor=people.boss, name="Open", format="swiss", rounds=3, conventions=QUICK,
                                  directors=[people.director], registration_open=True)
    links = [api_client().post(f"/api/v1/events/{event.pk}/registrations/",
                               {"name": n, "email": f"{n.lower()}@example.org"}, format="json").json()["manage_url"]
             for n in ("Ann", "Bob", "Cleo")]
    api_client().post(links[0] + "byes/", {"round": 1}, format="json")
    taken = api_client().delete(links[0] + "byes/1/")
    assert taken.status_code == 200
    assert taken.json()["byes"] == []
    assert api_client().delete(links[0] + "byes/1/").json()["errors"] == [
        {"result": None, "field": "round", "message": "Ann has not asked to sit out round 1"}]
    td = api_client(people.director)
    bob = entry(event, "Bob")
    td.post(f"/api/v1/events/{event.pk}/entries/{bob.pk}/byes/", {"round": 1}, format="json")
    services.pair_next_round(actor=people.dir, event=event)
    late = td.delete(f"/api/v1/events/{event.pk}/entries/{bob.pk}/byes/1/")
    assert late.status_code == 400
    assert late.json()["errors"][0]["message"] == "round 1 is already paired: its bye stands"
    assert api_client(user()).delete(f"/api/v1/events/{event.pk}/entries/{bob.pk}/byes/1/").status_code == 403
    assert RequestedBye.objects.filter(entry=bob).count() == 1
    paths = yaml.safe_load(Client().get(reverse("schema")).content)["paths"]
    assert set(paths["/api/v1/events/{id}/entries/{entry_id}/byes/{number}/"]) == {"delete"}
    assert set(paths["/api/v1/registrations/{token}/byes/{number}/"]) == {"delete"}
