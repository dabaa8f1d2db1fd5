"""Check-in before round 1 (an event with ``check_in``): directors check players in and out, a player
checks in at the venue's QR code with their PIN (or chooses one), and round 1 pairs only those checked
in: any other is named and the pairing refused, unless withdrawn in the same step."""

import pytest

from core.refusals import Refusal
from scoring import pins
from scoring.models import PinFailure, Player
from tournaments import services
from tournaments.models import Entry, Event, MatchPlayer
from tournaments.policy import Actor, NotAllowed

from ..factories import api_client, user
from .stored import Officials, entry, new_event

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve"]


def _checked_in_event(people, names=NAMES, **options):
    return new_event(people, names=names, rounds=3, check_in=True, **options)


def test_round_1_is_refused_naming_the_players_not_checked_in():
    people = Officials()
    event = _checked_in_event(people)
    for name in ("Ann", "Bob", "Cleo"):
        services.check_in_entry(actor=people.dir, entry=entry(event, name))
    with pytest.raises(Refusal) as refused:
        services.pair_next_round(actor=people.dir, event=event)
    problem = refused.value.problems[0]
    assert problem.field == "entries"
    assert problem.message == ("2 not checked in: Dev, Eve. Check them in, or withdraw them (“did not check in”) "
                               "as round 1 is paired")
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION
    assert not MatchPlayer.objects.filter(match__event=event).exists()


def test_withdrawing_the_absent_pairs_only_those_checked_in():
    people = Officials()
    event = _checked_in_event(people)
    for name in ("Ann", "Bob", "Cleo", "Dev"):
        services.check_in_entry(actor=people.dir, entry=entry(event, name))
    services.pair_next_round(actor=people.dir, event=event, withdraw_absent=True)
    eve = entry(event, "Eve")
    assert (eve.dropped_after_round, eve.drop_reason) == (0, "did not check in")
    paired = set(MatchPlayer.objects.filter(match__event=event).values_list("entry__player__display_name", flat=True))
    assert paired == {"Ann", "Bob", "Cleo", "Dev"}


def test_an_event_without_check_in_pairs_everyone_and_refuses_check_ins():
    people = Officials()
    event = new_event(people, names=NAMES, rounds=3)
    with pytest.raises(Refusal) as refused:
        services.check_in_entry(actor=people.dir, entry=entry(event, "Ann"))
    assert refused.value.problems[0].field == "check_in"
    services.pair_next_round(actor=people.dir, event=event)
    assert MatchPlayer.objects.filter(match__event=event).count() == 5


def test_a_double_tap_checks_in_once_and_check_out_takes_it_back():
    people = Officials()
    event = _checked_in_event(people)
    ann = entry(event, "Ann")
    first = services.check_in_entry(actor=people.dir, entry=ann)
    again = services.check_in_entry(actor=people.dir, entry=ann)
    assert again.checked_in_at == first.checked_in_at
    assert again.checked_in_how == Entry.CheckIn.DIRECTOR
    out = services.check_in_entry(actor=people.dir, entry=ann, here=False)
    assert (out.checked_in_at, out.checked_in_how) == (None, "")
    assert [e.player.display_name for e in services.absent_entries(event)] == NAMES


def test_check_in_is_over_once_round_1_is_paired():
    people = Officials()
    event = _checked_in_event(people, names=["Ann", "Bob"])
    for name in ("Ann", "Bob"):
        services.check_in_entry(actor=people.dir, entry=entry(event, name))
    services.pair_next_round(actor=people.dir, event=event)
    with pytest.raises(Refusal) as refused:
        services.check_in_entry(actor=people.dir, entry=entry(event, "Ann"), here=False)
    assert refused.value.problems[0].message == "check-in is over: round 1 of Test swiss is paired"


def test_only_directors_and_organisers_check_players_in():
    people = Officials()
    event = _checked_in_event(people)
    with pytest.raises(NotAllowed):
        services.check_in_entry(actor=Actor(user=people.recorder), entry=entry(event, "Ann"))
    services.check_in_entry(actor=people.boss, entry=entry(event, "Ann"))
    assert entry(event, "Ann").checked_in_at is not None


def test_a_withdrawn_player_cannot_be_checked_in():
    people = Officials()
    event = _checked_in_event(people)
    services.drop_entry(actor=people.dir, entry=entry(event, "Eve"), after_round=0)
    with pytest.raises(Refusal) as refused:
        services.check_in_entry(actor=people.dir, entry=entry(event, "Eve"))
    assert refused.value.problems[0].message == "Eve has withdrawn: enter them again to check them in"


def test_a_player_checks_in_at_the_venue_with_their_pin():
    people = Officials()
    event = _checked_in_event(people)
    ann = Player.objects.get(display_name="Ann")
    ann.confirm_pin = pins.hash_pin("4321")
    ann.save()
    code = services.venue_code(event)
    done = services.self_check_in(actor=Actor(address="10.0.0.9"), event=event, code=code,
                                  entry=entry(event, "Ann"), pin="4321")
    assert done.checked_in_how == Entry.CheckIn.VENUE_QR


def test_a_wrong_pin_at_the_venue_is_counted_and_checks_nobody_in():
    people = Officials()
    event = _checked_in_event(people)
    ann = Player.objects.get(display_name="Ann")
    ann.confirm_pin = pins.hash_pin("4321")
    ann.save()
    with pytest.raises(NotAllowed) as refused:
        services.self_check_in(actor=Actor(address="10.0.0.9"), event=event, code=services.venue_code(event),
                               entry=entry(event, "Ann"), pin="1234")
    assert str(refused.value) == "that is not Ann's PIN (4 more tries before a 15-minute pause)"
    assert PinFailure.objects.filter(player=ann).count() == 1
    assert entry(event, "Ann").checked_in_at is None


