"""Cancelling an event with a reason: its games being played are closed and its table links revoked, it
is kept (listed to organisers and its officials, hidden from everyone else's lists, still opened by its
address), and nothing more is recorded in it, through the event's writes or at its tables (a referee, a
table link, a PIN, the web form, the API, an organiser reopening a game). Cancelling twice, or a complete
event, is refused; so is a blank reason."""

import pytest
from django.test import Client

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game, GameStatusChange, Hand, Player, RefereeLink
from tournaments import selectors, services
from tournaments.models import Entry, Event, Match, MatchResult, Round

from ..factories import api_client, as_actor, gin, organiser, user
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def signed_in(u):
    client = Client()
    if u is not None:
        client.force_login(u)
    return client


def _running(people, *, public=True):
    """A Swiss of four in round 1: table 1 finished (Ann or Cleo won it), table 2 with a hand awaiting
    its PIN. Returns the event, the two matches and the pairing's table links."""
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3, is_public=public)
    opened = services.pair_next_round(actor=people.dir, event=event)
    finished, playing = open_matches(event, 1)
    play_match(people, finished, finished.players.order_by("side").first().entry.player.display_name)
    g = playing.match_games.get().game
    scoring.record_hand(actor=as_actor(people.recorder), game=g, data=gin(g.player_names[0], 10))
    return event, finished, playing, opened.tokens


def _state():
    return (Entry.objects.count(), Round.objects.count(), Match.objects.count(), MatchResult.objects.count(),
            Hand.objects.count(), sorted(Game.objects.values_list("pk", "status")),
            sorted(Event.objects.values_list("pk", "status", "name", "cancel_reason")))


def test_cancelling_closes_the_games_being_played_revokes_every_table_link_and_keeps_the_event():
    people = Officials()
    event, finished, playing, _ = _running(people)
    services.cancel_event(actor=people.dir, event=event, reason="  The hall flooded  ")
    event.refresh_from_db()
    assert (event.status, event.cancel_reason, event.cancelled_by) == ("cancelled", "The hall flooded",
                                                                       people.director)
    assert event.cancelled_at is not None
    done, closed = finished.match_games.get().game, playing.match_games.get().game
    done.refresh_from_db()
    closed.refresh_from_db()
    assert (done.status, done.frozen_as) == ("complete", "")
    assert (closed.status, closed.frozen_as) == ("abandoned", "Closed: the event was cancelled")
    assert GameStatusChange.objects.get(game=closed).reason == "the event was cancelled: The hall flooded"
    assert RefereeLink.objects.filter(game__in=[done, closed]).count() == 2
    assert not RefereeLink.objects.filter(game__in=[done, closed], revoked_at__isnull=True).exists()
    assert closed.hands.count() == 1  # the hands played stay, as on paper


def test_cancelling_needs_a_reason_and_refuses_twice_and_a_complete_event_changing_nothing():
    people = Officials()
    event, *_ = _running(people)
    before = _state()
    for blank in ("", "   "):
        with pytest.raises(Refusal) as refused:
            services.cancel_event(actor=people.dir, event=event, reason=blank)
        assert [(p.field, p.message) for p in refused.value.problems] == [
            ("reason", "say why the event is cancelled: the reason is kept with it")]
    assert _state() == before
    services.cancel_event(actor=people.dir, event=event, reason="no hall")
    after = _state()
    with pytest.raises(Refusal) as twice:
        services.cancel_event(actor=people.dir, event=event, reason="again")
    assert [(p.field, p.message) for p in twice.value.problems] == [("event", "Test swiss was already cancelled")]
    assert _state() == after

    done = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.pair_next_round(actor=people.dir, event=done)
    play_match(people, open_matches(done, 1)[0], "Ann")
    assert selectors.event_answer(done)["complete"]  # read: the event's status follows its answer
    assert Event.objects.get(pk=done.pk).status == "complete"
    with pytest.raises(Refusal) as complete:
        services.cancel_event(actor=people.dir, event=done, reason="too late")
    assert [(p.field, p.message) for p in complete.value.problems] == [
        ("event", "Test swiss is complete (every match has a result): a complete event cannot be cancelled")]
    assert Event.objects.get(pk=done.pk).status == "complete"


