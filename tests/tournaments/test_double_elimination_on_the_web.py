"""A 6-player double elimination run through the web pages alone (Django's test client): the organiser
creates it, the director enters, seeds and starts the bracket, referees record and confirm every game on
the scoring pages, the director records a forfeit; a correction changes a decided match, the event page
warns, the director resets the match opened from it; the bracket is played out to its champion, and
the standings equal the stateless calculator's for the same results."""

import re

import pytest
from django.test import Client

from tournaments.engine import run_event
from tournaments.models import Event, Match
from tournaments.selectors import event_document

from ..factories import organiser, user

pytestmark = pytest.mark.django_db

SIX = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"]


def signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def once(html: str) -> str:
    return re.search(r'name="once" value="([^"]+)"', html).group(1)


def words(page) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.content.decode()))


class Night:
    def __init__(self):
        self.boss, self.director = organiser("boss"), user("td")
        self.recorder, self.confirmer = user("ref1"), user("ref2")
        self.org, self.td = signed_in(self.boss), signed_in(self.director)
        self.ref1, self.ref2 = signed_in(self.recorder), signed_in(self.confirmer)

    def post_once(self, client, url, data, page_url=None):
        page = client.get(page_url or url).content.decode()
        return client.post(url, {**data, "once": once(page)})

    def play(self, game_id: int, winner: str, deadwood: int = 30):
        """One gin that ends the game (target 50): entered on the phone page, accepted by the other referee."""
        page = self.ref1.get(f"/games/{game_id}/enter/").content.decode()
        number = int(re.search(r'name="number" value="(\d+)"', page).group(1))
        recorded = self.ref1.post(f"/games/{game_id}/enter/", {"result": "gin", "knocker": winner,
                                                               "opponent_deadwood": deadwood, "once": once(page),
                                                               "number": number})
        assert recorded.status_code == 302, words(recorded)
        confirmed = self.ref2.post(f"/games/{game_id}/hands/{number}/confirm/", {}, follow=True)
        assert f"Hand {number} confirmed." in words(confirmed)

    def open_matches(self, event_id: int) -> dict[str, dict]:
        """The bracket matches being played, as the event page lists them: id -> (players, game id, match url)."""
        page = self.td.get(f"/events/{event_id}/").content.decode()
        rows = {}
        for row in re.findall(r'<tr class="match-(?:waiting|playing)" id="match-row-(\d+)">(.*?)</tr>', page, re.S):
            match_id, cells = row
            bracket_id = re.search(r"<td>([WLG3][^<· ]*)", cells).group(1).strip()
            players = re.search(r'href="/events/\d+/matches/\d+/">([^<]+)</a>', cells).group(1).split(" v ")
            game = int(re.search(r'href="/games/(\d+)/"', cells).group(1))
            rows[bracket_id] = {"players": players, "game": game, "url": f"/events/{event_id}/matches/{match_id}/"}
        return rows


