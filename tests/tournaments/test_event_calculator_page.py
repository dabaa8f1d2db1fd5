"""The event calculator page: a director runs an event from text boxes and a round form, no JSON.

Every page is checked against the engine answering the same document, so the page can only show
what the engine says; the round form turns choices into result lines a director can read and edit.
"""

import json
import re

import pytest

from tournaments.engine import run_event

URL = "/events/calculator/"
SEVEN = "Ann\nBob\nCleo\nDev\nEve\nFinn\nGail"
ROUND_ONE = ("Round 1: Ann beat Dev by 143\nRound 1: Eve beat Bob by 52\nRound 1: Cleo drew Finn\n"
             "Round 1: Gail bye")


def form_data(**fields):
    data = {"format": "swiss", "entries": SEVEN, "results": "", "grand_final": "reset"}
    data.update(fields)
    return data


def round_form(response, choose):
    """The POST a director makes by choosing, for each row of the round form, ``choose(row)``."""
    data = dict(form_data().items())
    form = response.context["form"]
    data.update({name: form.data.get(name, "") for name in ("format", "entries", "results", "grand_final",
                                                               "third_place", "rounds", "dropped")})
    rows = response.context["rows"]
    data["rows"] = str(len(rows))
    for row in rows:
        winner, margin, forfeit = choose(row)
        data.update({f"row-{row.index}-key": row.key, f"row-{row.index}-label": row.label,
                     f"row-{row.index}-a": row.players[0], f"row-{row.index}-b": row.players[1],
                     f"row-{row.index}-winner": winner, f"row-{row.index}-margin": margin})
        if forfeit:
            data[f"row-{row.index}-forfeit"] = "on"
    return {k: v for k, v in data.items() if v is not None and v is not False}


def test_an_empty_page_asks_for_the_entries_and_the_format(client):
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="entries"' in html
    assert 'name="format"' in html
    assert "answer" not in response.context


def test_the_example_shows_round_two_paired_as_the_engine_pairs_it(client):
    response = client.get(URL + "?example")
    assert response.status_code == 200
    answer = response.context["answer"]
    expected = run_event({"format": "swiss", "entries": [{"name": n} for n in SEVEN.split("\n")], "results": [
        {"round": 1, "players": ["Ann", "Dev"], "winner": "Ann", "margin": 143},
        {"round": 1, "players": ["Eve", "Bob"], "winner": "Eve", "margin": 52},
        {"round": 1, "players": ["Cleo", "Finn"], "winner": None},
        {"round": 1, "bye": "Gail"},
    ]})
    assert answer == expected
    assert [(r.label, r.players) for r in response.context["rows"]] == [
        ("Table 1", ["Ann", "Cleo"]), ("Table 2", ["Eve", "Gail"]), ("Table 3", ["Finn", "Bob"])]
    assert [b["bye"] for b in response.context["byes"]] == ["Dev"]
    html = response.content.decode()
    assert "Round 2 of 3 is paired" in html
    # The standings table: Ann first with 2 match points and +143, Dev last with -143.
    ranks = [(row["rank"], row["name"], row["match_points"], row["margin"]) for row in answer["standings"]]
    assert ranks[0] == (1, "Ann", 2, 143)
    assert ranks[-1] == (7, "Dev", 0, -143)
    assert re.search(r"<td[^>]*>Ann</td>", html)


def test_recording_a_round_adds_readable_lines_and_pairs_the_next_round(client):
    first = client.get(URL + "?example")
    margins = {"Table 1": ("a", "30", False), "Table 2": ("b", "", True), "Table 3": ("draw", "", False)}
    response = client.post(URL, round_form(first, lambda row: margins[row.label]))
    assert response.status_code == 200
    text = response.context["form"].data["results"]
    assert text.splitlines()[4:] == [
        "Round 2: Ann beat Cleo by 30",
        "Round 2: Gail beat Eve by forfeit",
        "Round 2: Finn drew Bob",
        "Round 2: Dev bye",
    ]
    answer = response.context["answer"]
    assert answer["rounds_played"] == 2
    assert answer["next_round"]["round"] == 3
    assert answer == run_event(json.loads(response.context["request_json"]))
    # Sending the very same form again (a double tap) shows the very same page: nothing is added twice.
    again = client.post(URL, round_form(first, lambda row: margins[row.label]))
    assert again.context["form"].data["results"] == text
    assert again.context["answer"] == answer


def test_rows_left_at_not_yet_are_not_recorded(client):
    first = client.get(URL + "?example")
    only_table_one = lambda row: ("a", "10", False) if row.label == "Table 1" else ("", "", False)  # noqa: E731
    response = client.post(URL, round_form(first, only_table_one))
    assert response.status_code == 200
    added = response.context["form"].data["results"].splitlines()[4:]
    assert added == ["Round 2: Ann beat Cleo by 10", "Round 2: Dev bye"]
    assert response.context["answer"]["next_round"] is None
    assert [(r.label, r.players) for r in response.context["rows"]] == [
        ("Round 2", ["Eve", "Gail"]), ("Round 2", ["Finn", "Bob"])]
    assert "2 results still owed" in response.content.decode()


def test_a_bad_margin_in_the_round_form_records_nothing_and_says_which_row(client):
    first = client.get(URL + "?example")
    response = client.post(URL, round_form(first, lambda row: ("a", "ten", False)))
    assert response.status_code == 400
    assert response.context["form"].data["results"] == ROUND_ONE
    html = response.content.decode()
    assert "Margin: a whole number of points, 0 or more" in html
    assert "Nothing was added" in html
    # The choices made are still there to fix.
    assert all(row.winner == "a" and row.margin == "ten" for row in response.context["rows"])