def test_a_player_without_a_pin_chooses_one_at_the_venue_and_it_works_at_the_table():
    people = Officials()
    event = _checked_in_event(people)
    code = services.venue_code(event)
    with pytest.raises(Refusal) as mistyped:
        services.self_check_in(actor=Actor(address="10.0.0.9"), event=event, code=code, entry=entry(event, "Bob"),
                               pin="", new_pin="2468", new_pin_again="2469")
    assert mistyped.value.problems[0].field == "new_pin_again"
    assert Player.objects.get(display_name="Bob").confirm_pin == ""
    services.self_check_in(actor=Actor(address="10.0.0.9"), event=event, code=code, entry=entry(event, "Bob"),
                           pin="", new_pin="2468", new_pin_again="2468")
    bob = Player.objects.get(display_name="Bob")
    assert pins.check_pin("2468", bob.confirm_pin).matches
    assert entry(event, "Bob").checked_in_at is not None


def test_a_wrong_venue_code_is_refused_before_anything_else():
    people = Officials()
    event = _checked_in_event(people)
    other = _checked_in_event(people, names=["Zed", "Yan"])
    with pytest.raises(NotAllowed):
        services.self_check_in(actor=Actor(address="10.0.0.9"), event=event, code=services.venue_code(other),
                               entry=entry(event, "Bob"), pin="", new_pin="2468", new_pin_again="2468")
    assert Player.objects.get(display_name="Bob").confirm_pin == ""


def test_check_in_can_be_turned_on_only_before_round_1():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=2)
    services.update_event(actor=people.dir, event=event, changes={"check_in": True})
    assert Event.objects.get(pk=event.pk).check_in is True
    services.update_event(actor=people.dir, event=event, changes={"check_in": False})
    services.pair_next_round(actor=people.dir, event=event)
    with pytest.raises(Refusal) as refused:
        services.update_event(actor=people.dir, event=event, changes={"check_in": True})
    assert refused.value.problems[0].field == "check_in"


def test_the_api_checks_in_and_out_and_pairs_withdrawing_the_absent():
    people = Officials()
    td = api_client(people.director)
    made = td.post("/api/v1/events/", {"name": "Checked", "format": "swiss", "check_in": True,
                                       "conventions": "classic"}, format="json")
    assert made.status_code == 403  # a director of another event may not create one
    event = _checked_in_event(people, names=["Ann", "Bob", "Cleo"])
    assert td.get(f"/api/v1/events/{event.pk}/").json()["check_in"] is True
    base = f"/api/v1/events/{event.pk}/entries"
    ann, bob = entry(event, "Ann"), entry(event, "Bob")
    for e in (ann, bob):
        answer = td.post(f"{base}/{e.pk}/check-in/", format="json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["checked_in"] is True
    assert td.post(f"{base}/{bob.pk}/check-out/", format="json").json()["checked_in"] is False
    refused = td.post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"result": None, "field": "entries", "message": (
        "2 not checked in: Bob, Cleo. Check them in, or withdraw them (“did not check in”) as round 1 is paired")}]
    td.post(f"{base}/{bob.pk}/check-in/", format="json")
    paired = td.post(f"/api/v1/events/{event.pk}/rounds/", {"withdraw_absent": True}, format="json")
    assert paired.status_code == 201, paired.content
    rows = {r["name"]: r for r in td.get(f"{base}/").json()}
    assert (rows["Cleo"]["dropped_after_round"], rows["Cleo"]["drop_reason"]) == (0, "did not check in")
    assert (rows["Ann"]["checked_in"], rows["Cleo"]["checked_in"]) == (True, False)
    assert api_client().get(f"{base}/").json()[2]["drop_reason"] == ""  # the reason is the officials'


def test_check_in_through_the_api_is_refused_to_referees_and_404_on_a_private_event():
    people = Officials()
    event = _checked_in_event(people, names=["Ann", "Bob"], is_public=False)
    ann = entry(event, "Ann")
    url = f"/api/v1/events/{event.pk}/entries/{ann.pk}/check-in/"
    assert api_client(people.recorder).post(url, format="json").status_code == 403
    assert api_client(user("stranger")).post(url, format="json").status_code == 404
    assert api_client().post(url, format="json").status_code == 401
    assert entry(event, "Ann").checked_in_at is None


def test_a_cancelled_event_checks_nobody_in_neither_by_a_director_nor_at_the_venue():
    people = Officials()
    event = _checked_in_event(people)
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    with pytest.raises(Refusal) as refused:
        services.check_in_entry(actor=people.dir, entry=entry(event, "Ann"))
    assert refused.value.problems[0].message == ("Test swiss was cancelled: nothing more can be recorded or changed "
                                                 "in it")
    with pytest.raises(Refusal):
        services.self_check_in(actor=Actor(address="10.0.0.9"), event=event, code=services.venue_code(event),
                               entry=entry(event, "Bob"), pin="", new_pin="2468", new_pin_again="2468")
    assert Player.objects.get(display_name="Bob").confirm_pin == ""
    assert not Entry.objects.filter(event=event, checked_in_at__isnull=False).exists()
