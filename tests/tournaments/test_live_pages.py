"""Live pages and the standings API on a tournament night: an ETag naming the version shown and a 304 to
a phone that holds it; the pairings made again by one worker at a time, at most every few seconds; with
jobs on the queue, the last answer served (marked updating) until a worker has worked out the new one."""

import gzip
import hashlib
import json

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments import selectors, services
from tournaments.answers import memos as caching
from tournaments.answers import read as answer_reads
from tournaments.answers.job import refresh_event_answer
from tournaments.models import EventAnswer

from ..factories import api_client, user
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    return people, event


def test_the_standings_api_answers_an_etag_and_a_304_to_a_caller_that_holds_that_version(paired):
    people, event = paired
    reader = api_client(user())
    url = f"/api/v1/events/{event.pk}/standings/"
    first = reader.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('W/"standings-')
    again = reader.get(url, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)
    zipped = reader.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped.status_code == 304
    play_match(people, open_matches(event, 1)[0], "Ann")
    moved = reader.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_ENCODING="gzip")
    assert moved.status_code == 200
    assert moved["ETag"] != etag
    assert [r["name"] for r in json.loads(gzip.decompress(moved.content)) if r["wins"]] == ["Ann"]


def test_the_standings_page_refresh_answers_304_until_a_result_changes_it(paired):
    people, event = paired
    phone = Client()
    url = f"/events/{event.pk}/standings/"
    page = phone.get(url)
    etag = page.content.decode().split('data-live-etag="')[1].split('"')[0].replace("&quot;", '"')
    assert phone.get(f"{url}?fragment=1", HTTP_IF_NONE_MATCH=etag).status_code == 304
    play_match(people, open_matches(event, 1)[0], "Ann")
    fresh = phone.get(f"{url}?fragment=1", HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert "Ann" in fresh.content.decode()


def test_while_one_worker_makes_the_new_pairings_the_others_serve_the_last_one_made(paired, monkeypatch):
    people, event = paired
    monkeypatch.setattr(caching, "MAKE_AT_MOST_EVERY_SECONDS", 3)
    url = f"/events/{event.pk}/pairings/?fragment=1"
    before = Client().get(url)
    made = []
    real = caching.keep
    monkeypatch.setattr(caching, "keep", lambda key, value: made.append(key) or real(key, value))
    play_match(people, open_matches(event, 1)[0], "Ann")
    # within the pacing window the last tables made are served, under their own version and ETag
    served = Client().get(url)
    assert (served.content, served["ETag"]) == (before.content, before["ETag"])
    assert made == []
    # once the window is over (its marker gone), the first worker to ask makes them, once
    cache.delete(caching._key(f"making:event-pairings:{event.pk}:1"))
    newer = Client().get(url)
    assert newer["ETag"] != before["ETag"]
    assert "Ann" in newer.content.decode()
    versions = [k for k in made if "@" in k and "@last" not in k]
    assert versions == [f"event-pairings:{event.pk}:1@{newer['X-Live-Version']}"]
    caches["versioned"].clear()  # another worker: it finds the newest in the shared cache, makes nothing
    assert Client().get(url)["ETag"] == newer["ETag"]
    assert len([k for k in made if "@" in k and "@last" not in k]) == 1


def test_while_one_worker_makes_the_new_standings_the_others_serve_the_last_one_marked_updating(paired, monkeypatch):
    """A decided match moves the standings: on a night of 1,000 entries every worker and thread then
    rendered the same table at once, and the hall's refreshes queued behind them. One makes it; the
    others serve the last one made, under its own version and ETag, saying that newer is coming."""
    people, event = paired
    monkeypatch.setattr(caching, "MAKE_AT_MOST_EVERY_SECONDS", 3)
    url = f"/events/{event.pk}/standings/?fragment=1"
    before = Client().get(url)
    assert "X-Updating" not in before
    made = []
    real = caching.keep
    monkeypatch.setattr(caching, "keep", lambda key, value: made.append(key) or real(key, value))
    play_match(people, open_matches(event, 1)[0], "Ann")
    served = Client().get(url)
    assert (served.status_code, served.content, served["ETag"], served["X-Live-Version"], served["X-Updating"]) == (
        200, before.content, before["ETag"], before["X-Live-Version"], "1")
    assert Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304  # nothing newer to send yet
    page = Client().get(f"/events/{event.pk}/standings/").content.decode()  # a new phone: the last part
    assert 'class="live-updating" role="status">' in page
    assert page.split('data-live-etag="')[1].split('"')[0].replace("&quot;", '"') == before["ETag"]
    assert [k for k in made if "@" in k] == []  # no part rendered while another worker's marker holds
    # the whole page that says so is kept once, apart from the same version shown as the newest
    assert [k.rsplit(":", 3)[1:] for k in made] == [["", "updating", "page"]]
    caches["versioned"].clear()
    assert Client().get(f"/events/{event.pk}/standings/").content.decode() == page
    assert len(made) == 1
    # the pacing window over (its marker gone): the first to ask makes the newest, once
    where = hashlib.sha256(b"None|1|").hexdigest()[:24]
    cache.delete(caching._key(f"making:event-standings:{event.pk}:{where}"))
    newer = Client().get(url)
    assert newer["ETag"] != before["ETag"]
    assert "X-Updating" not in newer
    assert "Ann" in newer.content.decode()
    caches["versioned"].clear()  # another worker: it finds the newest in the shared cache, makes nothing
    assert Client().get(url)["ETag"] == newer["ETag"]
    assert len([k for k in made if "@" in k and "@last" not in k]) == 1


def test_with_jobs_on_the_queue_readers_serve_the_last_answer_marked_updating_until_the_job_has_run(
        paired, settings, monkeypatch, django_capture_on_commit_callbacks):
    people, event = paired
    settings.JOBS = "queue"
    queued = []
    monkeypatch.setattr("core.jobs.run_or_queue", lambda task, **kw: queued.append((task, kw)))
    reader = api_client(user())
    url = f"/api/v1/events/{event.pk}/standings/"
    before = reader.get(url)
    assert "X-Updating" not in before
    with django_capture_on_commit_callbacks(execute=True):
        play_match(people, open_matches(event, 1)[0], "Ann")
    answers = [(task, kw) for task, kw in queued if "event_id" in kw]  # a settled game also queues the ratings'
    assert {kw["event_id"] for _, kw in answers} == {event.pk}
    assert {task.catch_up[0](event_id=kw["event_id"]) for task, kw in answers} == {f"event-answer:{event.pk}"}
    stale = reader.get(url)
    assert (stale.status_code, stale["X-Updating"], stale["ETag"]) == (200, "1", before["ETag"])
    assert stale.content == before.content  # no reader ran the engine
    assert reader.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    page = Client().get(f"/events/{event.pk}/standings/")
    assert 'class="live-updating" role="status">' in page.content.decode()  # the note is shown
    refresh_event_answer(event_id=event.pk)  # what the worker does
    fresh = reader.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert fresh.status_code == 200
    assert "X-Updating" not in fresh
    assert [r["name"] for r in fresh.json() if r["wins"]] == ["Ann"]
    assert EventAnswer.objects.get(event=event, view="live").key == selectors.answer_key(event)


def test_the_refresh_job_is_idempotent_a_second_run_changes_nothing(paired, django_assert_num_queries):
    people, event = paired
    play_match(people, open_matches(event, 1)[0], "Ann")
    refresh_event_answer(event_id=event.pk)
    stored = EventAnswer.objects.get(event=event, view="live")
    with django_assert_num_queries(3):  # the event, its results fingerprint, the stored key: nothing to do
        refresh_event_answer(event_id=event.pk)
    assert EventAnswer.objects.get(event=event, view="live").computed_at == stored.computed_at


def test_a_reader_that_waited_too_long_for_the_new_answer_queues_its_refresh_again(paired, settings, monkeypatch):
    people, event = paired
    settings.JOBS = "queue"
    queued = []
    monkeypatch.setattr("core.jobs.run_or_queue", lambda task, **kw: queued.append(kw))
    selectors.event_answer(event)
    play_match(people, open_matches(event, 1)[0], "Ann")  # its on-commit job never ran (a worker lost it)
    now = [1000.0]
    monkeypatch.setattr(answer_reads.time, "monotonic", lambda: now[0])
    for seconds in (1000.0, 1010.0, 1014.0, 1016.0, 1020.0):
        now[0] = seconds
        assert selectors.served_version(selectors.readable_event(people.boss, event.pk)).updating
    # once, after 15 s of waiting, not at every read (and again only after another 15 s)
    assert [kw["event_id"] for kw in queued] == [event.pk]


def test_a_halls_refreshes_are_answered_from_the_workers_memory_checked_at_most_once_a_second(
        paired, monkeypatch, django_assert_num_queries):
    people, event = paired
    from tournaments.views import live

    monkeypatch.setattr(live, "RECHECK_AFTER_SECONDS", 1.0)
    now = [100.0]
    monkeypatch.setattr(live.time, "monotonic", lambda: now[0])
    url = f"/events/{event.pk}/pairings/?fragment=1"
    first = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    with django_assert_num_queries(0):  # other phones within the second: no query at all
        held = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        new_phone = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert held.status_code == 304
    assert (new_phone.status_code, new_phone.content) == (200, first.content)
    assert gzip.decompress(new_phone.content).decode().count('class="pairing ') == 2
    play_match(people, open_matches(event, 1)[0], "Ann")
    now[0] += 0.5
    assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304  # at most a second late
    now[0] += 0.6
    moved = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200
    assert "Ann" in moved.content.decode()
    signed_in = Client()
    signed_in.force_login(people.director)
    with CaptureQueriesContext(connection) as asked:  # a signed-in phone is never answered from memory
        assert signed_in.get(url).status_code == 200
    assert len(asked.captured_queries) > 0


def test_entry_urls_reversed_once_are_the_urls_reverse_gives():
    from django.urls import reverse

    from tournaments.presentation import entry_urls_of

    for event_pk in (1, 7, 987_654_321, 999_999_999_999_999_999):
        url = entry_urls_of(event_pk)
        for entry in (1, 11, 987_654_321_987_654_320, 999_999_999_999_999_999):
            assert url(entry) == reverse("tournaments:entry", args=[event_pk, entry])


def test_the_pairings_tables_link_each_player_to_their_entry_page(paired):
    _, event = paired
    html = Client().get(f"/events/{event.pk}/pairings/?fragment=1").content.decode()
    for entry in event.entries.select_related("player"):
        # once in the tables, once in "find your table"
        name = entry.player.display_name
        assert html.count(f'<a href="/events/{event.pk}/entries/{entry.pk}/">{name}</a>') == 2, name


def test_a_hall_opening_a_kept_page_asks_the_database_once_a_second_per_worker_and_only_for_phones(
        paired, monkeypatch):
    from tournaments.views import live

    people, event = paired
    monkeypatch.setattr(live, "RECHECK_AFTER_SECONDS", 1.0)  # as in production (the tests' default is 0)
    for url in (f"/events/{event.pk}/pairings/", f"/events/{event.pk}/standings/"):
        first = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
        with CaptureQueriesContext(connection) as asked:
            again = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert (again.status_code, again["Content-Encoding"], first["Content-Encoding"]) == (200, "gzip", "gzip")
        assert gzip.decompress(again.content) == gzip.decompress(first.content)
        assert len(asked) == 0  # the release's burst: each phone after the first in a second asks nothing
        director = Client()
        director.force_login(people.dir.user)
        with CaptureQueriesContext(connection) as asked:
            assert director.get(url).status_code == 200
        assert len(asked) > 0  # a signed-in page is never another's
    play_match(people, open_matches(event, 1)[0], "Ann")
    url = f"/events/{event.pk}/standings/"
    now = live.time.monotonic()
    monkeypatch.setattr(live.time, "monotonic", lambda: now + live.RECHECK_AFTER_SECONDS)
    with CaptureQueriesContext(connection) as asked:
        later = Client().get(url)
    assert len(asked) > 0  # a second on, it is checked again: the result shows
    assert "Ann" in later.content.decode().split("</table>")[0]
