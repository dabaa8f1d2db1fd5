"""Each entry's page in an event and ``GET /api/v1/events/{id}/entries/{entry_id}/``: its place, match points
and tiebreaks, the match it plays now and every match from its side (won, lost, drew, bye, forfeit; by the
games or a director); readable by whoever may read the event (a private event's, or another event's entry,
is a 404); why it dropped for officials only; the same queries however many matches. The pairings,
standings and bracket link each name to it, the pairings with the match points before the round."""

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments import selectors, services

from ..factories import api_client, user
from .stored import Officials, entry, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def words(page) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.content.decode())).strip())


def _names(match):
    return [p.entry.player.display_name for p in match.players.order_by("side")]


def _swiss_in_round_two(**options):
    """Five players, three rounds. Round 1: Ann beats Cleo at table 1 (by the games, margin 270), Dev wins
    table 2 by Bob's forfeit, Eve has the bye. Round 2: Ann and Dev draw at table 1 (a director's adjusted
    result), Eve v Bob at table 2 still to play, Cleo has the bye."""
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3, **options)
    services.pair_next_round(actor=people.dir, event=event)
    first, second = open_matches(event, 1)
    assert (_names(first), _names(second)) == (["Ann", "Cleo"], ["Bob", "Dev"])
    play_match(people, first, "Ann", 30)
    services.record_forfeit(actor=people.dir, match=second, winner=entry(event, "Dev"), reason="no show")
    services.pair_next_round(actor=people.dir, event=event)
    drawn, playing = open_matches(event, 2)
    assert (_names(drawn), _names(playing)) == (["Ann", "Dev"], ["Eve", "Bob"])
    services.record_adjusted_result(actor=people.dir, match=drawn, winner=None, margin=0, reason="agreed draw")
    return people, event, first, second, drawn, playing


def test_an_entrys_record_through_the_api_has_every_swiss_match_from_its_side():
    _people, event, first, second, drawn, playing = _swiss_in_round_two()
    base = f"/api/v1/events/{event.pk}/entries"
    ann = api_client().get(f"{base}/{entry(event, 'Ann').pk}/")
    assert ann.status_code == 200
    assert ann.json() == {
        "id": entry(event, "Ann").pk, "player": entry(event, "Ann").player_id, "name": "Ann", "club": "",
        "seed": None, "rating": None, "joined_round": 1, "dropped": False, "dropped_after_round": None,
        "drop_reason": "", "checked_in": False,
        "place": 1, "final": False, "match_points": 3,
        "tiebreaks": {"buchholz": 5, "margin": 270, "head_to_head": None},
        "current_match": None,
        "matches": [
            {"id": first.pk, "round": 1, "bracket_id": None, "table": 1, "opponent": entry(event, "Cleo").pk,
             "opponent_name": "Cleo", "status": "decided", "result": "won", "margin": 270, "decided_by": "games"},
            {"id": drawn.pk, "round": 2, "bracket_id": None, "table": 1, "opponent": entry(event, "Dev").pk,
             "opponent_name": "Dev", "status": "decided", "result": "drew", "margin": 0,
             "decided_by": "director"},
        ],
    }
    bob = api_client().get(f"{base}/{entry(event, 'Bob').pk}/").json()
    now = {"id": playing.pk, "round": 2, "bracket_id": None, "table": 2, "opponent": entry(event, "Eve").pk,
           "opponent_name": "Eve", "status": "waiting", "result": None, "margin": None, "decided_by": None}
    assert (bob["place"], bob["match_points"], bob["current_match"]) == (5, 0, now)
    assert bob["matches"] == [
        {"id": second.pk, "round": 1, "bracket_id": None, "table": 2, "opponent": entry(event, "Dev").pk,
         "opponent_name": "Dev", "status": "decided", "result": "forfeit_lost", "margin": 0,
         "decided_by": "director"},
        now,
    ]
    dev = api_client().get(f"{base}/{entry(event, 'Dev').pk}/").json()
    assert [m["result"] for m in dev["matches"]] == ["forfeit_won", "drew"]
    eve = api_client().get(f"{base}/{entry(event, 'Eve').pk}/").json()
    assert [(m["round"], m["table"], m["opponent"], m["result"], m["margin"], m["decided_by"])
            for m in eve["matches"]] == [(1, None, None, "bye", None, None), (2, 2, entry(event, "Bob").pk, None,
                                                                               None, None)]
    assert eve["current_match"]["id"] == playing.pk