def test_every_event_write_after_cancelling_is_refused_saying_it_was_cancelled():
    people = Officials()
    event, finished, playing, _ = _running(people)
    services.cancel_event(actor=people.dir, event=event, reason="no hall")
    first, second = (p.entry for p in playing.players.order_by("side"))
    rnd = Round.objects.get(event=event, number=1)
    boss = as_actor(people.organiser)
    writes = [
        lambda: services.add_entry(actor=people.dir, event=event, name="Zed"),
        lambda: services.add_entries_from_text(actor=people.dir, event=event, text="Yan"),
        lambda: services.seed_entries(actor=people.dir, event=event, method="rating"),
        lambda: services.drop_entry(actor=people.dir, entry=first, reason="ill"),
        lambda: services.pair_next_round(actor=people.dir, event=event),
        lambda: services.publish_round(actor=people.dir, round=rnd),
        lambda: services.swap_entries(actor=people.dir, round=rnd, first=first, second=second),
        lambda: services.issue_table_links(actor=people.dir, event=event, round=rnd),
        lambda: services.record_forfeit(actor=people.dir, match=playing, winner=first, reason="no show"),
        lambda: services.record_adjusted_result(actor=people.dir, match=finished, winner=None, margin=0,
                                                reason="draw"),
        lambda: services.clear_director_result(actor=people.dir, match=finished, reason="back"),
        lambda: services.reset_dependent_bracket_matches(actor=people.dir, event=event),
        lambda: services.set_officials(actor=boss, event=event, directors=[people.director], referees=[]),
        lambda: services.update_event(actor=boss, event=event, changes={"name": "Renamed"}),
        lambda: services.delete_event(actor=boss, event=event),
        lambda: services.create_knockout_from_standings(actor=boss, source_event=event, top_n=2),
    ]
    before = _state()
    for number, write in enumerate(writes):
        with pytest.raises(Refusal) as refused:
            write()
        assert [(p.field, p.message) for p in refused.value.problems] == [
            ("event", "Test swiss was cancelled: nothing more can be recorded or changed in it")], number
    assert _state() == before


def test_no_hand_is_recorded_confirmed_corrected_or_reopened_at_a_cancelled_events_tables():
    people = Officials()
    event, finished, playing, tokens = _running(people)
    closed, done = playing.match_games.get().game, finished.match_games.get().game
    pin_player = Player.objects.get(display_name=closed.player_names[1])
    scoring.set_player_pin(actor=as_actor(people.organiser), player=pin_player, pin="2468")
    services.cancel_event(actor=people.dir, event=event, reason="no hall")
    before = _state()
    said = "Test swiss was cancelled: no hand can be {} in its games"
    referee, boss = api_client(people.recorder), api_client(people.organiser)
    for client in (referee, boss):
        recorded = client.post(f"/api/v1/games/{closed.pk}/hands/", gin(closed.player_names[1], 10), format="json")
        assert (recorded.status_code, recorded.json()["errors"][0]["message"]) == (403, said.format("recorded"))
        corrected = client.post(f"/api/v1/games/{done.pk}/hands/1/correct/",
                                {"hand": gin(done.player_names[1], 30), "reason": "wrong winner"}, format="json")
        assert (corrected.status_code, corrected.json()["errors"][0]["message"]) == (403, said.format("corrected"))
        voided = client.post(f"/api/v1/games/{done.pk}/hands/1/void/", {"reason": "wrong table"}, format="json")
        assert (voided.status_code, voided.json()["errors"][0]["message"]) == (403, said.format("voided"))
    pin = referee.post(f"/api/v1/games/{closed.pk}/hands/1/confirm/",
                       {"player": closed.player_names[1], "pin": "2468"}, format="json")
    assert (pin.status_code, pin.json()["errors"][0]["message"]) == (403, said.format("confirmed"))
    link = api_client(referee_token=tokens[closed.pk]).post(f"/api/v1/games/{closed.pk}/hands/",
                                                            gin(closed.player_names[1], 10), format="json")
    assert link.status_code == 401  # the table link was revoked
    web = signed_in(people.recorder).post(f"/games/{closed.pk}/enter/", {
        "result": "gin", "knocker": closed.player_names[1], "opponent_deadwood": 10, "expected_number": 2})
    assert "Test swiss was cancelled: no hand can be recorded in its games" in web.content.decode()
    reopened = boss.post(f"/api/v1/games/{closed.pk}/reopen/", {"reason": "play on"}, format="json")
    assert (reopened.status_code, reopened.json()["errors"][0]["message"]) == (
        400, "Test swiss was cancelled: its games cannot be reopened")
    assert _state() == before


