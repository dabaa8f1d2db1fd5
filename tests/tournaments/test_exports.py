"""The event's exports: every match as CSV (``GET .../matches/?format=csv``) and the event as the event
contract's request (``GET .../export/``). Every event's export, sent to the calculator
(``POST /api/v1/event/``), answers its stored standings: a round robin, a Swiss with everything a
director meets, brackets, a knockout seeded from a Swiss, the demo events."""

import csv
import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import services as scoring
from scoring.models import Game
from tournaments import selectors, services
from tournaments.models import Event, Match

from ..factories import api_client, as_actor, gin, user
from .stored import Officials, entry, new_event, open_matches, play_game, play_match

pytestmark = pytest.mark.django_db

HEADER = ["round", "bracket_id", "table", "player_1", "player_2", "winner", "margin", "forfeit", "decided_by",
          "games", "status"]


def ok(response, code=200):
    assert response.status_code == code, (response.status_code, response.content[:2000])
    return response.json()


def export_answers_its_standings(event, reader=None) -> dict:
    """The export sent to the calculator answers the stored standings, row for row (the stored rows add
    each entry's id, which the calculator does not know). Returns the export."""
    client = api_client(reader)
    base = f"/api/v1/events/{event.pk}"
    exported = ok(client.get(f"{base}/export/"))
    calculated = ok(api_client(user()).post("/api/v1/event/", exported, format="json"))
    stored = ok(client.get(f"{base}/standings/"))
    assert stored, "an event with standings"
    assert calculated["standings"] == [{k: v for k, v in row.items() if k != "entry"} for row in stored]
    assert calculated["complete"] == selectors.event_answer(event)["complete"]
    assert calculated["champion"] == selectors.event_answer(event)["champion"]
    return exported


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200, response.content[:2000]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode())))


def first_side(match) -> str:
    return match.players.order_by("side").first().entry.player.display_name


def play_round(people, event, number, winner=first_side):
    for m in open_matches(event, number):
        play_match(people, m, winner(m))


def _open(event):
    return {r["match"]: r for r in selectors.matches(event) if r["status"] in ("waiting", "playing")}


def play_bracket(people, event, winner_of):
    """Open and play every bracket match (``winner_of(bracket id, players)``) until the event is complete."""
    while not selectors.event_answer(event)["complete"]:
        if not _open(event):
            services.pair_next_round(actor=people.dir, event=event)
        for row in _open(event).values():
            play_match(people, Match.objects.get(pk=row["id"]), winner_of(row["match"], row["players"]))


def seeded(people, names, **options):
    event = new_event(people, names=names, **options)
    services.seed_entries(actor=people.dir, event=event, method="manual", order=[entry(event, n).pk for n in names])
    return event


def test_a_round_robins_export_is_its_request_and_answers_its_standings():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], fmt="round_robin", forfeit_margin=40)
    for number in (1, 2, 3):
        services.pair_next_round(actor=people.dir, event=event)
        play_round(people, event, number)
    exported = export_answers_its_standings(event)
    assert {k: v for k, v in exported.items() if k != "results"} == {
        "format": "round_robin",
        "entries": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}, {"name": "Dev"}],
        "match_points": {"win": 2, "draw": 1, "loss": 0, "bye": 2},
        "tiebreaks": ["match_points", "head_to_head", "margin", "buchholz"],
        "bye_margin": 0,
        "forfeit_margin": 40,
    }
    assert [(r["round"], r["winner"]) for r in exported["results"]] == [
        (m.round.number, first_side(m)) for m in open_matches(event)]
    assert selectors.event_answer(event)["complete"] is True


