"""What one worker is already making, the others wait for rather than make again: at a round's release
every phone's first page came at once, and every thread of every worker rendered, gzipped and stored the
same page of 500 tables side by side (issue 35). Another worker is played here by the shared cache's
marker, and by what it keeps while this one waits."""

import pytest
from django.core.cache import cache, caches
from django.test import Client

from tournaments import services
from tournaments.answers import memos

from .stored import Officials, new_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def another_worker(monkeypatch):
    """The other worker began making ``key`` just now and keeps ``value`` under it after this one's
    ``after``-th pause (never: None). Every pause this worker takes is noted, not slept."""
    monkeypatch.setattr(memos, "MAKE_AT_MOST_EVERY_SECONDS", 3)
    pauses = []

    def begin(key, *, after=None, value=None, making=None):
        cache.add(memos._key(f"making:{making or key}"), 1, 3)

        def pause(seconds):
            pauses.append(seconds)
            if len(pauses) == after:
                memos.keep(key, value)

        monkeypatch.setattr(memos.time, "sleep", pause)
        return pauses

    return begin


def test_what_another_worker_is_making_is_waited_for_and_not_made_again(another_worker):
    pauses = another_worker("page", after=2, value="the other worker's")
    made = []
    assert memos.made_once("page", lambda: made.append(1) or "mine") == "the other worker's"
    assert (made, pauses) == ([], [0.02, 0.04])


def test_when_the_other_worker_never_keeps_it_it_is_made_here_after_at_most_the_pacing_window(another_worker):
    pauses = another_worker("page")
    assert memos.made_once("page", lambda: "mine") == "mine"
    assert 3 <= sum(pauses) < 3.3
    assert max(pauses) == 0.25
    assert memos.peek("page") == "mine"


def test_nothing_is_waited_for_when_no_one_is_making_it(another_worker, monkeypatch):
    monkeypatch.setattr(memos, "MAKE_AT_MOST_EVERY_SECONDS", 3)
    assert memos.made_once("page", lambda: "mine") == "mine"
    assert memos.made_once("page", lambda: "again") == "mine"  # kept: made once


def test_a_first_version_another_worker_is_making_is_waited_for(another_worker):
    pauses = another_worker("tables@v2", after=3, value="<tables v2>", making="tables")
    made = []
    assert memos.latest("tables", "v2", lambda: made.append(1) or "<mine>") == ("<tables v2>", "v2")
    assert (made, len(pauses)) == ([], 3)


def test_while_waiting_for_a_first_version_another_one_made_meanwhile_is_served_with_its_version(
        another_worker, monkeypatch):
    pauses = another_worker("tables", making="tables")
    noted_pause = memos.time.sleep  # the fixture's: noted, not slept

    def the_other_worker_keeps_v1(seconds):
        noted_pause(seconds)
        cache.set(memos._key("tables@last"), ("v1", "<tables v1>"))

    monkeypatch.setattr(memos.time, "sleep", the_other_worker_keeps_v1)
    assert memos.latest("tables", "v2", lambda: "<mine>") == ("<tables v1>", "v1")
    assert len(pauses) == 1


def test_a_phone_asking_for_a_whole_page_another_worker_is_making_is_sent_that_one(another_worker, monkeypatch):
    from tournaments.views import live

    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    url = f"/events/{event.pk}/pairings/"
    asked = []
    real = live.made_once
    monkeypatch.setattr(live, "made_once", lambda key, make: asked.append(key) or real(key, make))
    assert "Table 1" in Client().get(url).content.decode()
    # the page is not kept anywhere any more (its part still is), and another worker has begun making it
    cache.delete(memos._key(asked[0]))
    caches["versioned"].clear()
    live._recent_pages.clear()
    rendered = []
    monkeypatch.setattr(live, "render", lambda *a, **k: rendered.append(1))
    another_worker(asked[0], after=1, value={"html": b"<the other worker's page>", "gzip": b""})
    again = Client().get(url)
    assert (again.status_code, again.content, rendered) == (200, b"<the other worker's page>", [])


def test_a_maker_that_fails_leaves_no_marker_for_the_others_to_wait_on(monkeypatch):
    monkeypatch.setattr(memos, "MAKE_AT_MOST_EVERY_SECONDS", 3)

    def broken():
        raise RuntimeError("a template error")

    with pytest.raises(RuntimeError):
        memos.made_once("page", broken)
    monkeypatch.setattr(memos.time, "sleep", lambda seconds: pytest.fail("waited on a maker that had failed"))
    assert memos.made_once("page", lambda: "made") == "made"
