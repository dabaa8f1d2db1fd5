"""The paper pads: the Hollywood sheet as three column pairs side by side, each game with its running
totals, boxes and settlement, the match net under them; the printed sheet's date, table, club,
conventions in words and two signature lines. Numbers worked out by hand from RULES.md."""

from html.parser import HTMLParser

import pytest

from scoring import services
from scoring.models import Game

from ..factories import as_actor, game, knock, organiser

pytestmark = pytest.mark.django_db


def won(player, points):
    """A knock worth exactly ``points`` to ``player``."""
    return knock(player, 1, points + 1)


# Ann 60 (game 1), Ann 50 (games 1, 2: closes game 1 at 110, Bob shut out), Bob 30 (shift rule: game 2),
# Ann 55 (games 2, 3: closes game 2 at 105), Bob 40 and 70 (game 3: closes it at 110).
MATCH = [won("Ann", 60), won("Ann", 50), won("Bob", 30), won("Ann", 55), won("Bob", 40), won("Bob", 70)]


class Pad(HTMLParser):
    """The pad table read back: hand rows and footer lines as {(game, player or None): text}."""

    def __init__(self):
        super().__init__()
        self.in_pad = False
        self.heads, self.hands, self.lines = [], {}, {}
        self.row = None
        self.cell = None
        self.text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "pad" in (a.get("class") or "").split():
            self.in_pad = True
        if not self.in_pad:
            return
        if tag == "tr":
            self.row = {}
            if "data-hand" in a:
                self.hands[int(a["data-hand"])] = self.row
            elif "data-line" in a:
                self.lines[a["data-line"]] = self.row
        if tag in ("td", "th"):
            self.cell = (a.get("data-game"), a.get("data-player"), tag, a.get("scope"))
            self.text = ""

    def handle_data(self, data):
        if self.cell is not None:
            self.text += data

    def handle_endtag(self, tag):
        if not self.in_pad:
            return
        if tag in ("td", "th") and self.cell is not None:
            game_no, player, kind, scope = self.cell
            text = " ".join(self.text.split())
            if scope == "colgroup":
                self.heads.append(text)
            elif kind == "td" and self.row is not None and game_no:
                self.row[(int(game_no), player)] = text
            self.cell = None
        if tag == "table":
            self.in_pad = False


def pad_of(page):
    parser = Pad()
    parser.feed(page)
    return parser


def hollywood(hands, **extra):
    org = organiser()
    g = game(fmt="hollywood", requires_confirmation=False, by=org, **extra)
    for hand in hands:
        services.record_hand(actor=as_actor(org), game=g, data=hand)
    return g


def column(pad, game_no, player):
    return [row[(game_no, player)] for _number, row in sorted(pad.hands.items())]


def test_the_hollywood_sheet_is_three_games_side_by_side_each_with_its_running_totals(client):
    g = hollywood(MATCH)
    pad = pad_of(client.get(f"/games/{g.pk}/").content.decode())
    assert pad.heads == ["Game 1 ✓", "Game 2 ✓", "Game 3 ✓"]
    # each win is the winner's new running total in every game it was credited to; blank elsewhere
    assert column(pad, 1, "Ann") == ["60", "110", "", "", "", ""]
    assert column(pad, 1, "Bob") == ["", "", "", "", "", ""]
    assert column(pad, 2, "Ann") == ["", "50", "", "105", "", ""]
    assert column(pad, 2, "Bob") == ["", "", "30", "", "", ""]
    assert column(pad, 3, "Ann") == ["", "", "", "55", "", ""]
    assert column(pad, 3, "Bob") == ["", "", "", "", "40", "110"]


def footer(pad, line):
    """A footer line across the three games: [(Ann, Bob) of game 1, of game 2, of game 3]."""
    return [(pad.lines[line][(n, "Ann")], pad.lines[line][(n, "Bob")]) for n in (1, 2, 3)]


def words(page):
    return " ".join(page.split()).replace("<strong>", "").replace("</strong>", "")