def test_a_swiss_with_a_bye_a_drop_a_late_entry_a_forfeit_an_adjusted_result_and_best_of_three():
    people = Officials()
    event = seeded(people, ["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3, match_format="best_of_3",
                   forfeit_margin=75, bye_margin=20)
    services.pair_next_round(actor=people.dir, event=event)
    played, forfeited = open_matches(event, 1)
    play_match(people, played, first_side(played))  # 2-0
    services.record_forfeit(actor=people.dir, match=forfeited,
                            winner=forfeited.players.order_by("side").last().entry, reason="no show")
    services.add_entry(actor=people.dir, event=event, name="Finn")  # joins round 2
    dropped = forfeited.players.order_by("side").first().entry
    services.drop_entry(actor=people.dir, entry=dropped, after_round=1, reason="went home ill")

    services.pair_next_round(actor=people.dir, event=event)
    adjusted, three_games = open_matches(event, 2)
    services.record_adjusted_result(actor=people.dir, match=adjusted, winner=None, margin=0, reason="agreed draw")
    first, second = (p.entry.player.display_name for p in three_games.players.order_by("side"))
    games = selectors.match(event, three_games.pk)["games"]
    play_game(people, games[0], first, 30)
    play_game(people, games[1], second, 45)
    play_game(people, games[2], second, 31)  # 1-2: a net margin over three games
    services.pair_next_round(actor=people.dir, event=event)
    play_round(people, event, 3)

    exported = export_answers_its_standings(event, people.director)
    assert exported["entries"][-1] == {"name": "Finn", "joined": 2}
    assert exported["dropped"] == {dropped.player.display_name: 1}
    assert (exported["bye_margin"], exported["forfeit_margin"], exported["rounds"]) == (20, 75, 3)
    kinds = [("bye" if "bye" in r else "forfeit" if r.get("forfeit") else "draw" if r["winner"] is None
              else "won", r["round"]) for r in exported["results"]]
    assert sorted(kinds) == sorted([("won", 1), ("forfeit", 1), ("bye", 1), ("draw", 2), ("won", 2), ("bye", 2),
                                    ("won", 3), ("won", 3), ("bye", 3)])
    (three,) = [r for r in exported["results"] if r.get("players") == [first, second]]
    assert three["winner"] == second
    assert "went home ill" not in str(exported)
    assert not any("@" in str(v) for v in exported.values())  # no email


def test_a_single_elimination_with_a_third_place_match():
    people = Officials()
    names = ["Ann", "Bob", "Cleo", "Dev", "Eve"]
    event = seeded(people, names, fmt="single_elimination", third_place=True)
    play_bracket(people, event, lambda _, players: min(players, key=names.index))
    exported = export_answers_its_standings(event)
    assert exported["third_place"] is True
    assert [e["seed"] for e in exported["entries"]] == [1, 2, 3, 4, 5]
    assert {r["match"] for r in exported["results"]} >= {"3P"}
    assert [r["name"] for r in selectors.standings(event)][:4] == ["Ann", "Bob", "Cleo", "Dev"]


def test_a_double_elimination_whose_grand_final_is_reset():
    people = Officials()
    names = ["Ann", "Bob", "Cleo", "Dev"]
    event = seeded(people, names, fmt="double_elimination", grand_final="reset")

    def winner(match_id, players):  # Ann beats Bob in the winners' bracket; he comes back and takes both finals
        if "Bob" in players and not match_id.startswith("W"):
            return "Bob"
        return min(players, key=names.index)

    play_bracket(people, event, winner)
    exported = export_answers_its_standings(event)
    assert exported["grand_final"] == "reset"
    assert [(r["match"], r["winner"]) for r in exported["results"] if r["match"].startswith("GF")] == [
        ("GF1", "Bob"), ("GF2", "Bob")]
    assert selectors.event_answer(event)["champion"] == "Bob"
    rows = csv_rows(api_client().get(f"/api/v1/events/{event.pk}/matches/?format=csv"))
    finals = [r for r in rows[1:] if r[1].startswith("GF")]
    assert [(r[0], r[1], r[3:6] == ["Ann", "Bob", "Bob"] or r[3:6] == ["Bob", "Ann", "Bob"], r[8], r[10])
            for r in finals] == [("", "GF1", True, "games", "decided"), ("", "GF2", True, "games", "decided")]


def test_a_bracket_result_left_out_after_a_correction_is_left_out_of_the_export_too():
    people = Officials()
    names = ["Ann", "Bob", "Cleo", "Dev"]
    event = seeded(people, names, fmt="single_elimination")
    play_bracket(people, event, lambda _, players: min(players, key=names.index))
    first = selectors.match(event, "W1-1")
    assert first["players"] == ["Ann", "Dev"]
    game = Game.objects.get(pk=first["games"][0])
    scoring.correct_hand(actor=as_actor(people.organiser), game=game, number=1, data=gin("Dev", 40),
                         reason="the gin was Dev's")
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=game, number=1)
    # W2-1 was opened as Ann v Bob and won by Ann: the engine refuses that result now, and the bracket warns.
    assert [(w["kind"], w["match"]) for w in selectors.event_warnings(event)] == [
        ("result_refused", "W2-1"), ("bracket_players_changed", "W2-1")]
    exported = export_answers_its_standings(event)
    assert [(r["match"], r["winner"]) for r in exported["results"]] == [("W1-1", "Dev"), ("W1-2", "Bob")]
    assert {"match": "W2-1", "winner": "Ann", "margin": 270} in selectors.event_document(event)["results"]


