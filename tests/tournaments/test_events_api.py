"""A whole Swiss event through the REST API only, as a program would run it: create, enter, pair,
record and confirm every hand of every game through the hands API, pair again, to the final standings,
which must equal the stateless calculator's for the same results, as JSON and as CSV."""

import csv
import io

import pytest

from ..factories import api_client, organiser, user

pytestmark = pytest.mark.django_db

NINE = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hal", "Ivy"]


def api(u=None, referee_token=None):
    return api_client(u, referee_token=referee_token)


def ok(response, code=200):
    assert response.status_code == code, (response.status_code, response.content[:2000])
    return response.json()


def play_through_hands_api(table, second_official, game_id, winner, loser):
    """Hands until the game is complete: the winner knocks (23 a hand), once the loser wins a gin; each
    recorded from the table's referee link and confirmed by a second official."""
    hands = [{"result": "knock", "knocker": winner, "knocker_deadwood": 2, "opponent_deadwood": 25},
             {"result": "gin", "knocker": loser, "opponent_deadwood": 12}]
    number = 0
    while True:
        number += 1
        hand = hands[1] if number == 2 else hands[0]
        ok(table.post(f"/api/v1/games/{game_id}/hands/", hand, format="json"), 201)
        confirmed = ok(second_official.post(f"/api/v1/games/{game_id}/hands/{number}/confirm/", {}, format="json"))
        if confirmed["sheet"]["complete"]:
            return confirmed["sheet"]


def test_a_nine_player_swiss_run_through_the_api_alone_ends_as_the_calculator_says():
    boss, director, confirmer = organiser(), user("td"), user("second")
    org, td, second = api(boss), api(director), api(confirmer)
    players = [ok(org.post("/api/v1/players/", {"display_name": n}, format="json"), 201)["id"] for n in NINE]
    created = ok(org.post("/api/v1/events/", {
        "name": "Thursday Swiss", "format": "swiss", "rounds": 4, "conventions": {"preset": "classic", "target": 100},
        "match_points": {"win": 3, "draw": 1}, "tiebreaks": ["match_points", "buchholz", "margin"],
        "directors": [director.pk], "referees": [confirmer.pk],
    }, format="json"), 201)
    event = created["id"]
    assert created["status"] == "registration"
    assert created["conventions"]["target"] == 100
    assert created["answer"]["standings"] == []
    assert created["answer"]["waiting_for_entries"] == 2
    base = f"/api/v1/events/{event}"
    for seed, pid in enumerate(players, start=1):
        entry = ok(td.post(f"{base}/entries/", {"player": pid, "seed": seed}, format="json"), 201)
        assert entry["seed"] == seed
        assert entry["name"] == NINE[seed - 1]

    strength = {n: len(NINE) - i for i, n in enumerate(NINE)}
    results = []
    for number in range(1, 5):
        paired = ok(td.post(f"{base}/rounds/", {}, format="json", HTTP_IDEMPOTENCY_KEY=f"pair-{number}"), 201)
        again = td.post(f"{base}/rounds/", {}, format="json", HTTP_IDEMPOTENCY_KEY=f"pair-{number}")
        assert again.status_code == 201
        assert again["Idempotent-Replayed"] == "true"
        assert again.json() == paired
        assert paired["round"] == number
        tables = [m for m in paired["matches"] if len(m["players"]) == 2]
        byes = [m for m in paired["matches"] if len(m["players"]) == 1]
        assert len(tables) == 4
        assert len(byes) == 1
        assert byes[0]["games"] == []
        assert byes[0]["table"] is None
        assert byes[0]["referee_url"] is None
        results.append({"round": number, "bye": byes[0]["players"][0]})
        for m in tables:
            assert m["status"] == "waiting"
            assert m["table"] in (1, 2, 3, 4)
            assert m["referee_url"].startswith("http://testserver/r/#")
            (game_id,) = m["games"]
            winner, loser = sorted(m["players"], key=lambda n: -strength[n])
            if number == 3 and "Finn" in m["players"]:
                winner, loser = "Finn", next(p for p in m["players"] if p != "Finn")
            table = api(referee_token=m["referee_url"].split("#", 1)[1])
            sheet = play_through_hands_api(table, second, game_id, winner, loser)
            assert sheet["winner"] == winner
            results.append({"round": number, "players": m["players"], "winner": winner, "margin": sheet["margin"]})
        listed = ok(api().get(f"{base}/matches/?round={number}"))
        assert {m["status"] for m in listed} == {"decided", "bye"}
        assert all(m["referee_url"] is None for m in listed)
        detail = ok(api().get(f"{base}/"))
        assert detail["answer"]["rounds_played"] == number
        assert [r["status"] for r in ok(api().get(f"{base}/rounds/"))] == ["closed"] * number

    detail = ok(api().get(f"{base}/"))
    assert detail["status"] == "complete"
    assert detail["answer"]["complete"] is True
    refused = td.post(f"{base}/rounds/", {}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {"errors": [{"result": None, "field": "event",
                                          "message": "Thursday Swiss is complete"}]}

    document = {"format": "swiss", "entries": [{"name": n, "seed": i} for i, n in enumerate(NINE, start=1)],
                "rounds": 4, "match_points": {"win": 3, "draw": 1}, "tiebreaks": ["match_points", "buchholz", "margin"],
                "results": results}
    calculator = ok(api().post("/api/v1/event/", document, format="json"))
    standings = ok(api().get(f"{base}/standings/"))
    assert [{k: v for k, v in row.items() if k != "entry"} for row in standings] == calculator["standings"]
    assert detail["answer"]["champion"] == calculator["champion"] == "Ann"

    as_csv = api().get(f"{base}/standings/?format=csv")
    assert as_csv.status_code == 200
    assert as_csv["Content-Type"] == "text/csv; charset=utf-8"
    assert as_csv["Content-Disposition"] == f'attachment; filename="event-{event}-standings.csv"'
    by_accept = api().get(f"{base}/standings/", HTTP_ACCEPT="text/csv")
    assert by_accept.content == as_csv.content
    rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    assert list(rows[0]) == ["rank", "name", "entry", "seed", "played", "wins", "draws", "losses", "byes",
                             "match_points", "margin", "dropped", "tiebreaks.match_points", "tiebreaks.buchholz",
                             "tiebreaks.margin", "prize"]
    assert len(rows) == len(standings) == 9
    for row, expected in zip(rows, standings, strict=True):
        assert row["name"] == expected["name"]
        assert row["dropped"] == "false"
        for key in ("rank", "entry", "seed", "played", "wins", "draws", "losses", "byes", "match_points", "margin"):
            assert int(row[key]) == expected[key]
        for key, value in expected["tiebreaks"].items():
            assert int(row[f"tiebreaks.{key}"]) == value

    as_of_two = ok(api().get(f"{base}/standings/?round=2"))
    document["as_of_round"] = 2
    assert [{k: v for k, v in r.items() if k != "entry"} for r in as_of_two] == ok(
        api().post("/api/v1/event/", document, format="json"))["standings"]