def test_a_cancelled_event_is_listed_only_to_organisers_and_its_officials_and_opens_by_its_address():
    people = Officials()
    event, *_ = _running(people)
    other = new_event(Officials(), names=["Cat", "Dan"])
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    for who, listed in ((None, [other.pk]), (user(), [other.pk]), (people.recorder, [other.pk, event.pk]),
                        (people.director, [other.pk, event.pk]), (organiser(), [other.pk, event.pk])):
        assert [e["id"] for e in api_client(who).get("/api/v1/events/").json()["results"]] == listed, who
        page = signed_in(who).get("/events/").content.decode()
        assert (f'href="/events/{event.pk}/"' in page and "<td >Cancelled</td>" in page) is (event.pk in listed), who
    for who, reason in ((None, False), (user(), False), (people.recorder, True), (people.director, True)):
        detail = api_client(who).get(f"/api/v1/events/{event.pk}/").json()
        assert detail["status"] == "cancelled"
        assert detail["cancelled"]["reason"] == ("the hall flooded" if reason else None), who
        page = signed_in(who).get(f"/events/{event.pk}/").content.decode()
        assert ("Cancelled: the hall flooded" in page) is reason, who
        assert ("This event was cancelled" in page) is not reason, who
        for live in ("pairings/", "standings/", "pairings/?fragment=1", "standings/?fragment=1"):
            assert signed_in(who).get(f"/events/{event.pk}/{live}").status_code == 200, (who, live)


def test_a_private_cancelled_event_is_not_found_for_those_who_may_not_read_it():
    people = Officials()
    event, *_ = _running(people, public=False)
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    for who in (None, user()):
        assert api_client(who).get(f"/api/v1/events/{event.pk}/").status_code == 404
        assert signed_in(who).get(f"/events/{event.pk}/").status_code == 404
    assert api_client(people.recorder).get(f"/api/v1/events/{event.pk}/").json()["cancelled"]["reason"] \
        == "the hall flooded"


def test_the_event_page_cancels_the_event_with_a_reason_and_a_confirmation():
    people = Officials()
    event, _, playing, _ = _running(people)
    director = signed_in(people.director)
    page = director.get(f"/events/{event.pk}/").content.decode()
    assert "Cancel Test swiss" in page
    once = page.split('name="once" value="')[1].split('"')[0]
    before = _state()
    blank = director.post(f"/events/{event.pk}/cancel/", {"once": f"{once}-cancel", "reason": "", "confirm": "on"},
                          follow=True).content.decode()
    assert "Nothing was cancelled. Why is it cancelled?: This field is required." in blank
    unconfirmed = director.post(f"/events/{event.pk}/cancel/", {"once": f"{once}-cancel", "reason": "flood"},
                                follow=True).content.decode()
    assert "Nothing was cancelled. Yes: close its games being played and record nothing more in it: This field " \
           "is required." in unconfirmed
    assert _state() == before
    done = director.post(f"/events/{event.pk}/cancel/", {"once": f"{once}-cancel", "reason": "The hall flooded",
                                                         "confirm": "on"}, follow=True).content.decode()
    assert "Test swiss cancelled: its games being played are closed and its table links stopped." in done
    assert "Cancelled: The hall flooded" in done
    assert "Cancelled: nothing more is played or recorded in it." in done  # the status line
    for page in ("", "entries/", "rounds/1/", f"matches/{playing.pk}/"):  # a cancelled event's pages offer no write
        body = director.get(f"/events/{event.pk}/{page}").content.decode().split("</header>", 1)[1]
        assert 'method="post"' not in body, page
    assert playing.match_games.get().game.status == "abandoned"
    again = director.post(f"/events/{event.pk}/cancel/", {"once": f"{once}-again", "reason": "twice",
                                                          "confirm": "on"}, follow=True).content.decode()
    assert "Nothing was cancelled. Test swiss was already cancelled" in again
    paired = director.post(f"/events/{event.pk}/pair/", {"once": f"{once}-pair"}, follow=True).content.decode()
    assert "Test swiss was cancelled: nothing more can be recorded or changed in it" in paired
    assert Round.objects.filter(event=event).count() == 1