def test_a_knockout_seeded_from_a_swiss_and_the_swiss_itself():
    people = Officials()
    swiss = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"], rounds=3)
    for number in (1, 2, 3):
        services.pair_next_round(actor=people.dir, event=swiss)
        play_round(people, swiss, number)
    knockout = services.create_knockout_from_standings(actor=people.dir, source_event=swiss, top_n=4)
    top = [r["name"] for r in selectors.standings(swiss)][:4]
    play_bracket(people, knockout, lambda _, players: max(players, key=top.index))  # upsets: the lower seed wins
    export_answers_its_standings(swiss)
    exported = export_answers_its_standings(knockout)
    assert exported["entries"] == [{"name": n, "seed": i} for i, n in enumerate(top, start=1)]
    assert selectors.event_answer(knockout)["champion"] == top[3]


@pytest.mark.parametrize(("name", "fmt"), [("Riverside Thursday Swiss", "swiss"),
                                           ("Riverside Knockout Cup", "double_elimination")])
def test_the_demo_events_exports_answer_their_standings(name, fmt):
    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo_events", stdout=io.StringIO())
    event = Event.objects.get(name=name)
    assert event.format == fmt
    exported = export_answers_its_standings(event)
    assert len(exported["entries"]) == (12 if fmt == "swiss" else 8)


def test_the_matches_csv_of_a_small_event_column_by_column():
    people = Officials()
    event = seeded(people, ["Ann", "=Bob", "Cleo", "Dev", "Eve"], rounds=2, forfeit_margin=50)
    services.pair_next_round(actor=people.dir, event=event)
    played, forfeited = open_matches(event, 1)
    assert [p.entry.player.display_name for p in played.players.order_by("side")] == ["Ann", "Cleo"]
    assert [p.entry.player.display_name for p in forfeited.players.order_by("side")] == ["=Bob", "Dev"]
    play_match(people, played, "Ann", 30)
    services.record_forfeit(actor=people.dir, match=forfeited, winner=entry(event, "=Bob"), reason="no show")
    services.pair_next_round(actor=people.dir, event=event)
    two = open_matches(event, 2)
    services.record_adjusted_result(actor=people.dir, match=two[0], winner=None, margin=0, reason="agreed draw")
    play_game(people, selectors.match(event, two[1].pk)["games"][0], first_side(two[1]), 10)  # not yet over

    base = f"/api/v1/events/{event.pk}/matches/"
    as_csv = api_client().get(f"{base}?format=csv")
    assert as_csv["Content-Disposition"] == f'attachment; filename="event-{event.pk}-matches.csv"'
    rows = csv_rows(as_csv)
    assert rows == [
        HEADER,
        ["1", "", "1", "Ann", "Cleo", "Ann", "270", "no", "games", "Ann 270-0", "decided"],
        ["1", "", "2", "'=Bob", "Dev", "'=Bob", "50", "yes", "director", "not played", "decided"],
        ["1", "", "", "Eve", "", "", "", "no", "bye", "", "bye"],
        ["2", "", "1", "Ann", "'=Bob", "draw", "0", "no", "director", "not played", "decided"],
        ["2", "", "2", "Eve", "Dev", "", "", "no", "", "Eve 50-0 (in progress)", "playing"],
        ["2", "", "", "Cleo", "", "", "", "no", "bye", "", "bye"],
    ]
    assert api_client().get(base, HTTP_ACCEPT="text/csv").content == as_csv.content
    assert csv_rows(api_client().get(f"{base}?format=csv&round=2&status=decided")) == [HEADER, rows[4]]
    round_one = api_client().get(f"{base}?round=1&format=csv")
    assert round_one["Content-Disposition"] == f'attachment; filename="event-{event.pk}-matches-round-1.csv"'
    assert csv_rows(round_one) == rows[:4]
    assert len(ok(api_client().get(base))) == 6  # JSON by default, as before
    refused = api_client().get(f"{base}?format=xml")
    assert refused.status_code == 400
    assert refused.json() == {"errors": [{"result": None, "field": "format", "message": "json or csv; 'xml' given"}]}
    bad_status = api_client().get(f"{base}?format=csv&status=won")
    assert (bad_status.status_code, bad_status["Content-Type"]) == (400, "application/json")
    assert bad_status.json()["errors"][0]["field"] == "status"


