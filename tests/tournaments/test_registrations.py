"""Players sign up themselves (``services.register``): entered up to the event's cap, then waitlisted in
order; each with its own link to see where it stands and to withdraw (before round 1 the first waitlisted
player takes the place; after round 1 a withdrawal is a drop). Found by email, never by name alone; the same
person twice refused in words; nothing half-made on any refusal."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.refusals import Refusal
from scoring.models import Player
from tournaments import services
from tournaments.models import Entry, Registration

from ..factories import as_actor, player
from .stored import QUICK, Officials, open_matches, play_match

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Fay"]


def _new_event(people):
    return services.create_event(actor=people.boss, name="Open Swiss", format="swiss", rounds=3, conventions=QUICK,
                                 directors=[people.director], referees=[people.recorder, people.confirmer])


def _open_event(people, **options):
    event = _new_event(people)
    services.update_event(actor=people.dir, event=event, changes={"registration_open": True, **options})
    event.refresh_from_db()
    return event


def _sign_up(event, name, **extra):
    values = {"email": f"{name.lower()}@example.org", **extra}
    return services.register(actor=as_actor(), event=event, name=name, **values)


def test_a_cap_of_four_with_six_sign_ups_waitlists_two_in_order():
    people = Officials()
    event = _open_event(people, registration_cap=4, waitlist=True)
    signed = [_sign_up(event, name) for name in NAMES]
    assert [(s.registration.status, s.position) for s in signed] == [
        ("entered", None), ("entered", None), ("entered", None), ("entered", None),
        ("waitlisted", 1), ("waitlisted", 2)]
    assert sorted(Entry.objects.filter(event=event).values_list("player__display_name", flat=True)) == NAMES[:4]


def test_a_withdrawal_before_round_1_enters_the_first_waitlisted_and_the_others_move_up():
    people = Officials()
    event = _open_event(people, registration_cap=4, waitlist=True)
    signed = [_sign_up(event, name) for name in NAMES]
    bob = services.registration_by_token(signed[1].token)
    services.withdraw(registration=bob)
    assert not Entry.objects.filter(event=event, player__display_name="Bob").exists()
    eve = Registration.objects.get(event=event, player__display_name="Eve")
    fay = Registration.objects.get(event=event, player__display_name="Fay")
    assert (eve.status, eve.entry.player.display_name) == ("entered", "Eve")
    assert (fay.status, services.position_of(fay)) == ("waitlisted", 1)
    with pytest.raises(Refusal) as again:
        services.withdraw(registration=services.registration_by_token(signed[1].token))
    assert again.value.problems[0].message == "you have already withdrawn"


def test_a_withdrawal_after_round_1_is_a_drop_that_says_withdrew():
    people = Officials()
    event = _open_event(people)
    signed = [_sign_up(event, name) for name in NAMES[:4]]
    services.pair_next_round(actor=people.dir, event=event)
    for match in open_matches(event, 1):
        play_match(people, match, match.players.get(side=0).entry.player.display_name)
    services.withdraw(registration=services.registration_by_token(signed[0].token))
    entry = Entry.objects.get(event=event, player__display_name="Ann")
    assert (entry.dropped_after_round, entry.drop_reason) == (1, "withdrew")


def test_an_existing_player_is_found_by_email_and_must_type_their_pin():
    people = Officials()
    event = _open_event(people)
    ann = player("Ann Lee", pin="1357")
    ann.email = "ann@example.org"
    ann.save(update_fields=["email"])
    with pytest.raises(Refusal) as no_pin:
        _sign_up(event, "Someone Else", email="ann@example.org")  # the email is Ann's: never a second player behind it
    assert no_pin.value.problems[0].field == "pin"
    with pytest.raises(services.NotAllowed):
        _sign_up(event, "Ann Lee", email="ann@example.org", pin="9999")
    signed = _sign_up(event, "Ann Lee", email="ANN@example.org", pin="1357")
    assert signed.registration.player == ann
    assert Player.objects.filter(display_name__iexact="ann lee").count() == 1


def test_the_same_person_twice_a_name_alone_and_bad_input_are_refused_in_words_leaving_nothing():
    people = Officials()
    event = _open_event(people)
    _sign_up(event, "Ann")
    with pytest.raises(Refusal) as twice:
        _sign_up(event, "Ann")
    assert "Ann is already signed up" in twice.value.problems[0].message
    player("Zed")  # in the club without an email: a sign-up by that name alone is not them
    with pytest.raises(Refusal) as namesake:
        _sign_up(event, "zed")
    assert namesake.value.problems[0].field == "name"
    player("Rosa Márquez")  # accents and case aside, as the club's search finds her: not a new player
    with pytest.raises(Refusal) as alike:
        _sign_up(event, "rosa marquez", email="rosa@example.org", pin="2468")
    assert alike.value.problems[0].as_dict() == {
        "result": None, "field": "name", "message": "a player named Rosa Márquez is already in the club: sign up "
        "with the email address the club has for them, or ask the director to enter you"}
    assert Player.objects.filter(display_name__iexact="rosa marquez").count() == 0
    with pytest.raises(Refusal) as bad:
        services.register(actor=as_actor(), event=event, name="", email="not an address", pin="12a4",
                          honeypot="http://spam.example")
    assert sorted(p.field for p in bad.value.problems) == ["email", "name", "pin", "website"]
    assert Registration.objects.filter(event=event).count() == 1
    assert not Player.objects.filter(display_name="").exists()


def test_registration_closed_full_or_past_its_time_is_refused():
    people = Officials()
    event = _new_event(people)
    with pytest.raises(Refusal, match="closed"):
        _sign_up(event, "Ann")
    event = _open_event(people, registration_cap=2)
    _sign_up(event, "Ann")
    _sign_up(event, "Bob")
    with pytest.raises(Refusal, match="full"):
        _sign_up(event, "Cleo")
    services.update_event(actor=people.dir, event=event, changes={
        "registration_closes_at": timezone.now() - timedelta(minutes=1)})
    event.refresh_from_db()
    with pytest.raises(Refusal, match="closed at"):
        _sign_up(event, "Dev", email="dev@example.org")


def test_a_director_enters_a_waitlisted_player_and_raising_the_cap_lets_the_queue_in():
    people = Officials()
    event = _open_event(people, registration_cap=2, waitlist=True)
    for name in NAMES[:5]:
        _sign_up(event, name)
    cleo = Registration.objects.get(event=event, player__display_name="Cleo")
    services.enter_from_waitlist(actor=people.dir, registration=cleo)
    assert Registration.objects.get(pk=cleo.pk).status == "entered"
    services.update_event(actor=people.dir, event=event, changes={"registration_cap": 5})
    assert sorted(Registration.objects.filter(event=event).values_list("status", flat=True)) == ["entered"] * 5


def test_a_closing_time_at_the_calendars_end_is_refused_naming_the_field():
    people = Officials()
    event = _new_event(people)
    far = timezone.now().replace(year=9999, month=12, day=31)
    with pytest.raises(Refusal) as refused:
        services.update_event(actor=people.dir, event=event, changes={"registration_closes_at": far})
    assert refused.value.problems[0].field == "registration_closes_at"
