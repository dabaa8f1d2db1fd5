"""The stored events' web pages through Django's test client, as a director and a referee use them:
create, enter, seed, pair (and draft, swap, publish), print, play, results, drops; the phone pages."""

import html
import re

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.models import Game, Player
from tournaments.models import Entry, Event, Match, MatchResult, Round

from ..factories import as_actor, gin, organiser, player, user
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def once(page) -> str:
    return re.search(r'name="once" value="([^"]+)"', page.content.decode()).group(1)


def text(page) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.content.decode()))


def test_an_organiser_creates_an_event_and_its_director_enters_seeds_and_pairs_it():
    boss, director = organiser("boss"), user("td")
    web = signed_in(boss)
    form = web.get("/events/new/")
    assert form.status_code == 200
    created = web.post("/events/new/", {
        "name": "Thursday Swiss", "format": "swiss", "match_format": "single_game", "is_public": "on",
        "preset": "classic", "conv_gin_bonus": "25", "rounds": "3", "win": "3", "tiebreak_1": "match_points",
        "tiebreak_2": "buchholz", "grand_final": "reset", "directors": [director.pk],
    })
    event = Event.objects.get()
    assert created.status_code == 302
    assert created["Location"] == f"/events/{event.pk}/entries/"
    assert event.conventions["gin_bonus"] == 25
    assert event.match_points["win"] == 3
    assert event.tiebreaks == ["match_points", "buchholz"]
    assert list(event.directors.all()) == [director]

    td = signed_in(director)
    page = td.get(f"/events/{event.pk}/entries/")
    assert "Paste a list or CSV" in text(page)
    player("Zoe")
    existing = Player.objects.get(display_name="Zoe")
    added = td.post(f"/events/{event.pk}/entries/", {"action": "add", "once": once(page), "add-player": existing.pk})
    assert added.status_code == 302
    again = td.post(f"/events/{event.pk}/entries/", {"action": "add", "once": once(page), "add-player": existing.pk})
    assert again.status_code == 302  # the same form sent twice: nothing done twice
    assert Entry.objects.filter(event=event).count() == 1
    page = td.get(f"/events/{event.pk}/entries/")
    bad = td.post(f"/events/{event.pk}/entries/", {"action": "paste", "once": once(page),
                                                   "paste-text": "Ann,1900\nBob,high\n"})
    assert bad.status_code == 400
    assert "Line 2: the rating must be a whole number; &#x27;high&#x27; given" in bad.content.decode()
    assert Entry.objects.filter(event=event).count() == 1
    page = td.get(f"/events/{event.pk}/entries/")
    td.post(f"/events/{event.pk}/entries/", {"action": "paste", "once": once(page),
                                            "paste-text": "Ann,1900\nBob,1500\nCleo,1700"})
    assert Entry.objects.filter(event=event).count() == 4
    page = td.get(f"/events/{event.pk}/entries/")
    td.post(f"/events/{event.pk}/entries/", {"action": "seed", "method": "rating", "once": once(page)})
    seeds = dict(Entry.objects.filter(event=event).values_list("player__display_name", "seed"))
    assert seeds == {"Ann": 1, "Cleo": 2, "Bob": 3, "Zoe": 4}
    page = td.get(f"/events/{event.pk}/entries/")
    ids = dict(Entry.objects.filter(event=event).values_list("player__display_name", "pk"))
    td.post(f"/events/{event.pk}/entries/", {"action": "seed", "method": "manual", "once": once(page),
                                            f"seed-{ids['Zoe']}": "1", f"seed-{ids['Ann']}": "2",
                                            f"seed-{ids['Bob']}": "3", f"seed-{ids['Cleo']}": ""})
    seeds = dict(Entry.objects.filter(event=event).values_list("player__display_name", "seed"))
    assert seeds == {"Zoe": 1, "Ann": 2, "Bob": 3, "Cleo": None}

    page = td.get(f"/events/{event.pk}/")
    assert "Pair round 1 (4 entries)" in text(page)
    paired = td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
    assert paired.status_code == 302
    assert paired["Location"] == f"/events/{event.pk}/sheet/?round=1"
    twice = td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
    assert twice["Location"] == paired["Location"]  # sent twice: the sheet of what the first one paired
    assert Round.objects.filter(event=event).count() == 1
    sheet = td.get(paired["Location"])
    assert sheet["Cache-Control"] == "no-store"
    assert sheet.content.decode().count("<svg") == 2  # a QR code per table, shown this once
    assert "http://testserver/r/#" in sheet.content.decode()
    assert "Table 1" in text(sheet)
    assert "Zoe v Bob" in text(sheet)
    later = td.get(paired["Location"])
    assert "<svg" not in later.content.decode()
    assert "Make new table links and show them" in text(later)
    reissued = td.post(paired["Location"], {"once": once(later)})
    assert reissued.status_code == 302
    assert td.get(reissued["Location"]).content.decode().count("<svg") == 2

    public = Client().get(f"/events/{event.pk}/pairings/")
    assert public.status_code == 200
    words = text(public)
    assert "Round 1 of 3" in words
    assert "Table 1 Zoe (0) v Bob (0)" in words  # each name with its match points before the round
    assert "Table 2 Ann (0) v Cleo (0)" in words
    assert "Zoe : table 1" in words


