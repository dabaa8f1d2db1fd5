"""The projector page (/events/<id>/display/): the event on the hall's screen, no site menu, readable by
whoever may read the event (a private one is 404 to anyone else), its screens by the event's state, its
refresh answered 304 when nothing changed, and a constant number of queries however many tables."""

import re

import pytest
from django.core.cache import caches
from django.template.loader import render_to_string
from django.test import Client

from tournaments import selectors, services
from tournaments.models import Match

from ..factories import user
from .stored import Officials, entry, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def _swiss_in_round_one(people, size, **options):
    event = new_event(people, names=[f"P{i:03d}" for i in range(size)], rounds=3, **options)
    services.pair_next_round(actor=people.dir, event=event)
    return event


def test_the_projector_page_shows_the_rounds_tables_in_words_without_the_site_menu():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    first = open_matches(event, 1)[0]
    winner = first.players.order_by("side").first().entry.player.display_name
    play_match(people, first, winner, 30)
    page = Client().get(f"/events/{event.pk}/display/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="site-nav"' not in html
    assert "<footer" not in html
    assert "Round 1 of 3" in html
    assert html.count('class="display-table ') == 2
    assert f'<span class="line won"><span class="name">{winner}</span><span class="note">won by ' in html
    assert html.count("match-decided") == 1
    assert html.count("match-waiting") == 1
    assert "Standings during round 1" in html  # one result in: the standings so far
    assert 'data-screen="bracket"' not in html
    assert f'data-live-url="/events/{event.pk}/display/?fragment=1"' in html
    assert 'data-live="1"' in html
    assert 'class="live-offline" role="status" hidden' in html
    assert "/static/js/live.js" in html
    assert "/static/js/display.js" in html
    assert 'data-seconds="15"' in html


def test_each_screen_stays_the_seconds_asked_within_5_seconds_and_5_minutes():
    people = Officials()
    event = _swiss_in_round_one(people, 4)
    for asked, held in (("20", 15 + 5), ("1", 5), ("9999", 300), ("x", 15), ("", 15)):
        html = Client().get(f"/events/{event.pk}/display/?seconds={asked}").content.decode()
        assert f'data-seconds="{held}"' in html, asked


def test_a_private_events_projector_page_is_not_found_for_whoever_may_not_read_it():
    people = Officials()
    event = _swiss_in_round_one(people, 4, is_public=False)
    for url in (f"/events/{event.pk}/display/", f"/events/{event.pk}/display/?fragment=1"):
        assert Client().get(url).status_code == 404
        assert signed_in(user()).get(url).status_code == 404
        for official in (people.recorder, people.director, people.organiser):
            assert signed_in(official).get(url).status_code == 200
    assert Client().get("/events/999999/display/").status_code == 404


def test_before_round_1_the_screen_says_it_starts_soon_and_how_many_are_checked_in():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2, check_in=True)
    services.check_in_entry(actor=people.dir, entry=entry(event, "Ann"))
    html = Client().get(f"/events/{event.pk}/display/").content.decode()
    assert "Round 1 starts soon" in html
    assert "Checked in: 1 of 4" in html
    assert 'data-screen="pairings"' not in html
    plain = new_event(Officials(), names=["Ann", "Bob", "Cleo"], rounds=2)
    html = Client().get(f"/events/{plain.pk}/display/").content.decode()
    assert "Round 1 starts soon" in html
    assert "3 entries" in html
    assert "Checked in" not in html


def test_a_directors_projector_shows_the_venue_check_in_qr_before_round_1_and_no_one_elses_does():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2, check_in=True)
    code = services.venue_code(event)
    directors = signed_in(people.director).get(f"/events/{event.pk}/display/").content.decode()
    assert 'id="display-venue"' in directors
    assert "Scan to check in" in directors
    assert directors.count("<svg") == 1
    for reader in (Client(), signed_in(people.recorder), signed_in(user("passer-by"))):
        page = reader.get(f"/events/{event.pk}/display/").content.decode()
        assert "display-venue" not in page
        assert code not in page
        assert "display-venue" not in reader.get(f"/events/{event.pk}/display/?fragment=1").content.decode()
    for name in ("Ann", "Bob", "Cleo", "Dev"):
        services.check_in_entry(actor=people.dir, entry=entry(event, name))
    services.pair_next_round(actor=people.dir, event=event)
    assert "display-venue" not in signed_in(people.director).get(f"/events/{event.pk}/display/").content.decode()
    plain = new_event(Officials(), names=["Ann", "Bob"], rounds=1)
    assert "display-venue" not in signed_in(plain.directors.get()).get(f"/events/{plain.pk}/display/").content.decode()


