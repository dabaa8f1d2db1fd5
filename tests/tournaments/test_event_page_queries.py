"""The pages and API reads a tournament night refreshes cost the same number of queries for 12 entries
as for 120: the standings (page and API, JSON and CSV), the pairings and the bracket."""

import pytest
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


@pytest.mark.parametrize("size", [12, 120])
def test_swiss_reads_cost_the_same_queries_for_12_and_120_entries(size, django_assert_num_queries):
    event = _swiss_in_round_two(size)
    program, anyone = reader(), Client()
    with django_assert_num_queries(3):  # the token, the event, the stored standings text
        response = program.get(f"/api/v1/events/{event.pk}/standings/")
    assert len(response.json()) == size
    with django_assert_num_queries(3):  # the token, the event, the stored answer (its rows as CSV)
        response = program.get(f"/api/v1/events/{event.pk}/standings/?format=csv")
    assert response.content.decode().count("\r\n") == size + 1
    first = anyone.get(f"/events/{event.pk}/standings/")  # renders the table once, for everyone
    with django_assert_num_queries(3):  # the event, the results' key, the table rendered for that key
        page = anyone.get(f"/events/{event.pk}/standings/")
    assert page.content == first.content
    assert page.content.decode().count("<tr ") == min(size, 100)  # a page of 100
    with django_assert_num_queries(3):
        assert anyone.get(f"/events/{event.pk}/standings/?fragment=1").status_code == 200
    with django_assert_num_queries(8):  # the event, the round, its matches (six)
        page = anyone.get(f"/events/{event.pk}/pairings/")
    assert page.content.decode().count('class="pairing ') == size // 2


@pytest.mark.parametrize("size", [12, 120])
def test_bracket_reads_cost_the_same_queries_for_12_and_120_entries(size, django_assert_num_queries):
    event = _bracket_in_round_two(size)
    anyone = Client()
    program = reader()
    with django_assert_num_queries(9):  # the event, the key, the answer, the open matches (six)
        page = anyone.get(f"/events/{event.pk}/bracket/")
    assert page.content.decode().count('class="bracket-match ') > size
    with django_assert_num_queries(3):
        assert len(program.get(f"/api/v1/events/{event.pk}/standings/").json()) == size