def test_a_draft_swiss_round_is_swapped_with_a_plain_warning_then_published():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3)
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/")
    drafted = td.post(f"/events/{event.pk}/pair/", {"once": once(page), "draft": "1"})
    assert drafted["Location"] == f"/events/{event.pk}/rounds/1/"
    assert not Game.objects.exists()
    page = td.get(drafted["Location"])
    assert "A draft: no game is made yet" in text(page)
    matches = open_matches(event, 1)
    (bye,) = Match.objects.filter(event=event, is_bye=True)
    playing = matches[0].players.order_by("side").first().entry
    sitting = bye.players.get().entry
    swapped = td.post(drafted["Location"], {"action": "swap", "swap-first": playing.pk, "swap-second": sitting.pk})
    assert swapped.status_code == 302
    assert Match.objects.get(pk=bye.pk).players.get().entry == playing
    page = td.get(drafted["Location"])
    published = td.post(drafted["Location"], {"action": "publish", "once": once(page)})
    assert published["Location"] == f"/events/{event.pk}/sheet/?round=1"
    assert Game.objects.count() == 2
    for m in open_matches(event, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    page = td.get(f"/events/{event.pk}/")
    td.post(f"/events/{event.pk}/pair/", {"once": once(page), "draft": "1"})
    rnd2 = f"/events/{event.pk}/rounds/2/"
    # swap two who met in round 1 into one match: a rematch, said plainly, needing a confirmation
    met = open_matches(event, 1)[0]
    a, b = (p.entry for p in met.players.order_by("side"))
    by_match = {p.entry_id: p.match_id for m in Match.objects.filter(round__number=2, event=event)
                for p in m.players.all()}
    if by_match[a.pk] == by_match[b.pk]:
        pytest.skip("the pairing already put them together")
    partner = Match.objects.get(pk=by_match[a.pk]).players.exclude(entry=a).first()
    refused = td.post(rnd2, {"action": "swap", "swap-first": partner.entry_id, "swap-second": b.pk})
    assert refused.status_code == 400, text(refused)
    said = text(refused)
    assert (f"This swap makes a rematch: {a.player} and {b.player} have already played each other." in said
            or f"This swap makes a rematch: {b.player} and {a.player} have already played each other." in said), said
    assert "Swap anyway" in text(refused)
    confirmed = td.post(rnd2, {"action": "swap", "swap-first": partner.entry_id, "swap-second": b.pk,
                               "swap-confirm": "on"})
    assert confirmed.status_code == 302
    assert Match.objects.get(pk=by_match[a.pk]).players.filter(entry=b).exists()


def test_a_directors_forfeit_adjustment_and_clear_on_the_match_page_with_their_history():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2, forfeit_margin=50)
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/")
    td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
    match = open_matches(event, 1)[0]
    first, second = (p.entry for p in match.players.order_by("side"))
    url = f"/events/{event.pk}/matches/{match.pk}/"
    page = td.get(url)
    assert "A director's result" in text(page)
    missing = td.post(url, {"result-kind": "forfeit", "result-reason": "no show", "once": once(page)})
    assert missing.status_code == 400
    assert "Name the winner of the forfeit" in text(missing)
    page = td.get(url)
    done = td.post(url, {"result-kind": "forfeit", "result-winner": first.pk, "result-reason": "no show",
                         "once": once(page)})
    assert done.status_code == 302
    assert f"{first.player} won by forfeit" in text(td.get(url))
    page = td.get(url)
    td.post(url, {"result-kind": "adjusted", "result-winner": "draw", "result-margin": "0",
                  "result-reason": "agreed", "once": once(page)})
    page = td.get(url)
    assert "Draw" in text(page)
    assert "adjusted" in text(page)
    td.post(url, {"result-kind": "cleared", "result-reason": "play it after all", "once": once(page)})
    words = text(td.get(url))
    assert "not started" in words
    assert [r.kind for r in MatchResult.objects.filter(match=match).order_by("id")] == ["forfeit", "adjusted",
                                                                                        "cleared"]
    assert "no show" in words
    assert "agreed" in words
    assert "play it after all" in words
    # the match page is read-only to anyone else; a POST is refused
    assert "A director's result" not in text(Client().get(url))
    anonymous = Client().post(url, {"result-kind": "forfeit", "result-winner": second.pk, "result-reason": "x"})
    assert anonymous.status_code == 302  # to the sign-in page
    assert signed_in(people.recorder).post(url, {"result-kind": "forfeit", "result-winner": second.pk,
                                                 "result-reason": "x"}).status_code == 403
    assert MatchResult.objects.filter(match=match).count() == 3


