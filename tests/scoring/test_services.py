"""The services: recording, confirming, correcting and voiding hands, with the engine's rules."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core.refusals import Refusal
from scoring import services
from scoring.models import Game, Hand, slot_key
from scoring.policy import NotAllowed

from ..factories import as_actor, game, gin, knock, organiser, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    ref = user("referee")
    g = game(referees=[ref])
    return g, as_actor(ref)


def record_and_confirm(g, actor, data):
    hand, _ = services.record_hand(actor=actor, game=g, data=data)
    opponent = "Bob" if data.get("knocker") == "Ann" else "Ann"
    pin = "2222" if opponent == "Bob" else "1111"
    return services.confirm_hand(actor=actor, game=g, number=hand.number, player_name=opponent, pin=pin)[1]


def test_a_recorded_hand_is_pending_until_the_opponent_confirms_it(table):
    g, ref = table
    hand, sheet = services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    assert (hand.number, hand.version, hand.is_confirmed) == (1, 1, False)
    assert sheet["players"]["Ann"]["total"] == 0
    assert [p["number"] for p in sheet["pending"]] == [1]
    _, sheet = services.confirm_hand(actor=ref, game=g, number=1, player_name="Bob", pin="2222")
    assert sheet["players"]["Ann"]["total"] == 33
    assert sheet["pending"] == []
    g.refresh_from_db()
    assert g.summary["totals"] == {"Ann": 33, "Bob": 0}


def test_whoever_entered_a_hand_cannot_confirm_it(table):
    g, ref = table
    services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    with pytest.raises(NotAllowed, match="cannot confirm"):
        services.confirm_hand(actor=ref, game=g, number=1)


def test_a_wrong_pin_is_refused_and_a_second_official_may_confirm(table):
    g, ref = table
    services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    with pytest.raises(NotAllowed, match="not Bob's PIN"):
        services.confirm_hand(actor=ref, game=g, number=1, player_name="Bob", pin="9999")
    hand, _ = services.confirm_hand(actor=as_actor(organiser()), game=g, number=1)
    assert hand.confirmed_by.is_staff


def test_a_player_signed_in_confirms_with_their_own_login(table):
    g, ref = table
    bob_user = user("bob")
    bob = g.seats.get(position=1).player
    bob.user = bob_user
    bob.save(update_fields=["user"])
    services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    hand, _ = services.confirm_hand(actor=as_actor(bob_user), game=Game.objects.get(pk=g.pk), number=1)
    assert hand.confirmed_by == bob_user


def test_a_game_that_needs_no_confirmation_counts_hands_at_once():
    ref = user()
    g = game(referees=[ref], requires_confirmation=False)
    hand, sheet = services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    assert hand.auto_confirmed
    assert sheet["players"]["Ann"]["total"] == 33


def test_the_engine_refuses_a_bad_hand_naming_hand_and_field_and_nothing_is_saved(table):
    g, ref = table
    record_and_confirm(g, ref, knock("Ann", 6, 19))
    with pytest.raises(Refusal) as caught:
        services.record_hand(actor=ref, game=g, data=knock("Bob", 11, 19))
    assert caught.value.as_dict() == {"errors": [
        {"hand": 2, "field": "knocker_deadwood", "message": "knock needs deadwood <= 10; 11 recorded"}]}
    assert Hand.objects.filter(game=g).count() == 1


def test_a_hand_after_the_game_is_complete_is_refused(table):
    g, ref = table
    sheet = record_and_confirm(g, ref, gin("Ann", 98))
    assert sheet["complete"] is True
    g.refresh_from_db()
    assert g.status == Game.Status.COMPLETE
    with pytest.raises(Refusal, match="already complete after hand 1"):
        services.record_hand(actor=ref, game=g, data=knock("Bob", 2, 9))


def test_a_correction_rescores_every_later_hand(table):
    g, ref = table
    record_and_confirm(g, ref, knock("Ann", 6, 19))  # 13
    record_and_confirm(g, ref, knock("Bob", 2, 10))  # 8
    record_and_confirm(g, ref, knock("Ann", 1, 30))  # 29
    org = as_actor(organiser())
    hand, sheet = services.correct_hand(actor=org, game=g, number=1, data=gin("Ann", 19), reason="it was gin")
    assert (hand.version, hand.action, hand.is_confirmed) == (2, "correction", False)
    assert sheet["players"]["Ann"]["points"] == 42  # the confirmed version still counts
    _, sheet = services.confirm_hand(actor=ref, game=g, number=1, player_name="Bob", pin="2222")
    assert sheet["players"]["Ann"]["points"] == 39 + 29
    assert [h["totals"]["Ann"] for h in sheet["hands"]] == [39, 39, 68]
    versions = list(Hand.objects.filter(game=g, number=1).order_by("version"))
    assert [(v.version, v.is_current) for v in versions] == [(1, False), (2, True)]
    assert versions[0].data == knock("Ann", 6, 19)  # the original stays as it was


def test_a_void_reopens_a_complete_game(table):
    g, ref = table
    record_and_confirm(g, ref, knock("Ann", 1, 60))
    record_and_confirm(g, ref, knock("Ann", 1, 50))  # 59 + 49 = 108: complete
    g.refresh_from_db()
    assert g.status == Game.Status.COMPLETE
    org = as_actor(organiser())
    services.void_hand(actor=org, game=g, number=2, reason="misdeal found")
    # the void takes Ann's 49 away: Ann accepts it
    _, sheet = services.confirm_hand(actor=ref, game=g, number=2, player_name="Ann", pin="1111")
    g.refresh_from_db()
    assert (g.status, sheet["complete"], sheet["voided"]) == (Game.Status.IN_PROGRESS, False, [2])
    assert sheet["players"]["Ann"]["points"] == 59
    services.record_hand(actor=ref, game=g, data=knock("Bob", 3, 9))
    assert Hand.objects.filter(game=g, number=3).exists()


def test_a_correction_that_would_end_the_game_before_later_hands_is_refused(table):
    g, ref = table
    record_and_confirm(g, ref, knock("Ann", 1, 30))
    record_and_confirm(g, ref, knock("Bob", 1, 10))
    with pytest.raises(Refusal, match="already complete after hand 1"):
        services.correct_hand(actor=as_actor(organiser()), game=g, number=1, data=gin("Ann", 98), reason="typo")
    assert Hand.objects.filter(game=g).count() == 2


def test_a_referee_may_amend_only_until_the_next_hand_is_confirmed(table):
    g, ref = table
    record_and_confirm(g, ref, knock("Ann", 6, 19))
    services.record_hand(actor=ref, game=g, data=knock("Bob", 2, 10))  # hand 2 pending
    services.correct_hand(actor=ref, game=g, number=1, data=knock("Ann", 5, 19), reason="miscounted")
    services.confirm_hand(actor=ref, game=g, number=2, player_name="Ann", pin="1111")
    with pytest.raises(NotAllowed, match="hand 2 is already confirmed"):
        services.void_hand(actor=ref, game=g, number=1, reason="changed my mind")
    services.void_hand(actor=as_actor(organiser()), game=g, number=1, reason="organiser decision")


def test_an_amendment_needs_a_reason(table):
    g, ref = table
    record_and_confirm(g, ref, knock("Ann", 6, 19))
    with pytest.raises(Refusal) as caught:
        services.void_hand(actor=ref, game=g, number=1, reason="  ")
    assert caught.value.problems[0].field == "reason"


def test_an_abandoned_game_takes_no_more_hands(table):
    g, ref = table
    services.abandon_game(actor=as_actor(organiser()), game=g)
    with pytest.raises(NotAllowed, match="abandoned"):
        services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))


def test_a_game_keeps_its_conventions_when_a_preset_changes_later(table, monkeypatch):
    g, ref = table
    assert g.conventions["gin_bonus"] == 20
    from scoring.engine import conventions as conv_module

    changed = dict(conv_module.PRESETS)
    changed["classic"] = conv_module.Conventions(preset="classic", gin_bonus=99)
    monkeypatch.setattr(conv_module, "PRESETS", changed)
    sheet = record_and_confirm(g, ref, gin("Ann", 10))
    assert sheet["hands"][0]["points"] == 30


def test_only_organisers_create_players_and_games():
    with pytest.raises(NotAllowed):
        services.create_player(actor=as_actor(user()), display_name="Zed")


def test_game_creation_checks_the_seats():
    org = as_actor(organiser())
    a = services.create_player(actor=org, display_name="Solo")
    with pytest.raises(Refusal, match="needs 3 players"):
        services.create_game(actor=org, format="rotation", players=[a])
    b = services.create_player(actor=org, display_name="Duo")
    with pytest.raises(Refusal, match="unknown preset"):
        services.create_game(actor=org, format="standard", players=[a, b], conventions="bridge")


class TestDatabaseConstraints:
    """The invariants hold even against code that bypasses the services."""

    def entry(self, g, number, previous, **extra):
        return Hand(game=g, number=number, version=1, action="entry", entered_by=g.created_by,
                    entered_at=timezone.now(), slot=slot_key(g.pk, number),
                    previous_slot_id=slot_key(g.pk, previous) if previous else None, **extra)

    def test_a_gap_in_hand_numbers_is_refused(self, table):
        g, _ = table
        self.entry(g, 1, None).save()
        with pytest.raises(IntegrityError):
            self.insert(self.entry(g, 3, 2))
        with pytest.raises(IntegrityError):
            self.insert(self.entry(g, 3, 1))
        self.insert(self.entry(g, 2, 1))

    @staticmethod
    def insert(hand):
        with transaction.atomic():
            hand.save()
            # foreign keys are checked when the transaction commits; check now, as a commit would
            connection.check_constraints()

    def test_hand_numbers_are_positive(self, table):
        g, _ = table
        with pytest.raises(IntegrityError), transaction.atomic():
            self.entry(g, 0, None).save()

    def test_two_current_versions_of_a_hand_are_refused(self, table):
        g, _ = table
        self.entry(g, 1, None).save()
        with pytest.raises(IntegrityError), transaction.atomic():
            Hand.objects.create(game=g, number=1, version=2, action="correction", entered_by=g.created_by,
                                entered_at=timezone.now(), is_current=True)

    def test_a_confirmation_must_name_the_confirmer(self, table):
        g, _ = table
        with pytest.raises(IntegrityError), transaction.atomic():
            self.entry(g, 1, None, confirmed_at=timezone.now()).save()


def test_renaming_a_player_later_changes_nothing_in_a_recorded_game(table):
    g, ref = table
    record_and_confirm(g, ref, knock("Ann", 6, 19))
    ann = g.seats.get(position=0).player
    ann.display_name = "Annabel"
    ann.save(update_fields=["display_name"])
    sheet = record_and_confirm(Game.objects.get(pk=g.pk), ref, knock("Ann", 2, 9))
    assert sheet["players"]["Ann"]["points"] == 13 + 7
