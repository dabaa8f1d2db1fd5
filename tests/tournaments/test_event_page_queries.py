"""The pages and API reads a tournament night refreshes cost the same number of queries for 12 entries
as for 120: the standings (page and API, JSON and CSV), the pairings and the bracket."""

import gzip
import json

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from scoring import services as scoring
from tournaments import selectors, services

from ..factories import user
from .stored import Officials, new_event, open_matches


def reader():
    """A program reading the standings with its API token (anonymous reads are throttled per address)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {scoring.issue_api_token(user=user())}")
    return client

pytestmark = pytest.mark.django_db


def _swiss_in_round_two(size):
    people = Officials()
    event = new_event(people, names=[f"P{i:03d}" for i in range(size)], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event, 1):
        services.record_forfeit(actor=people.dir, match=m, winner=m.players.order_by("side").first().entry,
                                reason="quick")
    services.pair_next_round(actor=people.dir, event=event)
    selectors.event_answer(event)  # the answer is stored once, as the on-commit refresh does
    return event


def _bracket_in_round_two(size):
    people = Officials()
    event = new_event(people, names=[f"P{i:03d}" for i in range(size)], fmt="double_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event):
        services.record_forfeit(actor=people.dir, match=m, winner=m.players.order_by("side").first().entry,
                                reason="quick")
    services.pair_next_round(actor=people.dir, event=event)
    selectors.event_answer(event)
    return event


def another_worker():
    """A worker that has not read this event yet: its memory is empty, the shared cache is not."""
    caches["versioned"].clear()


@pytest.mark.parametrize("size", [12, 120])
def test_swiss_reads_cost_the_same_queries_for_12_and_120_entries(size, django_assert_num_queries):
    event = _swiss_in_round_two(size)
    program, anyone = reader(), Client()
    standings = f"/api/v1/events/{event.pk}/standings/"
    # the token, its rate counter, the event with its results' key, the stored standings text
    with django_assert_num_queries(4):
        response = program.get(standings)
    assert len(response.json()) == size
    with django_assert_num_queries(3):  # read again: the text for that key is in this worker's memory
        assert program.get(standings).content == response.content
    zipped = program.get(standings, HTTP_ACCEPT_ENCODING="gzip, br")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert json.loads(gzip.decompress(zipped.content)) == response.json()
    with django_assert_num_queries(4):  # the token, its counter, the event, the stored answer (its rows as CSV)
        response = program.get(f"{standings}?format=csv")
    assert response.content.decode().count("\r\n") == size + 1

    page_url = f"/events/{event.pk}/standings/"
    first = anyone.get(page_url)  # renders the table and the page once, for every phone
    with django_assert_num_queries(2):  # the event with its results' key, the knockouts it links; page in memory
        page = anyone.get(page_url)
    assert page.content == first.content
    assert page.content.decode().count("<tr ") == min(size, 100)  # a page of 100
    another_worker()
    with django_assert_num_queries(3):  # ... or in the shared cache
        assert anyone.get(page_url).content == first.content
    with django_assert_num_queries(2):  # the 5 s refresh: the event, the table part
        assert anyone.get(f"{page_url}?fragment=1").status_code == 200
    with django_assert_num_queries(1):
        assert anyone.get(f"{page_url}?fragment=1").status_code == 200

    pairings = f"/events/{event.pk}/pairings/"
    first = anyone.get(pairings)
    with django_assert_num_queries(3):  # the event with its key, the round, its games' last change
        page = anyone.get(pairings)
    assert page.content == first.content
    assert page.content.decode().count('class="pairing ') == size // 2
    another_worker()
    with django_assert_num_queries(4):  # ... and the page from the shared cache
        assert anyone.get(pairings).content == first.content


@pytest.mark.parametrize("size", [12, 120])
def test_bracket_reads_cost_the_same_queries_for_12_and_120_entries(size, django_assert_num_queries):
    event = _bracket_in_round_two(size)
    anyone = Client()
    program = reader()
    with django_assert_num_queries(9):  # the event with its key, its tables (ETag), the answer, the open matches
        page = anyone.get(f"/events/{event.pk}/bracket/")
    assert page.content.decode().count('class="bracket-match ') > size
    with django_assert_num_queries(4):  # the token, its rate counter, the event, the stored standings
        assert len(program.get(f"/api/v1/events/{event.pk}/standings/").json()) == size
    with django_assert_num_queries(3):
        assert len(program.get(f"/api/v1/events/{event.pk}/standings/").json()) == size