def test_drop_and_late_entry_through_the_entries_page():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/")
    td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
    dev = Entry.objects.get(event=event, player__display_name="Dev")
    page = td.get(f"/events/{event.pk}/entries/")
    assert "a late entry" in text(page)
    td.post(f"/events/{event.pk}/entries/", {"action": "drop", "entry": dev.pk, "reason": "ill",
                                            "once": f"{once(page)}-{dev.pk}"})
    dev.refresh_from_db()
    assert (dev.dropped_after_round, dev.drop_reason) == (1, "ill")
    page = td.get(f"/events/{event.pk}/entries/")
    assert "dropped after round 1: ill" in text(page)
    td.post(f"/events/{event.pk}/entries/", {"action": "add", "once": once(page), "add-name": "Gail"})
    gail = Entry.objects.get(event=event, player__display_name="Gail")
    assert gail.joined_round == 2


def test_my_tables_lists_a_referees_open_tables_one_tap_from_their_entry_pages():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/")
    td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
    games = [m.match_games.get().game for m in open_matches(event, 1)]
    mine = signed_in(people.recorder).get("/events/my-tables/")
    body = mine.content.decode()
    for g in games:
        assert f'href="/games/{g.pk}/enter/"' in body
    scoring.record_hand(actor=as_actor(people.recorder), game=games[0], data=gin(games[0].player_names[0], 40))
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=games[0], number=1)
    body = signed_in(people.recorder).get("/events/my-tables/").content.decode()
    assert f'href="/games/{games[0].pk}/enter/"' not in body
    assert f'href="/games/{games[1].pk}/enter/"' in body
    assert "No table is waiting" in text(signed_in(user()).get("/events/my-tables/"))
    assert Client().get("/events/my-tables/").status_code == 302


def test_standings_page_is_live_finds_a_name_and_shows_any_earlier_round():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    td = signed_in(people.director)
    for number in (1, 2):
        page = td.get(f"/events/{event.pk}/")
        td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
        for m in open_matches(event, number):
            play_match(people, m, min(p.entry.player.display_name for p in m.players.select_related("entry__player")))
    page = Client().get(f"/events/{event.pk}/standings/")
    words = text(page)
    assert "Champion: Ann" in words
    # rank, name, match points first; then the tiebreaks in the event's order; then the record
    assert re.search(r"# Entry MP Buchholz Margin Head to head Pl W-D-L Byes 1 Ann 4 4 \+\d+ – 2 2-0-0 0", words)
    assert f'href="/api/v1/events/{event.pk}/standings/?format=csv"' in page.content.decode()
    found = Client().get(f"/events/{event.pk}/standings/?q=cle").content.decode()
    table = found[found.index("<table"):found.index("</table>")]
    assert "Cleo" in table
    assert "Bob" not in table
    early = Client().get(f"/events/{event.pk}/standings/?round=1")
    assert "As of round 1." in text(early)
    fragment = Client().get(f"/events/{event.pk}/standings/?fragment=1")
    assert fragment["X-Live-Version"]
    assert "<html" not in fragment.content.decode()


