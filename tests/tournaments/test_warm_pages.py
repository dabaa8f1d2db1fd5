"""The draw release: the live pages of a new version are made by a job before any phone asks, so the hall's
first burst is served what is already made (issue 35)."""

import pytest
from django.core.cache import caches
from django.test import Client

from tournaments import services
from tournaments.answers.job import refresh_event_answer
from tournaments.warm import live_page_paths, warm_live_pages, warm_live_pages_now

from .stored import Officials, new_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def released():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    return people, event


def _no_render(*args, **kwargs):
    raise AssertionError("a page was rendered in the phone's request")


def test_after_the_job_the_first_phones_are_served_pages_made_before_they_asked(released, monkeypatch):
    _, event = released
    made = warm_live_pages_now(event.pk)
    assert made == dict.fromkeys(live_page_paths(event), 200)
    assert sorted(made) == sorted(f"/events/{event.pk}/{name}/{query}" for name in ("pairings", "standings", "display")
                                  for query in ("", "?fragment=1"))
    # The warming ran in another process: what it made reaches a phone through the shared cache alone.
    caches["versioned"].clear()
    monkeypatch.setattr("tournaments.views.live.render", _no_render)
    monkeypatch.setattr("tournaments.views.live.render_to_string", _no_render)
    phone = Client()
    for path in (f"/events/{event.pk}/pairings/", f"/events/{event.pk}/standings/",
                 f"/events/{event.pk}/pairings/?fragment=1", f"/events/{event.pk}/standings/?fragment=1"):
        answer = phone.get(path)
        assert answer.status_code == 200, path
    assert "Ann" in phone.get(f"/events/{event.pk}/pairings/").content.decode()


def test_without_the_job_the_first_phone_makes_the_page(released, monkeypatch):
    _, event = released
    monkeypatch.setattr("tournaments.views.live.render", _no_render)
    with pytest.raises(AssertionError, match="rendered in the phone's request"):
        Client().get(f"/events/{event.pk}/pairings/")


def test_a_bracket_warms_its_bracket_page_too():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], fmt="single_elimination")
    services.pair_next_round(actor=people.dir, event=event)
    made = warm_live_pages_now(event.pk)
    assert f"/events/{event.pk}/bracket/" in made
    assert set(made.values()) == {200}


def test_a_private_event_is_never_warmed_for_phones_that_may_not_read_it(released):
    _, event = released
    event.is_public = False
    event.save(update_fields=["is_public"])
    assert warm_live_pages_now(event.pk) == {}


def test_a_stored_answer_queues_the_warming_only_where_a_worker_of_its_own_runs_it(released, settings, monkeypatch):
    _, event = released
    queued = []
    monkeypatch.setattr("core.jobs.run_or_queue", lambda task, **kw: queued.append((task.name, kw)))
    settings.JOBS = "queue"
    event.revision += 1
    event.save(update_fields=["revision"])
    refresh_event_answer(event_id=event.pk)
    assert ("tournaments.warm_live_pages", {"event_id": event.pk}) in queued
    assert warm_live_pages.catch_up[0](event_id=event.pk) == f"warm-pages:{event.pk}"  # one waits per event
    settings.JOBS = "inline"
    queued.clear()
    event.revision += 1
    event.save(update_fields=["revision"])
    refresh_event_answer(event_id=event.pk)
    assert [name for name, _ in queued if name == "tournaments.warm_live_pages"] == []
