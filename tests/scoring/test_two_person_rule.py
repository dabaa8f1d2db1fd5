"""The two-person rule on every path: only the side a hand goes against accepts it (PIN or login),
or an official who did not enter it; abandoned games are frozen until an organiser reopens them."""

import pytest
from django.contrib.auth import get_user_model

from scoring import services
from scoring.models import Game, GameStatusChange, Hand
from scoring.policy import NotAllowed

from ..factories import as_actor, game, knock, organiser, seat_user, user
from .test_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    ref = user("referee")
    return game(referees=[ref]), as_actor(ref)


def confirmed(g, number=1):
    return Hand.objects.get(game=g, number=number, is_current=True).is_confirmed


PINS = {"Ann": "1111", "Bob": "2222", "Cat": "3333", "N": "1111", "S": "2222", "E": "3333", "W": "4444"}


def only_accepted_by(g, actor, refused, accepted, says):
    """``refused``'s PIN does not accept hand 1 (the refusal ``says`` who may); ``accepted``'s does."""
    with pytest.raises(NotAllowed, match=says):
        services.confirm_hand(actor=actor, game=g, number=1, player_name=refused, pin=PINS[refused])
    assert not confirmed(g)
    services.confirm_hand(actor=actor, game=g, number=1, player_name=accepted, pin=PINS[accepted])
    assert confirmed(g)


def test_the_winner_cannot_accept_her_own_win_with_her_pin_and_the_loser_can(table):
    g, ref = table
    services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    only_accepted_by(g, ref, refused="Ann", accepted="Bob", says="only Bob may accept hand 1")


def test_an_undercut_goes_against_the_knocker_who_then_accepts_it(table):
    g, ref = table
    services.record_hand(actor=ref, game=g, data=knock("Ann", 8, 5))
    only_accepted_by(g, ref, refused="Bob", accepted="Ann", says="only Ann may accept")


def test_a_winner_who_also_referees_the_game_cannot_accept_her_win_with_her_login(table):
    g, _ = table
    ann = seat_user(g, 0, "ann")
    g.referees.add(ann)
    services.record_hand(actor=as_actor(organiser()), game=g, data=knock("Ann", 6, 19))
    with pytest.raises(NotAllowed, match="Ann cannot accept this hand"):
        services.confirm_hand(actor=as_actor(ann), game=Game.objects.get(pk=g.pk), number=1)
    assert not confirmed(g)


def test_a_player_holding_the_referee_link_cannot_enter_and_accept_her_own_win():
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g, label="table")
    api = client_for(link=link)
    url = f"/api/v1/games/{g.pk}/hands/"
    assert api.post(url, knock("Ann", 6, 19), format="json").status_code == 201
    # the link itself never confirms its own entry, and Ann's PIN does not accept Ann's win
    assert api.post(f"{url}1/confirm/", {}, format="json").status_code == 403
    refused = api.post(f"{url}1/confirm/", {"player": "Ann", "pin": "1111"}, format="json")
    assert refused.status_code == 403
    assert "only Bob may accept hand 1" in refused.json()["errors"][0]["message"]
    assert not confirmed(g)
    assert api.post(f"{url}1/confirm/", {"player": "Bob", "pin": "2222"}, format="json").status_code == 200


def test_on_the_web_the_winners_pin_is_refused_on_the_referee_phone(client):
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    services.record_hand(actor=as_actor(link=link), game=g, data=knock("Ann", 6, 19))
    session = client.session
    session["referee_link"] = link.pk
    session.save()
    page = client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "Ann", "pin": "1111"}, follow=True)
    assert "only Bob may accept hand 1" in page.content.decode()
    assert not confirmed(g)