def test_each_hollywood_game_is_settled_in_its_own_column_pair_and_the_match_net_is_under_them(client):
    """Game 1: Ann 110 + 2 boxes 40 + game 100 + shutout 100 = 350 v 0. Game 2: Ann 105 + 40 + 100 =
    245 v Bob 30 + 20 = 50 (Ann by 195). Game 3: Bob 110 + 40 + 100 = 250 v Ann 55 + 20 = 75 (Bob by
    175). Match: Ann 350 + 195 - 175 = 370."""
    g = hollywood(MATCH)
    page = client.get(f"/games/{g.pk}/").content.decode()
    pad = pad_of(page)
    assert footer(pad, "points") == [("110", "0"), ("105", "30"), ("55", "110")]
    assert footer(pad, "boxes") == [("40 (2)", "0 (0)"), ("40 (2)", "20 (1)"), ("20 (1)", "40 (2)")]
    assert footer(pad, "game_bonus") == [("100", "0"), ("100", "0"), ("0", "100")]
    assert footer(pad, "shutout") == [("100", "0"), ("0", "0"), ("0", "0")]
    assert footer(pad, "total") == [("350", "0"), ("245", "50"), ("75", "250")]
    assert [pad.lines["result"][(n, None)] for n in (1, 2, 3)] == ["Ann by 350", "Ann by 195", "Bob by 175"]
    assert "Match: Ann wins by 370 (net of the three games)" in words(page)


def test_a_hollywood_game_still_open_shows_open_and_the_net_counts_only_closed_games(client):
    g = hollywood(MATCH[:3])
    page = client.get(f"/games/{g.pk}/").content.decode()
    pad = pad_of(page)
    assert pad.heads == ["Game 1 ✓", "Game 2", "Game 3"]
    assert [pad.lines["result"][(n, None)] for n in (1, 2, 3)] == ["Ann by 350", "open", "open"]
    assert footer(pad, "game_bonus") == [("100", "0"), ("–", "–"), ("–", "–")]
    assert footer(pad, "total") == [("350", "0"), ("70", "50"), ("0", "0")]  # per-hand boxes count as won
    assert "Net of the closed games so far: Ann 350 · Bob -350" in words(page)


def test_a_standard_game_has_no_hollywood_pad(client):
    g = game(requires_confirmation=False)
    assert 'class="sheet pad"' not in client.get(f"/games/{g.pk}/").content.decode()


def test_the_printed_sheet_carries_date_table_club_conventions_in_words_and_two_signature_lines(client):
    g = hollywood(MATCH[:2], conventions={"preset": "classic", "gin_bonus": 25, "shutout": "flat",
                                          "shutout_bonus": 150})
    Game.objects.filter(pk=g.pk).update(table_label="Table 7")
    club = g.seats.get(position=0).player.club
    page = words(client.get(f"/games/{g.pk}/").content.decode())
    assert f'<dd data-paper="date">{g.created_at:%A} {g.created_at.day} {g.created_at:%B %Y}</dd>' in page
    assert '<dd data-paper="table">Table 7</dd>' in page
    assert f'<dd data-paper="club">{club}</dd>' in page
    for said in ("Preset: classic", "Gin bonus: 25", "Shutout: adds a flat bonus", "Flat shutout bonus: 150",
                 "Boxes paid: per hand won", "Next dealer: the loser deals", "Hollywood shift rule: yes",
                 "A tie: is an undercut", "Oklahoma: no", "Game target: 100"):
        assert f"<span>{said.split(': ')[0]}:</span> {said.split(': ')[1]}</li>" in page
    # only what this format reads: no Jersey or partnership values, no Oklahoma details when it is off
    assert "Jersey" not in page.split("paper-conventions")[1].split("</section>")[0]
    assert "Spade upcard" not in page
    assert page.count("data-signature") == 2
    assert "Signed for Ann" in page
    assert "Signed for Bob" in page


def test_the_printed_partnership_sheet_is_signed_for_each_team(client):
    g = game(names=("Ann", "Cleo", "Bob", "Dev"), fmt="partnership")
    page = client.get(f"/games/{g.pk}/").content.decode()
    assert page.count("data-signature") == 2
    assert "Signed for Ann &amp; Cleo" in page
    assert "Signed for Bob &amp; Dev" in page
    assert "Partnership target" in page