def test_the_api_cancels_an_event_naming_the_reason_when_it_is_blank():
    people = Officials()
    event, *_ = _running(people)
    td = api_client(people.director)
    before = _state()
    for body in ({"reason": ""}, {"reason": "   "}):
        blank = td.post(f"/api/v1/events/{event.pk}/cancel/", body, format="json")
        assert blank.status_code == 400
        assert blank.json()["errors"] == [{"result": None, "field": "reason",
                                           "message": "say why the event is cancelled: the reason is kept with it"}]
    missing = td.post(f"/api/v1/events/{event.pk}/cancel/", {}, format="json")
    assert (missing.status_code, missing.json()["errors"][0]["field"]) == (400, "reason")
    assert _state() == before
    done = td.post(f"/api/v1/events/{event.pk}/cancel/", {"reason": "the hall flooded"}, format="json")
    assert done.status_code == 200, done.json()
    assert (done.json()["status"], done.json()["cancelled"]["reason"], done.json()["cancelled"]["by"]) == (
        "cancelled", "the hall flooded", people.director.username)
    twice = td.post(f"/api/v1/events/{event.pk}/cancel/", {"reason": "again"}, format="json")
    assert twice.json()["errors"] == [{"result": None, "field": "event",
                                       "message": "Test swiss was already cancelled"}]
    entries = td.post(f"/api/v1/events/{event.pk}/entries/", {"name": "Zed"}, format="json")
    assert (entries.status_code, entries.json()["errors"][0]["message"]) == (
        400, "Test swiss was cancelled: nothing more can be recorded or changed in it")


@pytest.mark.parametrize(("who", "expected"), [("anonymous", 401), ("player", 403), ("referee", 403),
                                               ("removed_director", 403), ("director", 200), ("organiser", 200)])
@pytest.mark.parametrize("public", [True, False])
def test_only_its_directors_and_organisers_cancel_an_event(who, expected, public):
    people = Officials()
    event, *_ = _running(people, public=public)
    removed = user()
    services.set_officials(actor=people.boss, event=event, directors=[people.director, removed],
                           referees=[people.recorder, people.confirmer])
    services.set_officials(actor=people.boss, event=event, directors=[people.director],
                           referees=[people.recorder, people.confirmer])
    if not public and who in ("player", "removed_director"):
        expected = 404  # a private event does not exist for whoever may not read it
    u = {"anonymous": None, "player": user(), "referee": people.recorder, "removed_director": removed,
         "director": people.director, "organiser": organiser()}[who]
    answer = api_client(u).post(f"/api/v1/events/{event.pk}/cancel/", {"reason": "flood"}, format="json")
    assert answer.status_code == expected
    assert Event.objects.get(pk=event.pk).status == ("cancelled" if expected == 200 else "running")
    web = signed_in(u).post(f"/events/{event.pk}/cancel/", {"once": "c1", "reason": "flood", "confirm": "on"})
    if u is None:
        assert web.status_code == (302 if public else 404)
    elif expected in (403, 404):
        assert web.status_code == expected
    assert Event.objects.get(pk=event.pk).status == ("cancelled" if expected == 200 else "running")


def test_a_cancelled_events_page_never_says_a_round_or_a_table_is_being_played():
    people = Officials()
    event, _, _, _ = _running(people)
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    for who in (None, people.director):
        page = signed_in(who).get(f"/events/{event.pk}/").content.decode()
        assert "being played" not in page
        assert ">playing<" not in page
        assert "stopped when the event was cancelled" in page
        assert "not finished: the event was cancelled" in page