def test_a_player_who_entered_a_hand_while_signed_in_cannot_accept_it_with_her_pin(table):
    g, _ = table
    bob = seat_user(g, 1, "bob")
    g.referees.add(bob)
    services.record_hand(actor=as_actor(bob), game=Game.objects.get(pk=g.pk), data=knock("Ann", 6, 19))
    with pytest.raises(NotAllowed, match="Bob entered this hand"):
        services.confirm_hand(actor=as_actor(organiser()), game=g, number=1, player_name="Bob", pin="2222")


def test_rotation_the_player_sitting_out_cannot_accept_a_hand_he_did_not_play():
    ref = user()
    g = game(names=("Ann", "Bob", "Cat"), fmt="rotation", referees=[ref])  # Ann deals and sits out
    cat = seat_user(g, 2, "cat")
    ann = seat_user(g, 0, "ann")
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Bob", 3, 20))
    with pytest.raises(NotAllowed, match="only Cat may accept"):
        services.confirm_hand(actor=as_actor(ref), game=g, number=1, player_name="Ann", pin="1111")
    with pytest.raises(NotAllowed, match="Ann cannot accept"):
        services.confirm_hand(actor=as_actor(ann), game=Game.objects.get(pk=g.pk), number=1)
    services.confirm_hand(actor=as_actor(cat), game=Game.objects.get(pk=g.pk), number=1)
    assert confirmed(g)


def test_jersey_either_opponent_accepts_and_the_knocker_cannot():
    ref = user()
    g = game(names=("Ann", "Bob", "Cat"), fmt="jersey", referees=[ref])
    hand = {"result": "knock", "knocker": "Ann", "knocker_deadwood": 4, "deadwood": {"Bob": 12, "Cat": 20}}
    services.record_hand(actor=as_actor(ref), game=g, data=hand)
    only_accepted_by(g, as_actor(ref), refused="Ann", accepted="Cat", says="only Bob or Cat may accept")


def test_partnership_a_player_of_the_team_that_scored_cannot_accept_the_deal():
    ref = user()
    g = game(names=("N", "S", "E", "W"), fmt="partnership", referees=[ref])
    deal = {"tables": [knock("N", 2, 30), knock("S", 5, 9)]}
    services.record_hand(actor=as_actor(ref), game=g, data=deal)
    only_accepted_by(g, as_actor(ref), refused="S", accepted="W", says="only E or W may accept")


def test_a_void_is_accepted_by_the_player_it_takes_points_from(table):
    g, ref = table
    services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    services.confirm_hand(actor=ref, game=g, number=1, player_name="Bob", pin="2222")
    services.void_hand(actor=ref, game=g, number=1, reason="misdeal")
    only_accepted_by(g, ref, refused="Bob", accepted="Ann", says="only Ann may accept")


def test_a_second_official_who_did_not_enter_the_hand_confirms_it(table):
    g, ref = table
    services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    with pytest.raises(NotAllowed, match="whoever entered"):
        services.confirm_hand(actor=ref, game=g, number=1)
    services.confirm_hand(actor=as_actor(organiser()), game=g, number=1)
    assert confirmed(g)