def test_an_entrys_record_through_the_api_has_its_double_elimination_matches_by_bracket_id():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo"], fmt="double_elimination")
    services.pair_next_round(actor=people.dir, event=event)  # Ann has the bye of W1-1: no match is stored
    for winner, deadwood in (("Bob", 30), ("Ann", 31), ("Bob", 32)):  # W1-2, W2-1, L2-1
        match = next(m for m in open_matches(event) if selectors.match(event, m.pk)["status"] != "decided")
        play_match(people, match, winner, deadwood)
        services.open_ready_bracket_matches(event_id=event.pk)
    ids = {m.bracket_id: m.pk for m in open_matches(event)}
    assert sorted(ids) == ["GF1", "L2-1", "W1-2", "W2-1"]
    bob, cleo = entry(event, "Bob").pk, entry(event, "Cleo").pk
    ann = api_client().get(f"/api/v1/events/{event.pk}/entries/{entry(event, 'Ann').pk}/").json()
    final = {"id": ids["GF1"], "round": None, "bracket_id": "GF1", "table": 1, "opponent": bob,
             "opponent_name": "Bob", "status": "waiting", "result": None, "margin": None, "decided_by": None}
    assert (ann["place"], ann["final"], ann["match_points"], ann["tiebreaks"]) == (1, False, 2, {})
    assert ann["current_match"] == final
    assert ann["matches"] == [
        {"id": ids["W2-1"], "round": None, "bracket_id": "W2-1", "table": 1, "opponent": bob, "opponent_name": "Bob",
         "status": "decided", "result": "won", "margin": 271, "decided_by": "games"},
        final,
    ]
    cleo_record = api_client().get(f"/api/v1/events/{event.pk}/entries/{cleo}/").json()
    assert (cleo_record["place"], cleo_record["current_match"]) == (3, None)
    assert [(m["bracket_id"], m["opponent_name"], m["result"], m["margin"]) for m in cleo_record["matches"]] == [
        ("W1-2", "Bob", "lost", 270), ("L2-1", "Bob", "lost", 272)]


def test_an_entrys_page_shows_its_place_tiebreaks_now_and_every_match_in_words():
    people, event, first, _second, _drawn, playing = _swiss_in_round_two()
    page = Client().get(f"/events/{event.pk}/entries/{entry(event, 'Ann').pk}/")
    assert page.status_code == 200
    text = words(page)
    assert "Place now 1st Match points 3 Buchholz 5 Margin 270 Head to head –" in text
    assert "Round 1 · table 1 v Cleo Won by 270 · the match" in text
    assert "Round 2 · table 1 v Dev Drew (director's result) · the match" in text
    body = page.content.decode()
    assert f'href="/events/{event.pk}/entries/{entry(event, "Cleo").pk}/">Cleo</a>' in body
    assert f'href="/events/{event.pk}/matches/{first.pk}/">the match</a>' in body
    bob = Client().get(f"/events/{event.pk}/entries/{entry(event, 'Bob').pk}/")
    assert "Now: table 2 v Eve (round 2)" in words(bob)
    assert "Round 1 · table 2 v Dev Lost by forfeit" in words(bob)
    assert f'/events/{event.pk}/matches/{playing.pk}/">table 2' not in bob.content.decode()  # officials only
    official = signed_in(people.recorder).get(f"/events/{event.pk}/entries/{entry(event, 'Bob').pk}/")
    assert f'href="/events/{event.pk}/matches/{playing.pk}/">table 2 v Eve (round 2)</a>' in official.content.decode()
    eve = words(Client().get(f"/events/{event.pk}/entries/{entry(event, 'Eve').pk}/"))
    assert "Round 1 no opponent Bye · the match" in eve


def test_why_an_entry_dropped_is_shown_to_the_events_officials_only():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo"], rounds=2)
    services.drop_entry(actor=people.dir, entry=entry(event, "Cleo"), after_round=0, reason="ill")
    url = f"/events/{event.pk}/entries/{entry(event, 'Cleo').pk}/"
    for reader in (Client(), signed_in(user())):
        text = words(reader.get(url))
        assert "Withdrawn before round 1." in text
        assert "ill" not in text
    for official in (people.director, people.recorder, people.organiser):
        assert "Withdrawn before round 1: ill." in words(signed_in(official).get(url))
    api = f"/api/v1/events/{event.pk}/entries/{entry(event, 'Cleo').pk}/"
    assert api_client().get(api).json()["drop_reason"] == ""
    assert api_client(people.recorder).get(api).json()["drop_reason"] == "ill"


