"""A director (or an organiser) acknowledges a warning about pairings made from results that have since
changed, optionally with a note: kept once per warning key, hidden from spectators after, still listed to
officials as "acknowledged by X at T". A warning that changes again has a new key and needs a new
acknowledgement; an unknown or already acknowledged key is refused naming ``key``, changing nothing."""

import pytest
from django.test import Client

from core.refusals import Refusal
from scoring import services as scoring
from tournaments import selectors, services
from tournaments.answers.warnings import warning_key
from tournaments.models import WarningAcknowledgement

from ..factories import api_client, as_actor, gin, organiser, user
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db

WARNING = "Results changed after pairings were made from them"


def signed_in(u):
    client = Client()
    if u is not None:
        client.force_login(u)
    return client


def _flip(people, game, deadwood=30):
    """An organiser's correction of hand 1 making the other player win it, confirmed by a second official."""
    game.refresh_from_db()
    loser = next(n for n in game.player_names if n != game.summary["winner"])
    scoring.correct_hand(actor=as_actor(organiser()), game=game, number=1, data=gin(loser, deadwood),
                         reason="misread")
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=game, number=1)


def _warned(people, *, public=True):
    """Round 2 paired from round 1's results, then a round 1 result corrected: one warning."""
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3, is_public=public)
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    services.pair_next_round(actor=people.dir, event=event)
    game = open_matches(event, 1)[0].match_games.get().game
    _flip(people, game)
    (warning,) = selectors.event_warnings(event)
    return event, game, warning_key(warning)


def test_a_warnings_key_is_its_kind_round_and_match_and_moves_when_what_it_says_moves():
    base = {"kind": "round_paired_from_changed_results", "match_pk": None, "match": None, "round": 2,
            "changed_matches": [7], "results_now": {"7": [3, 30]}, "message": "Round 2 was paired from ..."}
    key = warning_key(base)
    assert key.startswith("round_paired_from_changed_results:r2:m-:")
    assert len(key) == len("round_paired_from_changed_results:r2:m-:") + 16
    assert warning_key({**base, "key": "x", "acknowledged": {"by": "td"}}) == key  # its own extras aside
    assert warning_key({**base, "results_now": {"7": [3, 40]}}) != key  # a new change: a new key
    assert warning_key({**base, "message": "Round 2 was paired from ... again"}) != key
    bracket = warning_key({"kind": "bracket_players_changed", "match_pk": 12, "match": "W2-1", "round": None,
                           "message": "W2-1 (Ann v Dev): reset it"})
    assert bracket.startswith("bracket_players_changed:r-:m12:")


def test_a_director_acknowledges_a_warning_once_and_spectators_stop_seeing_it():
    people = Officials()
    event, _, key = _warned(people)
    assert WARNING in Client().get(f"/events/{event.pk}/").content.decode()
    made = services.acknowledge_warning(actor=people.dir, event=event, key=key, note="  players agreed  ")
    assert (made.key, made.note, made.acknowledged_by) == (key, "players agreed", people.director)
    assert made.message.startswith("Round 2 was paired from results that have since changed")
    with pytest.raises(Refusal) as twice:
        services.acknowledge_warning(actor=people.dir, event=event, key=key)
    ((field, message),) = [(p.field, p.message) for p in twice.value.problems]
    assert field == "key"
    assert message.startswith(f"this warning was already acknowledged by {people.director.username} at ")
    for unknown in ("", "round_paired_from_changed_results:r2:m-:0000000000000000"):
        with pytest.raises(Refusal) as refused:
            services.acknowledge_warning(actor=people.dir, event=event, key=unknown)
        assert [p.field for p in refused.value.problems] == ["key"]
    assert WarningAcknowledgement.objects.count() == 1

    for who in (None, user()):
        page = signed_in(who).get(f"/events/{event.pk}/").content.decode()
        assert WARNING not in page
        assert "Round 2 was paired from" not in page
        assert api_client(who).get(f"/api/v1/events/{event.pk}/").json()["warnings"] == []
    for who in (people.recorder, people.director, organiser()):
        page = signed_in(who).get(f"/events/{event.pk}/").content.decode()
        assert f"Acknowledged by {people.director.username} at " in page
        assert ": players agreed. Spectators no longer see it." in page
        (shown,) = api_client(who).get(f"/api/v1/events/{event.pk}/").json()["warnings"]
        assert (shown["key"], shown["acknowledged"]["by"], shown["acknowledged"]["note"]) == (
            key, people.director.username, "players agreed")