class TestAbandonedGamesAreFrozen:
    @pytest.fixture
    def frozen(self, table):
        g, ref = table
        services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
        services.confirm_hand(actor=ref, game=g, number=1, player_name="Bob", pin="2222")
        services.record_hand(actor=ref, game=g, data=knock("Bob", 2, 9))
        org = organiser("boss")
        services.abandon_game(actor=as_actor(org), game=g, reason="players left")
        return g, ref, org

    @pytest.mark.parametrize("who", ["referee", "organiser"])
    def test_confirm_correct_and_void_are_refused_for_everyone(self, frozen, who):
        g, ref, org = frozen
        actor = ref if who == "referee" else as_actor(org)
        with pytest.raises(NotAllowed, match="abandoned"):
            services.confirm_hand(actor=actor, game=g, number=2, player_name="Ann", pin="1111")
        with pytest.raises(NotAllowed, match="abandoned"):
            services.correct_hand(actor=actor, game=g, number=1, data=knock("Ann", 5, 19), reason="recount")
        with pytest.raises(NotAllowed, match="abandoned"):
            services.void_hand(actor=actor, game=g, number=1, reason="misdeal")
        assert Hand.objects.filter(game=g).count() == 2
        assert not confirmed(g, 2)

    def test_the_api_refuses_every_write_on_an_abandoned_game(self, frozen):
        g, _, org = frozen
        api = client_for(org)
        base = f"/api/v1/games/{g.pk}/hands/"
        for url, body in [(base, knock("Ann", 2, 9)), (f"{base}2/confirm/", {}),
                          (f"{base}1/correct/", {"hand": knock("Ann", 5, 19), "reason": "recount"}),
                          (f"{base}1/void/", {"reason": "misdeal"})]:
            answer = api.post(url, body, format="json")
            assert answer.status_code == 403, url
            assert "abandoned" in answer.json()["errors"][0]["message"]

    def test_only_an_organiser_reopens_and_must_say_why(self, frozen):
        g, ref, org = frozen
        with pytest.raises(NotAllowed):
            services.reopen_game(actor=ref, game=g, reason="we are back")
        refused = client_for(org).post(f"/api/v1/games/{g.pk}/reopen/", {"reason": " "}, format="json")
        assert (refused.status_code, refused.json()["errors"][0]["field"]) == (400, "reason")
        reopened = client_for(org).post(f"/api/v1/games/{g.pk}/reopen/", {"reason": "players came back"},
                                        format="json")
        assert (reopened.status_code, reopened.json()["status"]) == (200, "in_progress")
        assert list(GameStatusChange.objects.filter(game=g).values_list("status", "reason")) == [
            ("abandoned", "players left"), ("in_progress", "players came back")]
        services.confirm_hand(actor=ref, game=g, number=2, player_name="Ann", pin="1111")
        assert confirmed(g, 2)

    def test_on_the_web_confirm_is_refused_and_an_organiser_reopens_with_a_reason(self, frozen, client):
        g, _, org = frozen
        client.force_login(org)
        page = client.post(f"/games/{g.pk}/hands/2/confirm/", {}, follow=True).content.decode()
        assert "abandoned" in page
        assert not confirmed(g, 2)
        client.post(f"/games/{g.pk}/reopen/", {"reason": ""})
        assert Game.objects.get(pk=g.pk).status == "abandoned"
        client.post(f"/games/{g.pk}/reopen/", {"reason": "back at the table"})
        assert Game.objects.get(pk=g.pk).status == "in_progress"

    def test_the_admin_cannot_change_a_games_status_or_seats(self, frozen, client):
        g, _, org = frozen
        org.is_superuser = True
        org.save(update_fields=["is_superuser"])
        client.force_login(org)
        page = client.get(f"/admin/scoring/game/{g.pk}/change/")
        assert page.status_code == 200
        client.post(f"/admin/scoring/game/{g.pk}/change/", {"status": "in_progress", "table_label": "T",
                                                             "is_public": "on", "requires_confirmation": "on"})
        assert Game.objects.get(pk=g.pk).status == "abandoned"
        assert 'name="status"' not in page.content.decode()
        assert 'name="seats-0-player"' not in page.content.decode()
        assert get_user_model().objects.filter(pk=org.pk).exists()


def test_the_admin_cannot_confirm_or_change_a_hand(table, client):
    g, ref = table
    services.record_hand(actor=ref, game=g, data=knock("Ann", 6, 19))
    boss = organiser("superboss")
    boss.is_superuser = True
    boss.save(update_fields=["is_superuser"])
    client.force_login(boss)
    hand = Hand.objects.get(game=g)
    client.post(f"/admin/scoring/hand/{hand.pk}/change/", {"confirmed_at_0": "2026-01-01", "confirmed_at_1": "10:00",
                                                         "is_current": "on", "data": "{}"})
    assert not confirmed(g)
    assert Hand.objects.get(pk=hand.pk).data == knock("Ann", 6, 19)