def test_six_player_double_elimination_through_the_web_pages():
    night = Night()
    created = night.org.post("/events/new/", {
        "name": "Knockout night", "format": "double_elimination", "match_format": "single_game",
        "is_public": "on", "preset": "classic", "conv_target": "50", "grand_final": "reset", "forfeit_margin": "25",
        "directors": [night.director.pk], "referees": [night.recorder.pk, night.confirmer.pk],
    })
    assert created.status_code == 302
    event = Event.objects.get()
    base = f"/events/{event.pk}"
    night.post_once(night.td, f"{base}/entries/", {"action": "paste", "paste-text": "\n".join(SIX)})
    ids = {e["name"]: e["id"] for e in Client().get(f"/api/v1/events/{event.pk}/entries/").json()}
    night.post_once(night.td, f"{base}/entries/", {"action": "seed", "method": "manual",
                                                   **{f"seed-{ids[n]}": str(i) for i, n in enumerate(SIX, 1)}})

    started = night.post_once(night.td, f"{base}/pair/", {}, page_url=f"{base}/")
    assert started["Location"] == f"{base}/sheet/"
    sheet = night.td.get(started["Location"]).content.decode()
    assert sheet.count("<svg") == 2  # two tables: seeds 1 and 2 have byes
    bracket = words(Client().get(f"{base}/bracket/"))
    assert "W1-1 · bye Ann bye" in bracket  # Ann's first-round bye, drawn in the bracket
    assert "Table 1 W1-2 : Dev v Eve" in bracket
    assert "Table 2 W1-4 : Cleo v Finn" in bracket

    playing = night.open_matches(event.pk)
    assert sorted(playing) == ["W1-2", "W1-4"]
    night.play(playing["W1-2"]["game"], "Dev")
    forfeit = night.post_once(night.td, playing["W1-4"]["url"], {
        "result-kind": "forfeit", "result-winner": str(ids["Finn"]), "result-reason": "Cleo left ill"})
    assert forfeit.status_code == 302
    assert "Finn won by forfeit" in words(night.td.get(playing["W1-4"]["url"]))

    night.post_once(night.td, f"{base}/pair/", {}, page_url=f"{base}/")
    playing = night.open_matches(event.pk)
    assert playing["W2-1"]["players"] == ["Ann", "Dev"]

    # The referee corrects W1-2's only hand: Eve went gin, not Dev. W2-1 was opened as Ann v Dev.
    w12 = Match.objects.get(event=event, bracket_id="W1-2").match_games.get().game_id
    corrected = night.ref1.post(f"/games/{w12}/hands/1/correct/", {
        "result": "gin", "knocker": "Eve", "opponent_deadwood": "40", "reason": "knocker misread"})
    assert corrected.status_code == 302, words(corrected)
    night.ref2.post(f"/games/{w12}/hands/1/confirm/", {})
    page = words(night.td.get(f"{base}/"))
    assert "Results changed after pairings were made from them" in page
    assert "W2-1 (Ann v Dev): was opened from a result that has since changed: the bracket now has Ann v Eve" in page
    assert "Reset 1 match and open the right one" in page
    assert "Ann v Eve" in words(Client().get(f"{base}/bracket/"))
    refused = night.post_once(night.td, f"{base}/pair/", {}, page_url=f"{base}/")
    assert "W2-1" in words(night.td.get(refused["Location"]))  # nothing is paired past a stale match

    reset = night.post_once(night.td, f"{base}/reset/", {"reason": "W1-2 corrected"}, page_url=f"{base}/")
    assert reset.status_code == 302
    assert night.open_matches(event.pk)["W2-1"]["players"] == ["Ann", "Eve"]
    assert "Results changed" not in words(night.td.get(f"{base}/"))

    seed_of = {n: i for i, n in enumerate(SIX, start=1)}
    for _ in range(12):
        playing = night.open_matches(event.pk)
        for row in playing.values():
            night.play(row["game"], min(row["players"], key=seed_of.get))
        if Event.objects.get(pk=event.pk).status == Event.Status.COMPLETE or "Champion" in words(
                Client().get(f"{base}/bracket/")):
            break
        night.post_once(night.td, f"{base}/pair/", {}, page_url=f"{base}/")
    bracket = words(Client().get(f"{base}/bracket/"))
    assert "Champion: Ann" in bracket
    assert Event.objects.get(pk=event.pk).status == Event.Status.COMPLETE

    calculator = run_event(event_document(event))
    standings = Client().get(f"/api/v1/events/{event.pk}/standings/").json()
    assert [{k: v for k, v in r.items() if k != "entry"} for r in standings] == calculator["standings"]
    assert [(r["name"], r["rank"]) for r in standings] == [
        ("Ann", 1), ("Bob", 2), ("Cleo", 3), ("Dev", 4), ("Eve", 5), ("Finn", 5)]
    page = words(Client().get(f"{base}/standings/"))
    assert "Champion: Ann" in page
    assert "Complete: every match has a result. Champion: Ann" in page
    assert "# Entry MP Pl W-D-L Byes Margin 1 Ann 6 3 3-0-0 1 +810 2 Bob 4 4 2-0-2 1 0 3 Cleo" in page