def test_a_private_events_exports_are_404_to_whoever_may_not_read_it():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=False)
    services.pair_next_round(actor=people.dir, event=event)
    base = f"/api/v1/events/{event.pk}"
    for path in ("export/", "matches/?format=csv"):
        for stranger in (None, user()):
            answer = api_client(stranger).get(f"{base}/{path}")
            assert answer.status_code == 404
            assert answer.json()["errors"][0]["message"]
        assert api_client(people.recorder).get(f"{base}/{path}").status_code == 200
        assert api_client(people.director).get(f"{base}/{path}").status_code == 200
    assert api_client(people.director).get(f"{base}/export/").json()["entries"] == [{"name": "Ann"}, {"name": "Bob"}]


def test_an_event_waiting_for_entries_exports_what_it_has():
    people = Officials()
    event = new_event(people, names=["Ann"])
    exported = ok(api_client().get(f"/api/v1/events/{event.pk}/export/"))
    assert exported["entries"] == [{"name": "Ann"}]
    assert exported["results"] == []
    assert api_client(user()).post("/api/v1/event/", exported, format="json").status_code == 400


def _queries(path) -> int:
    from django.core.cache import cache, caches

    cache.clear()
    caches["versioned"].clear()  # the export is made again: the dearest read
    client = api_client()
    with CaptureQueriesContext(connection) as made:
        assert client.get(path).status_code == 200
    return len(made)


@pytest.mark.parametrize("path", ["export/", "matches/?format=csv"])
def test_the_exports_cost_the_same_queries_however_many_matches(path):
    people = Officials()
    small = new_event(people, names=["Ann", "Bob"], rounds=1)
    big = new_event(people, names=[f"P{i}" for i in range(12)], rounds=2)
    for event in (small, big):
        services.pair_next_round(actor=people.dir, event=event)
        play_round(people, event, 1)
    services.pair_next_round(actor=people.dir, event=big)
    play_round(people, big, 2)
    assert Match.objects.filter(event=big).count() == 12
    small_cost = _queries(f"/api/v1/events/{small.pk}/{path}")
    assert _queries(f"/api/v1/events/{big.pk}/{path}") == small_cost


def test_the_exports_documented_example_is_a_request_the_calculator_answers(client):
    import yaml
    from django.urls import reverse

    schema = yaml.safe_load(client.get(reverse("schema")).content)
    answer = schema["paths"]["/api/v1/events/{id}/export/"]["get"]["responses"]["200"]["content"]["application/json"]
    example = answer["examples"]["ASwissAfterRound2"]["value"]
    standings = ok(api_client(user()).post("/api/v1/event/", example, format="json"))["standings"]
    assert [(r["name"], r["match_points"]) for r in standings] == [
        ("Ann", 3), ("Dev", 3), ("Cleo", 2), ("Eve", 2), ("Bob", 0)]
    matches = schema["paths"]["/api/v1/events/{id}/matches/"]["get"]
    assert set(matches["responses"]["200"]["content"]) == {"application/json", "text/csv"}
    assert "format" in [p["name"] for p in matches["parameters"]]


def test_the_standings_page_links_both_csv_files():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    page = Client().get(f"/events/{event.pk}/standings/").content.decode()
    assert f'href="/api/v1/events/{event.pk}/standings/?format=csv"' in page
    assert f'href="/api/v1/events/{event.pk}/matches/?format=csv"' in page
    assert Client().get(f"/api/v1/events/{event.pk}/matches/?format=csv").status_code == 200