def test_a_complete_knockout_shows_its_champion_the_final_standings_and_the_bracket():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], fmt="single_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    while True:
        for row in selectors.matches(event):
            if row["status"] in ("waiting", "playing"):
                play_match(people, Match.objects.get(pk=row["id"]), row["players"][0])
        if selectors.event_answer(event)["complete"]:
            break
        services.pair_next_round(actor=people.dir, event=event)
    champion = selectors.event_answer(event)["champion"]
    assert champion
    html = Client().get(f"/events/{event.pk}/display/").content.decode()
    assert f"Champion: <strong>{champion}</strong>" in html
    assert "Final standings" in html
    assert 'data-screen="bracket"' in html
    assert 'data-live="1"' not in html  # nothing more to refresh
    assert len(re.findall(r'<td class="rank">', html)) == 4


def test_a_running_knockout_shows_the_matches_to_play_with_their_tables_and_the_bracket():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], fmt="single_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    html = Client().get(f"/events/{event.pk}/display/").content.decode()
    assert "Matches to play" in html
    assert html.count('class="display-table ') == 2
    assert "<small>table</small>1" in html
    assert 'data-screen="bracket"' in html
    assert "Semi-finals" in html


def test_a_cancelled_event_says_so_and_stops_refreshing():
    people = Officials()
    event = _swiss_in_round_one(people, 4)
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    html = Client().get(f"/events/{event.pk}/display/").content.decode()
    assert "This event was cancelled." in html
    assert 'data-live="1"' not in html


def test_the_refresh_is_answered_304_until_a_result_changes_what_it_shows():
    people = Officials()
    event = _swiss_in_round_one(people, 4)
    anyone = Client()
    part = anyone.get(f"/events/{event.pk}/display/?fragment=1")
    assert part.status_code == 200
    assert part["ETag"].startswith('W/"display-')
    assert part["Cache-Control"] == "no-cache"
    assert "<html" not in part.content.decode()
    assert 'data-screen="pairings"' in part.content.decode()
    again = anyone.get(f"/events/{event.pk}/display/?fragment=1", HTTP_IF_NONE_MATCH=part["ETag"])
    assert again.status_code == 304
    assert again["X-Live-Version"] == part["X-Live-Version"]
    m = open_matches(event, 1)[0]
    play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    moved = anyone.get(f"/events/{event.pk}/display/?fragment=1", HTTP_IF_NONE_MATCH=part["ETag"])
    assert moved.status_code == 200
    assert moved["ETag"] != part["ETag"]
    assert "won by" in moved.content.decode()


@pytest.mark.parametrize("tables", [8, 64])
def test_the_projector_page_costs_the_same_queries_for_8_and_64_tables(tables, django_assert_num_queries):
    people = Officials()
    event = _swiss_in_round_one(people, tables * 2)
    selectors.event_answer(event)  # the answer is stored once, as the on-commit refresh does
    anyone = Client()
    url = f"/events/{event.pk}/display/"
    # the event with its results' key, the round, its games' last change, the shared cache; the answer, the
    # tables (5 queries); the screens kept in the shared cache (the tests' database cache: 5 queries); the
    # round's clock, for the screens' part and for the top of the page (2)
    with django_assert_num_queries(17):
        html = anyone.get(url).content.decode()
    assert html.count('class="display-table ') == tables
    with django_assert_num_queries(4):  # the screens are kept for that version; the clock at the top
        assert anyone.get(url).status_code == 200
    caches["versioned"].clear()  # another worker: the shared cache has them
    with django_assert_num_queries(4):
        part = anyone.get(f"{url}?fragment=1")
    with django_assert_num_queries(3):  # a screen's refresh with nothing new: a 304
        assert anyone.get(f"{url}?fragment=1", HTTP_IF_NONE_MATCH=part["ETag"]).status_code == 304


def test_the_event_page_links_its_officials_to_the_projector_page():
    people = Officials()
    event = _swiss_in_round_one(people, 4)
    link = f'<a href="/events/{event.pk}/display/" id="projector-link">Projector page for the hall\'s screen</a>'
    assert link in signed_in(people.director).get(f"/events/{event.pk}/").content.decode()
    assert link in signed_in(people.organiser).get(f"/events/{event.pk}/").content.decode()
    assert "Projector page" not in Client().get(f"/events/{event.pk}/").content.decode()


def test_the_round_clock_shows_at_the_top_of_the_projector_page_once_started():
    assert render_to_string("tournaments/_display_clock.html", {}).strip() == ""
    people = Officials()
    event = _swiss_in_round_one(people, 8)
    url = f"/events/{event.pk}/display/"
    assert "data-clock" not in Client().get(url).content.decode()
    services.run_round_clock(actor=people.dir, round=event.event_rounds.get(number=1), action="start", minutes=30)
    page = Client().get(url).content.decode()
    top = page[page.index('id="display-clock-slot"'):page.index('id="live"')]
    assert 'data-status="running"' in top
    assert "Round 1:" in top
    part = Client().get(f"{url}?fragment=1").content.decode()  # a refresh carries the clock too
    assert 'id="display-clock-next"' in part
    assert 'data-status="running"' in part