def test_the_same_warning_with_a_new_change_needs_a_new_acknowledgement():
    people = Officials()
    event, game, key = _warned(people)
    services.acknowledge_warning(actor=people.dir, event=event, key=key)
    _flip(people, game, deadwood=40)  # corrected again: the other player wins round 1's table 1 again
    (again,) = selectors.event_warnings(event)
    new_key = warning_key(again)
    assert new_key != key
    (shown,) = api_client().get(f"/api/v1/events/{event.pk}/").json()["warnings"]
    assert (shown["key"], shown["acknowledged"]) == (new_key, None)
    assert WARNING in Client().get(f"/events/{event.pk}/").content.decode()
    services.acknowledge_warning(actor=people.dir, event=event, key=new_key)
    assert WarningAcknowledgement.objects.filter(event=event).count() == 2


@pytest.mark.parametrize(("who", "expected"), [("anonymous", 401), ("player", 403), ("referee", 403),
                                               ("removed_director", 403), ("director", 201), ("organiser", 201)])
def test_only_its_directors_and_organisers_acknowledge_through_the_api(who, expected):
    people = Officials()
    event, _, key = _warned(people)
    removed = user()
    services.set_officials(actor=people.boss, event=event, directors=[people.director, removed],
                           referees=[people.recorder, people.confirmer])
    services.set_officials(actor=people.boss, event=event, directors=[people.director],
                           referees=[people.recorder, people.confirmer])
    u = {"anonymous": None, "player": user(), "referee": people.recorder, "removed_director": removed,
         "director": people.director, "organiser": organiser()}[who]
    answer = api_client(u).post(f"/api/v1/events/{event.pk}/warnings/acknowledge/", {"key": key, "note": "ok"},
                                format="json")
    assert answer.status_code == expected, answer.json()
    assert WarningAcknowledgement.objects.filter(event=event).count() == (1 if expected == 201 else 0)
    if expected == 201:
        assert (answer.json()["key"], answer.json()["note"], answer.json()["acknowledged_by"]) == (key, "ok",
                                                                                                   u.username)
        again = api_client(u).post(f"/api/v1/events/{event.pk}/warnings/acknowledge/", {"key": key}, format="json")
        assert again.status_code == 400
        assert again.json()["errors"][0]["field"] == "key"
        unknown = api_client(u).post(f"/api/v1/events/{event.pk}/warnings/acknowledge/", {"key": "nope"},
                                     format="json")
        assert unknown.json()["errors"] == [{"result": None, "field": "key", "message": (
            "Test swiss has no warning 'nope' now: it has changed or gone since (a new change needs its own "
            "acknowledgement)")}]
        assert WarningAcknowledgement.objects.filter(event=event).count() == 1


def test_a_private_events_warnings_are_not_found_for_those_who_may_not_read_it():
    people = Officials()
    event, _, key = _warned(people, public=False)
    for u in (None, user()):
        assert api_client(u).get(f"/api/v1/events/{event.pk}/").status_code == 404
        answer = api_client(u).post(f"/api/v1/events/{event.pk}/warnings/acknowledge/", {"key": key},
                                    format="json")
        assert answer.status_code == (401 if u is None else 404)
    assert signed_in(user()).post(f"/events/{event.pk}/warnings/acknowledge/", {"key": key}).status_code == 404
    assert not WarningAcknowledgement.objects.exists()


def test_the_event_page_acknowledges_one_warning_per_button():
    people = Officials()
    event, _, key = _warned(people)
    director = signed_in(people.director)
    page = director.get(f"/events/{event.pk}/").content.decode()
    assert f'name="key" value="{key}"' in page
    once = page.split('name="once" value="')[1].split('"')[0].split("-")[0]
    done = director.post(f"/events/{event.pk}/warnings/acknowledge/", {"once": f"{once}-ack1", "key": key,
                                                                       "note": "kept the pairings"}, follow=True)
    body = done.content.decode()
    assert "Warning acknowledged: spectators no longer see it." in body
    assert f"Acknowledged by {people.director.username} at " in body
    assert f'name="key" value="{key}"' not in body  # no second button for it
    stale = director.post(f"/events/{event.pk}/warnings/acknowledge/", {"once": f"{once}-x", "key": "gone"},
                          follow=True).content.decode()
    assert "Nothing was acknowledged. Test swiss has no warning &#x27;gone&#x27; now" in stale
    assert WarningAcknowledgement.objects.filter(event=event).count() == 1


def test_a_cancelled_events_warnings_are_not_acknowledged():
    people = Officials()
    event, _, key = _warned(people)
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    answer = api_client(people.director).post(f"/api/v1/events/{event.pk}/warnings/acknowledge/", {"key": key},
                                              format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["message"] == ("Test swiss was cancelled: nothing more can be recorded or "
                                                     "changed in it")
    assert not WarningAcknowledgement.objects.exists()