def test_a_line_that_cannot_be_read_is_named_by_its_number_beside_the_results_box(client):
    response = client.post(URL, form_data(results="Round 1: Ann beat Dev by 143\nRound 1: Eve lost to Bob"))
    assert response.status_code == 400
    errors = response.context["form"].errors["results"]
    assert errors == ["Line 2: “Eve lost to Bob” is not “A beat B by 120”, “A drew B” or “A bye”"]


def test_the_engine_s_refusals_name_the_line_of_the_entries_box(client):
    response = client.post(URL, form_data(entries="Ann\nBob\n\nAnn\nDev"))
    assert response.status_code == 400
    assert response.context["form"].errors["entries"] == [
        "Line 4: 'Ann' is already the name of line 1; names must differ"]


def test_the_engine_s_refusals_name_the_line_of_the_results_box(client):
    response = client.post(URL, form_data(results="Round 1: Ann beat Dev by 10\n\nRound 1: Zed beat Bob by 5"))
    assert response.status_code == 400
    assert response.context["form"].errors["results"] == ["Line 3: 'Zed' is not an entry of this event"]


def test_a_bracket_line_naming_the_wrong_loser_is_refused(client):
    response = client.post(URL, form_data(format="single_elimination", entries="Ann\nBob\nCleo\nDev",
                                          results="W1-1: Ann beat Cleo by 20"))
    assert response.status_code == 400
    assert response.context["form"].errors["results"] == ["Line 1: Cleo did not play in match W1-1"]


def play_to_the_end(client, data, choose, *, limit=40):
    response = client.post(URL, data)
    for _ in range(limit):
        assert response.status_code == 200, response.context.get("general_errors")
        if response.context["answer"]["complete"]:
            return response
        response = client.post(URL, round_form(response, choose))
    raise AssertionError("the event did not finish")


def test_a_double_elimination_played_on_the_page_ends_with_its_champion_and_bracket(client):
    data = form_data(format="double_elimination", entries="Ann\nBob\nCleo\nDev\nEve\nFinn")
    seeds = "Ann Bob Cleo Dev Eve Finn".split()

    def better_seed_wins_but_gf1(row):
        a, b = (seeds.index(name) for name in row.players)
        better = "a" if a < b else "b"
        # Ann wins the winners' bracket; the losers' champion beats her in GF1, so GF2 is played.
        return ({"a": "b", "b": "a"}[better] if row.label == "GF1" else better), "25", False

    response = play_to_the_end(client, data, better_seed_wins_but_gf1)
    answer = response.context["answer"]
    lines = response.context["form"].data["results"].splitlines()
    request = {"format": "double_elimination", "grand_final": "reset",
               "entries": [{"name": n} for n in "Ann Bob Cleo Dev Eve Finn".split()], "results": []}
    for line in lines:
        match, rest = line.split(": ")
        winner, _, margin = rest.partition(" beat ")[0], None, 25
        request["results"].append({"match": match, "winner": winner, "margin": margin})
    assert answer == run_event(request)
    assert any(row["id"] == "GF2" for row in answer["bracket"])
    html = response.content.decode()
    assert f"Champion: <strong>{answer['champion']}</strong>" in html
    for title in ("Winners&#x27; bracket", "Losers&#x27; bracket", "Grand final, reset", "Losers&#x27; final"):
        assert title in html
    assert 'class="bracket-scroll"' in html
    assert response.context["rows"] == []


def test_a_round_robin_played_on_the_page_meets_every_pair_once(client):
    data = form_data(format="round_robin", entries="Ann\nBob\nCleo\nDev\nEve")
    response = play_to_the_end(client, data, lambda row: ("a", "10", False))
    lines = response.context["form"].data["results"].splitlines()
    pairs = [frozenset(re.match(r"Round \d+: (.+) beat (.+) by 10", line).groups()) for line in lines
             if " beat " in line]
    assert len(pairs) == 10
    assert len(set(pairs)) == 10
    assert response.context["answer"]["rounds_played"] == 5
    champion = response.context["answer"]["champion"]
    assert champion is not None
    assert f"Complete. Champion: {champion}." in response.content.decode()


def test_options_reach_the_engine_and_their_errors_sit_beside_their_field(client):
    response = client.post(URL, form_data(format="swiss", rounds="2", win="3", bye="1",
                                          tiebreak_1="match_points", tiebreak_2="median_buchholz",
                                          results=ROUND_ONE, dropped="Dev, 1"))
    assert response.status_code == 200
    answer = response.context["answer"]
    assert answer["rounds"] == 2
    assert list(answer["standings"][0]["tiebreaks"]) == ["match_points", "median_buchholz"]
    gail = next(row for row in answer["standings"] if row["name"] == "Gail")
    assert gail["match_points"] == 1
    assert next(row for row in answer["standings"] if row["name"] == "Dev")["dropped"] is True
    refused = client.post(URL, form_data(format="round_robin", tiebreak_1="seed", tiebreak_2="seed"))
    assert refused.status_code == 400
    assert refused.context["form"].errors["tiebreak_1"]


@pytest.mark.parametrize("entries", ["", "   \n  "])
def test_no_entries_is_a_message_beside_the_entries_box(client, entries):
    response = client.post(URL, form_data(entries=entries))
    assert response.status_code == 400
    assert response.context["form"].errors["entries"]
