"""A round's clock: its directors start it (at the event's round_minutes or the minutes given), pause,
resume and extend it (the whole round or one table); the pairings page, My tables, a table's entry page
and the API tell the same time. Where it stands at a moment is plain arithmetic (``tournaments.engine.clock``)."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from core.refusals import Refusal
from tournaments import services
from tournaments.engine.clock import PAUSED, RUNNING, TIME, clock_state, in_words
from tournaments.models import Match, Round
from tournaments.policy import Actor, NotAllowed

from ..factories import api_client, user
from .stored import Officials, new_event, open_matches, play_match

T0 = datetime(2026, 11, 26, 19, 0, tzinfo=UTC)


def test_the_clock_reads_running_paused_and_time_with_a_tables_extra_time():
    ends = T0 + timedelta(minutes=30)
    running = clock_state(ends_at=ends, left_seconds=None, now=T0 + timedelta(minutes=6, seconds=46))
    assert (running.status, running.remaining_seconds, in_words(running)) == (RUNNING, 1394, "23:14 left")
    almost = clock_state(ends_at=ends, left_seconds=None, now=ends - timedelta(milliseconds=200))
    assert (almost.status, almost.remaining_seconds) == (RUNNING, 1)
    at_time = clock_state(ends_at=ends, left_seconds=None, now=ends)
    assert (at_time.status, at_time.remaining_seconds, in_words(at_time)) == (TIME, 0, "Time")
    extended = clock_state(ends_at=ends, left_seconds=None, now=ends, extra_seconds=300)
    assert (extended.status, extended.remaining_seconds) == (RUNNING, 300)
    assert extended.ends_at == ends + timedelta(minutes=5)
    paused = clock_state(ends_at=None, left_seconds=300, now=T0)
    assert (paused.status, in_words(paused), paused.as_dict()["paused"]) == (PAUSED, "paused, 5:00 left", True)


@pytest.mark.django_db
def test_a_director_starts_pauses_resumes_and_extends_the_round_clock():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2, round_minutes=30)
    services.pair_next_round(actor=people.dir, event=event)
    rnd = Round.objects.get(event=event, number=1)
    started = services.run_round_clock(actor=people.dir, round=rnd, action="start")
    assert 1795 <= (started.clock_ends_at - timezone.now()).total_seconds() <= 1800
    paused = services.run_round_clock(actor=people.dir, round=rnd, action="pause")
    assert paused.clock_ends_at is None
    assert 1795 <= paused.clock_left_seconds <= 1800
    extended = services.run_round_clock(actor=people.dir, round=rnd, action="extend", minutes=5)
    assert 2095 <= extended.clock_left_seconds <= 2100
    resumed = services.run_round_clock(actor=people.dir, round=rnd, action="resume")
    assert resumed.clock_left_seconds is None
    assert resumed.clock_ends_at is not None
    table = open_matches(event, 1)[0]
    services.run_round_clock(actor=people.dir, round=rnd, action="extend", minutes=3, match=table)
    table.refresh_from_db()
    assert table.extra_seconds == 180
    director = Client()
    director.force_login(people.director)
    row = re.search(rf'<tr [^>]*id="match-row-{table.pk}".*?</tr>', director.get(f"/events/{event.pk}/rounds/1/")
                    .content.decode(), re.S).group(0)
    assert '<span class="extra-time">+3 min</span>' in row  # the table's own extra time, beside it
    with pytest.raises(Refusal) as twice:
        services.run_round_clock(actor=people.dir, round=rnd, action="start")
    assert twice.value.problems[0].message == "round 1's clock has already started"


@pytest.mark.django_db
def test_the_clock_refuses_without_minutes_a_draft_and_anyone_but_directors():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event, publish=False)
    rnd = Round.objects.get(event=event, number=1)
    with pytest.raises(Refusal) as draft:
        services.run_round_clock(actor=people.dir, round=rnd, action="start", minutes=20)
    assert draft.value.problems[0].message == "round 1 is a draft: publish it first"
    services.publish_round(actor=people.dir, round=rnd)
    with pytest.raises(Refusal) as no_minutes:
        services.run_round_clock(actor=people.dir, round=rnd, action="start")
    assert no_minutes.value.problems[0].field == "minutes"
    with pytest.raises(NotAllowed):
        services.run_round_clock(actor=Actor(user=people.recorder), round=rnd, action="start", minutes=20)
    with pytest.raises(Refusal) as bad:
        services.run_round_clock(actor=people.dir, round=rnd, action="start", minutes=0)
    assert bad.value.problems[0].field == "minutes"
    assert Round.objects.get(pk=rnd.pk).clock_ends_at is None


@pytest.mark.django_db
def test_the_api_runs_the_clock_and_every_round_reads_it():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2, round_minutes=25)
    services.pair_next_round(actor=people.dir, event=event)
    td = api_client(people.director)
    url = f"/api/v1/events/{event.pk}/rounds/1/clock/"
    started = td.post(url, {"action": "start"}, format="json")
    assert started.status_code == 200, started.content
    assert started.json()["clock"]["status"] == "running"
    assert 1495 <= started.json()["clock"]["remaining_seconds"] <= 1500
    paused = td.post(url, {"action": "pause"}, format="json").json()["clock"]
    assert (paused["status"], paused["paused"], paused["ends_at"]) == ("paused", True, None)
    refused = td.post(url, {"action": "stop"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "action"
    assert api_client(people.recorder).post(url, {"action": "resume"}, format="json").status_code == 403
    assert api_client(user()).post(url, {"action": "resume"}, format="json").status_code == 403
    listed = api_client().get(f"/api/v1/events/{event.pk}/rounds/").json()
    assert listed[0]["clock"]["status"] == "paused"
    frozen = td.patch(f"/api/v1/events/{event.pk}/", {"round_minutes": 40, "time_rule": "director"}, format="json")
    assert frozen.status_code == 400  # fixed with the event once round 1 is paired, like its conventions
    assert sorted(e["field"] for e in frozen.json()["errors"]) == ["round_minutes", "time_rule"]
    later = new_event(people, names=["Eve", "Fay"], rounds=2)
    changed = td.patch(f"/api/v1/events/{later.pk}/", {"round_minutes": 40, "time_rule": "director"}, format="json")
    assert (changed.json()["round_minutes"], changed.json()["time_rule"]) == (40, "director")
    assert td.patch(f"/api/v1/events/{later.pk}/", {"round_minutes": 0}, format="json").status_code == 400


@pytest.mark.django_db
def test_the_pairings_my_tables_and_the_entry_page_show_the_clock():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2, round_minutes=30)
    services.pair_next_round(actor=people.dir, event=event)
    rnd = Round.objects.get(event=event, number=1)
    assert 'data-clock' not in Client().get(f"/events/{event.pk}/pairings/").content.decode()
    services.run_round_clock(actor=people.dir, round=rnd, action="start")
    pairings = Client().get(f"/events/{event.pk}/pairings/").content.decode()
    assert 'data-status="running"' in pairings
    assert "29:59 left" in pairings or "30:00 left" in pairings
    referee = Client()
    referee.force_login(people.recorder)
    assert 'data-status="running"' in referee.get("/events/my-tables/").content.decode()
    game = open_matches(event, 1)[0].match_games.get().game_id
    entry = referee.get(f"/games/{game}/enter/").content.decode()
    assert "Round 1:" in entry
    assert 'data-status="running"' in entry
    director = Client()
    director.force_login(people.director)
    director.post(f"/events/{event.pk}/rounds/1/clock/", {"action": "pause"})
    assert "paused, " in Client().get(f"/events/{event.pk}/pairings/").content.decode()
    assert 'value="pause"' not in director.get(f"/events/{event.pk}/rounds/1/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("sent", ["other event", "987654321", "abc", "other round"])
def test_extra_time_for_a_table_that_is_not_the_rounds_is_refused_on_the_page_and_the_api(sent):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2, round_minutes=30)
    services.pair_next_round(actor=people.dir, event=event)
    rnd = Round.objects.get(event=event, number=1)
    services.run_round_clock(actor=people.dir, round=rnd, action="start")
    other = new_event(people, names=["Eve", "Fay"], rounds=1)
    services.pair_next_round(actor=people.dir, event=other)
    if sent == "other round":  # a table of this event's round 2 asked for on round 1's page
        for match in open_matches(event, 1):
            play_match(people, match, match.players.get(side=0).entry.player.display_name)
        services.pair_next_round(actor=people.dir, event=event)
        services.run_round_clock(actor=people.dir, round=Round.objects.get(event=event, number=2), action="start")
        rnd = Round.objects.get(event=event, number=2)
        value, number = str(open_matches(event, 1)[0].pk), 2
    else:
        value = {"other event": str(open_matches(other, 1)[0].pk)}.get(sent, sent)
        number = 1
    before = (Round.objects.get(pk=rnd.pk).clock_ends_at, sorted(
        Match.objects.filter(event__in=[event, other]).values_list("pk", "extra_seconds")))
    director = Client()
    director.force_login(people.director)
    page = director.post(f"/events/{event.pk}/rounds/{number}/clock/",
                         {"action": "extend", "minutes": "2", "match": value}, follow=True).content.decode()
    assert "Nothing changed: " in page
    assert f"not a table of round {number}" in page
    assert f"Round {number}&#x27;s clock extended" not in page
    api = api_client(people.director).post(f"/api/v1/events/{event.pk}/rounds/{number}/clock/",
                                           {"action": "extend", "minutes": 2,
                                            "match": int(value) if value.isdigit() else value}, format="json")
    assert api.status_code == 400
    assert api.json()["errors"][0]["field"] == "match"
    after = (Round.objects.get(pk=rnd.pk).clock_ends_at, sorted(
        Match.objects.filter(event__in=[event, other]).values_list("pk", "extra_seconds")))
    assert after == before


@pytest.mark.django_db
def test_a_tables_time_part_follows_the_directors_pause_extra_time_and_time_itself():
    """The entry page's time part (``GET /games/<id>/clock/``, refreshed by live.js) says what the round's
    clock says now: a 304 while nothing changed, a new part when the director pauses, resumes or gives the
    table extra time, and at time what the table does and the "end the game at time now" button."""
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2, round_minutes=30)
    services.pair_next_round(actor=people.dir, event=event)
    rnd = Round.objects.get(event=event, number=1)
    (table,) = open_matches(event, 1)
    game = table.match_games.get().game_id
    referee = Client()
    referee.force_login(people.recorder)
    entry = referee.get(f"/games/{game}/enter/").content.decode()
    assert f'data-live-url="/games/{game}/clock/"' in entry  # followed before the clock starts
    url = f"/games/{game}/clock/"
    before = referee.get(url)
    assert before.status_code == 200
    assert "data-clock" not in before.content.decode()
    assert referee.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304

    services.run_round_clock(actor=people.dir, round=rnd, action="start")
    running = referee.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert 'data-status="running"' in running.content.decode()
    assert referee.get(url, HTTP_IF_NONE_MATCH=running["ETag"]).status_code == 304  # the seconds tick on the phone

    services.run_round_clock(actor=people.dir, round=rnd, action="pause")
    paused = referee.get(url, HTTP_IF_NONE_MATCH=running["ETag"])
    assert 'data-status="paused"' in paused.content.decode()
    assert "paused, " in paused.content.decode()

    services.run_round_clock(actor=people.dir, round=rnd, action="resume")
    resumed = referee.get(url, HTTP_IF_NONE_MATCH=paused["ETag"])
    assert 'data-status="running"' in resumed.content.decode()
    services.run_round_clock(actor=people.dir, round=rnd, action="extend", minutes=2, match=table)
    extended = referee.get(url, HTTP_IF_NONE_MATCH=resumed["ETag"])
    assert extended.status_code == 200
    assert extended["X-Live-Version"] != resumed["X-Live-Version"]

    Round.objects.filter(pk=rnd.pk).update(clock_ends_at=timezone.now() - timedelta(minutes=5))
    at_time = referee.get(url, HTTP_IF_NONE_MATCH=extended["ETag"]).content.decode()
    assert "Time: finish this hand and record it" in at_time
    assert "end the game at time now" in at_time
    assert Client().get(url).status_code == 200  # a public event's table: read by whoever reads the game


@pytest.mark.django_db
def test_my_tables_is_a_live_part_that_follows_the_clock():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2, round_minutes=30)
    services.pair_next_round(actor=people.dir, event=event)
    rnd = Round.objects.get(event=event, number=1)
    referee = Client()
    referee.force_login(people.recorder)
    page = referee.get("/events/my-tables/")
    assert 'data-live-url="/events/my-tables/?fragment=1"' in page.content.decode()
    first = referee.get("/events/my-tables/?fragment=1")
    assert referee.get("/events/my-tables/?fragment=1", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    services.run_round_clock(actor=people.dir, round=rnd, action="start")
    services.run_round_clock(actor=people.dir, round=rnd, action="pause")
    changed = referee.get("/events/my-tables/?fragment=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert 'data-status="paused"' in changed.content.decode()
    assert "<html" not in changed.content.decode()