def test_a_private_events_entry_and_another_events_entry_are_not_found():
    people = Officials()
    private = new_event(people, names=["Ann", "Bob"], is_public=False)
    public = new_event(Officials(), names=["Cat", "Dan"])
    ann, cat = entry(private, "Ann").pk, entry(public, "Cat").pk
    for client in (Client(), signed_in(user())):
        assert client.get(f"/events/{private.pk}/entries/{ann}/").status_code == 404
    for client in (api_client(), api_client(user())):
        assert client.get(f"/api/v1/events/{private.pk}/entries/{ann}/").status_code == 404
    assert signed_in(people.recorder).get(f"/events/{private.pk}/entries/{ann}/").status_code == 200
    assert api_client(people.recorder).get(f"/api/v1/events/{private.pk}/entries/{ann}/").status_code == 200
    assert Client().get(f"/events/{public.pk}/entries/{cat}/").status_code == 200
    assert Client().get(f"/events/{public.pk}/entries/{ann}/").status_code == 404
    assert signed_in(people.organiser).get(f"/events/{public.pk}/entries/{ann}/").status_code == 404
    missing = api_client(people.organiser).get(f"/api/v1/events/{public.pk}/entries/{ann}/")
    assert missing.status_code == 404
    assert set(missing.json()["errors"][0]) == {"result", "field", "message"}


def _queries(client, url) -> int:
    client.get(url)  # the answer stored, as the on-commit refresh does
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == 200
    return len(seen)


def test_an_entrys_page_and_record_cost_the_same_queries_for_one_match_as_for_five():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"], fmt="round_robin")
    ann = entry(event, "Ann").pk
    page, api = f"/events/{event.pk}/entries/{ann}/", f"/api/v1/events/{event.pk}/entries/{ann}/"
    services.pair_next_round(actor=people.dir, event=event)
    counts = [(_queries(Client(), page), _queries(api_client(), api))]
    for number in range(1, 5):
        for m in open_matches(event, number):
            services.record_forfeit(actor=people.dir, match=m, winner=m.players.order_by("side").first().entry,
                                    reason="quick")
        services.pair_next_round(actor=people.dir, event=event)
    assert len(api_client().get(api).json()["matches"]) == 5
    counts.append((_queries(Client(), page), _queries(api_client(), api)))
    assert counts[0] == counts[1]


def test_the_pairings_show_each_names_match_points_before_the_round_and_link_every_name():
    _people, event, _first, _second, _drawn, _playing = _swiss_in_round_two()
    ids = {name: entry(event, name).pk for name in ("Ann", "Bob", "Cleo", "Dev", "Eve")}
    now = Client().get(f"/events/{event.pk}/pairings/")
    text = words(now)
    assert "Table 1 Ann (2) v Dev (2)" in text  # after round 1: a win and a forfeit won
    assert "Table 2 Eve (2) v Bob (0)" in text  # Eve's bye counts as a win
    assert "Bye Cleo (0)" in text
    body = now.content.decode()
    for name, pk in ids.items():
        assert f'href="/events/{event.pk}/entries/{pk}/">{name}</a>' in body, name
    earlier = words(Client().get(f"/events/{event.pk}/pairings/?round=1"))
    assert "Table 1 Ann (0) v Cleo (0)" in earlier
    standings = Client().get(f"/events/{event.pk}/standings/").content.decode()
    for name, pk in ids.items():
        assert f'<a href="/events/{event.pk}/entries/{pk}/">{name}</a>' in standings, name


def test_the_pairings_points_follow_a_correction_of_an_earlier_round():
    people, event, _first, second, _drawn, _playing = _swiss_in_round_two()
    assert "Table 1 Ann (2) v Dev (2)" in words(Client().get(f"/events/{event.pk}/pairings/"))
    services.record_adjusted_result(actor=people.dir, match=second, winner=entry(event, "Bob"), margin=10,
                                    reason="the forfeit was a mistake")
    fresh = words(Client().get(f"/events/{event.pk}/pairings/"))
    assert "Table 1 Ann (2) v Dev (0)" in fresh
    assert "Table 2 Eve (2) v Bob (2)" in fresh


def test_the_bracket_links_each_name_to_its_entry_page():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo"], fmt="double_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    body = Client().get(f"/events/{event.pk}/bracket/").content.decode()
    for name in ("Ann", "Bob", "Cleo"):
        assert f'<a href="/events/{event.pk}/entries/{entry(event, name).pk}/">{name}</a>' in body, name
