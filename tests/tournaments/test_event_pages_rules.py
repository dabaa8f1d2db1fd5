"""Who may change an event on the web, on every form of every page (the permission matrix), private
events hidden from whoever may not read them, and the admin, which shows events but changes nothing."""

import pytest
from django.test import Client

from scoring.models import Game, Player
from tournaments import services
from tournaments.models import Entry, Event, Match, MatchResult, Round, WarningAcknowledgement

from ..factories import organiser, user
from .stored import Officials, new_event, replace_officials

pytestmark = pytest.mark.django_db


def _tables():
    """What a refused write must leave as it was of each match: its card printed, its clock, its extra time."""
    return list(Match.objects.order_by("pk").values_list("card_printed_at", "clock_ends_at", "extra_seconds"))


def signed_in(u):
    client = Client()
    if u is not None:
        client.force_login(u)
    return client


def _state():
    return (Entry.objects.count(), Round.objects.count(), Match.objects.count(), MatchResult.objects.count(),
            Event.objects.count(), Game.objects.count(),
            list(Entry.objects.values_list("seed", "dropped_after_round", "checked_in_at")),
            _tables(),
            sorted(Event.objects.values_list("pk", "status", "prizes")), WarningAcknowledgement.objects.count(),
            list(Round.objects.order_by("pk").values_list("clock_ends_at", "clock_left_seconds")))


def _writes(event, match, rnd_number, first, second, entry):
    base = f"/events/{event.pk}"
    return [
        (f"{base}/officials/", {"once": "a0", "directors": list(event.directors.values_list("pk", flat=True))}),
        (f"{base}/pair/", {"once": "a1"}),
        (f"{base}/pair/", {"once": "a2", "draft": "1"}),
        (f"{base}/reset/", {"once": "a3"}),
        (f"{base}/knockout/", {"once": "a4", "top_n": "2", "format": "single_elimination"}),
        (f"{base}/entries/", {"once": "a5", "action": "add", "add-name": "Zed"}),
        (f"{base}/entries/", {"once": "a6", "action": "paste", "paste-text": "Yan\nXi"}),
        (f"{base}/entries/", {"once": "a7", "action": "seed", "method": "rating"}),
        (f"{base}/check-in/", {"entry": second.pk, "action": "in"}),
        (f"{base}/check-in/", {"entry": second.pk, "action": "out"}),
        (f"{base}/entries/", {"once": "a8", "action": "drop", "entry": entry.pk, "reason": "ill"}),
        (f"{base}/rounds/{rnd_number}/", {"action": "swap", "swap-first": first.pk, "swap-second": second.pk}),
        (f"{base}/rounds/{rnd_number}/", {"once": "a9", "action": "publish"}),
        (f"{base}/rounds/{rnd_number}/clock/", {"action": "start", "minutes": "10"}),
        (f"{base}/matches/{match.pk}/clock/", {"action": "start", "minutes": "10"}),
        (f"{base}/matches/{match.pk}/", {"once": "b1", "result-kind": "forfeit", "result-winner": first.pk,
                                         "result-reason": "no show"}),
        (f"{base}/sheet/?round={rnd_number}", {"once": "b2"}),
        (f"{base}/matches/{match.pk}/link/", {"once": "b3"}),
        (f"{base}/cards/", {"once": "b6", "started_too": "on"}),
        (f"{base}/change/", {"once": "b4", "name": "Renamed", "rounds": "4", "is_public": "on"}),
        (f"{base}/warnings/acknowledge/", {"once": "b6", "key": "no-such-warning"}),
        (f"{base}/prizes/", {"once": "b8", "prizes": "1: a cup"}),
        (f"{base}/cancel/", {"once": "b7", "reason": "the hall flooded", "confirm": "on"}),
        (f"{base}/delete/", {"once": "b5", "confirm": "1"}),  # refused once cancelled: a cancelled event is kept
    ]


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 302), ("player", 403), ("referee", 403), ("other_director", 403), ("removed_director", 403),
     ("removed_referee", 403), ("added_referee", 403), ("added_director", None), ("director", None),
     ("organiser", None)],
)
def test_every_event_form_is_for_its_directors_and_organisers(who, expected, public):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], is_public=public, rounds=3)
    opened = services.pair_next_round(actor=people.dir, event=event, publish=False)
    changed = replace_officials(people, event)
    other = new_event(Officials(), names=["Cat", "Dan"])
    ann_login = user("ann-login")
    Player.objects.filter(display_name="Ann").update(user=ann_login)
    match = opened.matches[0]
    first, second = (p.entry for p in match.players.order_by("side"))
    actor = {"anonymous": None, "player": ann_login, "referee": people.recorder,
             "other_director": other.directors.get(), "director": people.director,
             "organiser": organiser(), **changed}[who]
    client = signed_in(actor)
    if not public and who in ("anonymous", "player", "other_director", "removed_director", "removed_referee"):
        expected = 404  # a private event does not exist for whoever may not read it
    before = _state()
    for url, data in _writes(event, match, 1, first, second, first):
        answer = client.post(url, data)
        if expected is None:
            assert answer.status_code in (200, 302, 400), (url, answer.status_code)
        else:
            assert answer.status_code == expected, (url, answer.status_code)
            if expected == 302:
                assert answer["Location"].startswith("/accounts/login/"), url
    if expected is not None:
        assert _state() == before
    else:
        assert _state() != before
        assert Event.objects.get(pk=event.pk).status == "cancelled"  # and kept: not deleted after
        assert Event.objects.get(pk=event.pk).prizes == [{"place": 1, "prize": "a cup"}]
    if who == "anonymous" and not public:
        assert client.post(f"/events/{event.pk}/pair/", {}).status_code == 404
    creating = client.post("/events/new/", {"name": "Mine", "format": "swiss", "match_format": "single_game",
                                            "preset": "classic", "grand_final": "reset"})
    assert creating.status_code == (302 if who in ("organiser", "anonymous") else 403)
    assert Event.objects.filter(name="Mine").exists() is (who == "organiser")