def test_the_pairings_page_follows_the_scores_as_hands_are_recorded():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/")
    td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
    before = Client().get(f"/events/{event.pk}/pairings/?fragment=1")
    assert "not started" in text(before)
    g = open_matches(event, 1)[0].match_games.get().game
    scoring.record_hand(actor=as_actor(people.recorder), game=g,
                        data={"result": "knock", "knocker": g.player_names[0], "knocker_deadwood": 3,
                              "opponent_deadwood": 10})
    during = Client().get(f"/events/{event.pk}/pairings/?fragment=1")
    assert during["X-Live-Version"] != before["X-Live-Version"]
    assert f"playing {g.player_names[0]} 0 – {g.player_names[1]} 0" in text(during)
    assert "to confirm" not in text(during)  # spectators see the counted score, not the referee's queue
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=g, number=1)
    after = Client().get(f"/events/{event.pk}/pairings/?fragment=1")
    # The score toward the target, as the table shows it (7), not the grand total with the box bonus (27)
    assert f"playing {g.player_names[0]} 7 – {g.player_names[1]} 0" in text(after)
    assert after["ETag"] != during["ETag"]
    # A second hand waiting for its PIN changes nothing a spectator sees: same version, and a phone that
    # holds it gets a 304 with no body
    scoring.record_hand(actor=as_actor(people.recorder), game=g,
                        data={"result": "knock", "knocker": g.player_names[0], "knocker_deadwood": 3,
                              "opponent_deadwood": 10})
    unchanged = Client().get(f"/events/{event.pk}/pairings/?fragment=1", HTTP_IF_NONE_MATCH=after["ETag"])
    assert (unchanged.status_code, unchanged.content, unchanged["ETag"]) == (304, b"", after["ETag"])


def test_the_standings_page_and_api_show_a_new_result_at_once_through_their_caches():
    """Everything kept for phones is keyed by the results it was made from: a new result is a new key."""
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/")
    td.post(f"/events/{event.pk}/pair/", {"once": once(page)})
    phone, program = Client(), Client()
    before = [text(phone.get(f"/events/{event.pk}/standings/")),
              program.get(f"/api/v1/events/{event.pk}/standings/").json(),
              text(phone.get(f"/events/{event.pk}/pairings/"))]
    assert "0-0-0" in before[0]
    match = open_matches(event, 1)[0]
    winner = match.players.order_by("side").first().entry.player.display_name
    play_match(people, match, winner)
    page = text(phone.get(f"/events/{event.pk}/standings/"))
    assert re.search(rf"1 {winner} 2 .* 1 1-0-0", page)  # rank, name, 2 match points, ..., the record
    assert next(r for r in program.get(f"/api/v1/events/{event.pk}/standings/").json()
                if r["name"] == winner)["wins"] == 1
    assert f"{winner} won by" in text(phone.get(f"/events/{event.pk}/pairings/"))


def test_a_pasted_name_alike_a_club_players_is_refused_unless_asked_and_new_players_are_named():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    player("Rosa Márquez")
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/entries/")
    refused = td.post(f"/events/{event.pk}/entries/", {"action": "paste", "once": once(page),
                                                       "paste-text": "Rosa Marquez\nTeo Vidal"})
    assert refused.status_code == 400
    assert "Line 1: Rosa Marquez is not in the club, but Rosa Márquez is" in html.unescape(refused.content.decode())
    assert Entry.objects.filter(event=event).count() == 2
    page = td.get(f"/events/{event.pk}/entries/")
    added = td.post(f"/events/{event.pk}/entries/", {"action": "paste", "once": once(page),
                                                     "paste-text": "Rosa Márquez\nTeo Vidal"}, follow=True)
    assert "2 entries added; 1 new player in the club: Teo Vidal." in html.unescape(added.content.decode())
    page = td.get(f"/events/{event.pk}/entries/")
    form = {"action": "paste", "once": once(page), "paste-text": "Rosa Marquez", "paste-new_alike": "on"}
    asked = td.post(f"/events/{event.pk}/entries/", form, follow=True)
    assert "1 entries added; 1 new player in the club: Rosa Marquez." in html.unescape(asked.content.decode())