def test_director_pages_show_no_director_form_to_anyone_else():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    opened = services.pair_next_round(actor=people.dir, event=event)
    pages = [f"/events/{event.pk}/", f"/events/{event.pk}/entries/", f"/events/{event.pk}/rounds/1/",
             f"/events/{event.pk}/matches/{opened.matches[0].pk}/"]
    for u in (None, people.recorder, user()):
        for page in pages:
            body = signed_in(u).get(page).content.decode().split("</header>", 1)[1]  # past the sign-out form
            assert 'method="post"' not in body, (u, page)
    assert signed_in(people.recorder).get(f"/events/{event.pk}/sheet/?round=1").status_code == 403
    assert Client().get(f"/events/{event.pk}/sheet/?round=1").status_code == 302
    assert signed_in(people.recorder).get(f"/events/{event.pk}/cards/").status_code == 403
    assert Client().get(f"/events/{event.pk}/cards/").status_code == 302
    director_page = signed_in(people.director).get(f"/events/{event.pk}/").content.decode()
    assert f'action="/events/{event.pk}/pair/"' not in director_page  # round 1 is being played
    assert "Round 1 of 3 is being played: 2 tables still to finish." in director_page  # the status line
    assert "2 tables still to finish: round 1: table 1, table 2. Pair the next round" in director_page


def test_private_event_pages_are_not_found_for_those_who_may_not_read_them():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=False)
    services.pair_next_round(actor=people.dir, event=event)
    match = Match.objects.get(event=event)
    ann = Entry.objects.get(event=event, player__display_name="Ann")
    for page in ("", "pairings/", "standings/", "entries/", f"entries/{ann.pk}/", "rounds/1/", f"matches/{match.pk}/",
                 "bracket/", "display/", "display/?fragment=1"):
        assert Client().get(f"/events/{event.pk}/{page}").status_code == 404, page
        assert signed_in(user()).get(f"/events/{event.pk}/{page}").status_code == 404, page
        assert signed_in(people.recorder).get(f"/events/{event.pk}/{page}").status_code in (200, 302), page
    assert event.name not in Client().get("/events/").content.decode()
    assert event.name in signed_in(people.recorder).get("/events/").content.decode()


def test_the_admin_shows_events_and_changes_nothing():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    opened = services.pair_next_round(actor=people.dir, event=event)
    boss = signed_in(people.organiser)
    boss.force_login(organiser("superboss"))
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="superboss").update(is_superuser=True)
    for path in ("/admin/tournaments/event/", f"/admin/tournaments/event/{event.pk}/change/",
                 "/admin/tournaments/match/", f"/admin/tournaments/match/{opened.matches[0].pk}/change/",
                 "/admin/tournaments/round/", "/admin/tournaments/matchresult/"):
        page = boss.get(path)
        assert page.status_code == 200, path
        assert 'name="_save"' not in page.content.decode(), path
    before = _state()
    boss.post(f"/admin/tournaments/event/{event.pk}/change/", {"name": "Renamed", "status": "complete"})
    boss.post(f"/admin/tournaments/event/{event.pk}/delete/", {"post": "yes"})
    assert boss.get("/admin/tournaments/event/add/").status_code == 403
    assert Event.objects.get(pk=event.pk).name == event.name
    assert _state() == before
