"""Merging a duplicate player into the player to keep (organisers only): every game, hand and event entry
is kept under the kept player, score sheets, hand rows and standings unchanged but for the name shown;
refusals (itself, unknown, already merged, the two meet in a game or an event, two logins) name ``into``
and change nothing; PIN, club and email; the player page's form and the API, role by role."""

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.refusals import Refusal
from scoring import pins, selectors, services
from scoring.models import Game, Hand, PinFailure, Player, Seat
from scoring.policy import NotAllowed
from tournaments import services as events
from tournaments.models import Entry, Event

from ..factories import api_client, as_actor, game, knock, organiser, player, user
from ..tournaments.stored import Officials, new_event, open_matches, play_match, replace_officials
from .test_bodies import stored

pytestmark = pytest.mark.django_db


def boss():
    return as_actor(organiser())


def played_game():
    """Ann v Bob: two hands, the first accepted with Bob's PIN (so a hand row names Bob as its confirmer)."""
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    services.confirm_hand(actor=as_actor(ref), game=g, number=1, player_name="Bob", pin="2222")
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Bob", 3, 30))
    return Game.objects.get(pk=g.pk)


def snapshot(g):
    g = selectors.game_for_sheet(as_actor(organiser()), g.pk)
    return {"sheet": selectors.scored_sheet(g), "hands": list(Hand.objects.filter(game=g).order_by("pk").values()),
            "game": Game.objects.filter(pk=g.pk).values().get()}


# ---------------------------------------------------------------------------------------------------
# The service


def test_a_merge_keeps_every_game_and_hand_under_the_kept_player_and_changes_no_sheet_or_hand_row():
    g = played_game()
    bob = g.seats.get(position=1).player
    robert = player("Robert Bob", club="Riverside")
    before = snapshot(g)
    kept = services.merge_player(actor=boss(), player=bob, into=robert.pk)
    assert kept == robert
    assert snapshot(g) == before  # the sheet, every hand row (Bob still its confirmer), the game row
    assert list(g.seats.order_by("position").values_list("player__display_name", flat=True)) == ["Ann", "Robert Bob"]
    assert Game.objects.filter(seats__player=robert).get() == g
    assert Hand.objects.get(game=g, number=1).confirmed_by_player_id == bob.pk
    bob = Player.everyone.get(pk=bob.pk)
    assert (bob.merged_into_id, bob.merged_at is not None) == (robert.pk, True)
    assert not Player.objects.filter(pk=bob.pk).exists()
    assert list(selectors.players("bob")) == [robert]


def test_the_kept_player_keeps_its_pin_and_takes_the_duplicates_when_it_has_none():
    g = played_game()
    bob = g.seats.get(position=1).player
    services.merge_player(actor=boss(), player=bob, into=player("Bobby", pin="9876"))
    assert pins.check_pin("9876", Player.objects.get(display_name="Bobby").confirm_pin).matches

    ann = g.seats.get(position=0).player
    kept = services.merge_player(actor=boss(), player=ann, into=player("Annie"))
    assert pins.check_pin("1111", kept.confirm_pin).matches
    assert Game.objects.filter(pk=g.pk).values_list("first_dealer", "first_dealer_name").get() == (ann.pk, "Ann")
    # Hand 2 (Bob's knock) goes against Ann, as the sheet still names her: the kept player accepts it.
    hand, _ = services.confirm_hand(actor=boss(), game=g, number=2, player_name="Ann", pin="1111")
    assert hand.confirmed_by_player == kept


def test_club_email_and_login_are_the_kept_players_with_blanks_filled_from_the_duplicate():
    login = user("ann-login")
    ann = player("ann lee", club="Riverside", linked_user=login)
    Player.objects.filter(pk=ann.pk).update(email="ann@river.example")
    kept = services.merge_player(actor=boss(), player=ann, into=player("Ann Lee"))
    kept.refresh_from_db()
    assert (kept.club, kept.email, kept.user_id) == ("Riverside", "ann@river.example", login.pk)
    assert Player.everyone.get(pk=ann.pk).user_id is None

    other = player("Ann L", club="Northside")
    Player.objects.filter(pk=other.pk).update(email="other@north.example")
    kept = services.merge_player(actor=boss(), player=other, into=kept.pk)
    kept.refresh_from_db()
    assert (kept.club, kept.email) == ("Riverside", "ann@river.example")
    assert Player.everyone.filter(merged_into=kept).count() == 2


def test_a_merged_duplicates_aliases_follow_it_so_no_alias_points_at_an_alias():
    a, b, c = player("Cat A"), player("Cat B"), player("Cat C")
    services.merge_player(actor=boss(), player=a, into=b)
    services.merge_player(actor=boss(), player=b, into=c)
    assert sorted(Player.everyone.filter(merged_into=c).values_list("display_name", flat=True)) == ["Cat A", "Cat B"]


def test_only_organisers_merge_players():
    a, b = player("Dot"), player("Dottie")
    for actor in (as_actor(user()), as_actor(None)):
        with pytest.raises(NotAllowed, match="only an organiser may merge players"):
            services.merge_player(actor=actor, player=a, into=b)
    assert Player.objects.filter(pk=a.pk).exists()


def everything():
    return {**stored(), "Player": sorted(map(repr, Player.everyone.values_list()))}  # merged ones too


def refusal(dup, into):
    actor = boss()
    before = everything()
    with pytest.raises(Refusal) as caught:
        services.merge_player(actor=actor, player=dup, into=into)
    assert everything() == before
    (problem,) = caught.value.problems
    assert problem.field == "into"
    return problem.message


def test_refusals_name_into_and_change_nothing():
    g = played_game()
    ann, bob = (s.player for s in g.seats.order_by("position"))
    assert refusal(ann, ann) == "Ann cannot be merged into itself: choose the player to keep"
    assert refusal(ann, 99999) == "there is no player #99999"
    assert refusal(ann, None) == "choose the player to keep"
    assert refusal(ann, bob) == f"Ann and Bob cannot be one person: both play in Game {g.pk}"
    gone, kept = player("Eve"), player("Evie")
    services.merge_player(actor=boss(), player=gone, into=kept)
    assert refusal(ann, gone.pk) == "Eve was already merged into Evie: merge into Evie instead"
    with pytest.raises(Player.DoesNotExist):
        services.merge_player(actor=boss(), player=gone, into=ann)
    one, two = player("Fay", linked_user=user()), player("Faye", linked_user=user())
    assert refusal(one, two).startswith("Fay and Faye each sign in with their own login")


def test_two_players_entered_in_one_event_are_not_merged_naming_the_event():
    event = new_event(Officials(), names=["Ann", "Bob"])
    ann, bob = (Entry.objects.get(event=event, player__display_name=n).player for n in ("Ann", "Bob"))
    assert refusal(ann, bob) == "Ann and Bob cannot be one person: both are entered in Test swiss"


def standings(event):
    return [(row["name"], row["rank"], row["match_points"], row["margin"])
            for row in api_client(organiser()).get(f"/api/v1/events/{event.pk}/standings/").json()]


def test_event_entries_move_with_the_duplicate_and_the_standings_are_unchanged_but_for_the_name():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    events.pair_next_round(actor=people.dir, event=event)
    for match in open_matches(event, 1):
        play_match(people, match, match.players.order_by("side").first().entry.player.display_name)
    before = standings(event)
    revision = Event.objects.get(pk=event.pk).revision
    cleo = Entry.objects.get(event=event, player__display_name="Cleo")
    kept = player("Cleopatra", club="Riverside")
    assert selectors.merge_readback(cleo.player) == "1 game, 1 hand, 1 event entry"
    services.merge_player(actor=boss(), player=cleo.player, into=kept)
    assert Entry.objects.get(pk=cleo.pk).player == kept
    assert Event.objects.get(pk=event.pk).revision == revision + 1
    assert standings(event) == [("Cleopatra" if name == "Cleo" else name, *rest) for name, *rest in before]
    assert selectors.merge_readback(kept) == "1 game, 1 hand, 1 event entry"


# ---------------------------------------------------------------------------------------------------
# The player page


def page_client(u):
    client = Client()
    client.force_login(u)
    return client


def test_an_organiser_merges_on_the_player_page_reading_back_what_moves():
    g = played_game()
    bob = g.seats.get(position=1).player
    robert = player("Bob Jones", club="Riverside")
    player("Zed")
    client = page_client(organiser())
    page = client.get(f"/players/{bob.pk}/").content.decode()
    assert "Merge into another player" in page
    assert "<strong>1 game, 2 hands</strong>" in page
    assert f'<option value="{robert.pk}">Bob Jones, Riverside</option>' in page
    assert "Zed" not in page
    found = client.get(f"/players/{bob.pk}/", {"find": "ze"}).content.decode()
    assert ">Zed, no club</option>" in found

    unticked = client.post(f"/players/{bob.pk}/", {"action": "merge", "into": robert.pk})
    assert "Tick the box to say they are the same person" in unticked.content.decode()
    assert Player.objects.filter(pk=bob.pk).exists()
    ann = g.seats.get(position=0).player
    refused = client.post(f"/players/{bob.pk}/", {"action": "merge", "into": ann.pk, "confirm": "on"})
    assert f"Bob and Ann cannot be one person: both play in Game {g.pk}" in refused.content.decode()
    assert Player.objects.filter(pk=bob.pk).exists()

    merged = client.post(f"/players/{bob.pk}/", {"action": "merge", "into": robert.pk, "confirm": "on"})
    assert (merged.status_code, merged["Location"]) == (302, f"/players/{robert.pk}/")
    assert [str(m) for m in get_messages(merged.wsgi_request)] == [
        "Bob is merged into Bob Jones: 1 game, 2 hands are Bob Jones's now."]
    assert Seat.objects.get(game=g, position=1).player == robert
    old = client.get(f"/players/{bob.pk}/")
    assert (old.status_code, old["Location"]) == (302, f"/players/{robert.pk}/")
    assert "Bob<" not in client.get("/players/").content.decode()


def test_who_is_not_an_organiser_neither_sees_the_merge_form_nor_posts_it():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=False)
    replaced = replace_officials(people, event)
    ann = Entry.objects.get(event=event, player__display_name="Ann").player
    other = player("Annabel")
    director = page_client(people.director)
    page = director.get(f"/players/{ann.pk}/")
    assert page.status_code == 200
    assert "Merge into another player" not in page.content.decode()
    for u, status in ((people.director, 403), (replaced["removed_director"], 403), (people.recorder, 403),
                      (user(), 403)):
        answer = page_client(u).post(f"/players/{ann.pk}/", {"action": "merge", "into": other.pk, "confirm": "on"})
        assert answer.status_code == status
    anonymous = Client().post(f"/players/{ann.pk}/", {"action": "merge", "into": other.pk, "confirm": "on"})
    assert anonymous.status_code == 302
    assert "/login" in anonymous["Location"]
    assert Entry.objects.get(event=event, player__display_name="Ann").player_id == ann.pk
    assert not Player.everyone.filter(merged_into__isnull=False).exists()


def test_the_players_list_costs_the_same_queries_with_merged_players():
    for n in range(5):
        player(f"Kept {n}")
    client = page_client(organiser())
    api = api_client(organiser())

    def counted():
        with CaptureQueriesContext(connection) as page:
            assert client.get("/players/").status_code == 200
        with CaptureQueriesContext(connection) as listed:
            assert api.get("/api/v1/players/").status_code == 200
        return len(page), len(listed)

    before = counted()
    for n in range(5):
        kept = Player.objects.get(display_name=f"Kept {n}")
        services.merge_player(actor=boss(), player=player(f"Gone {n}"), into=kept)
    assert counted() == before
    names = [p["display_name"] for p in api.get("/api/v1/players/").json()["results"]]
    assert not [n for n in names if n.startswith("Gone")]
    assert "Gone" not in client.get("/players/").content.decode()


# ---------------------------------------------------------------------------------------------------
# The API


API_ROLES = [("anonymous", 401), ("player", 403), ("referee", 403), ("referee_link", 403), ("director", 403),
             ("removed_director", 403), ("private_director", 403), ("organiser", 200)]


@pytest.mark.parametrize(("who", "expected"), API_ROLES)
def test_only_organisers_merge_through_the_api(who, expected):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    opened = events.pair_next_round(actor=people.dir, event=event)
    replaced = replace_officials(people, event)
    private = Officials()
    new_event(private, names=["Ann P", "Bob P"], is_public=False)
    ann_login = user()
    ann = Entry.objects.get(event=event, player__display_name="Ann").player
    Player.objects.filter(pk=ann.pk).update(user=ann_login)
    dup = Entry.objects.get(event=event, player__display_name="Cleo").player
    kept = player("Cleopatra", club="Riverside")
    client = {
        "anonymous": lambda: api_client(),
        "player": lambda: api_client(ann_login),
        "referee": lambda: api_client(people.recorder),
        "referee_link": lambda: api_client(referee_token=next(iter(opened.tokens.values()))),
        "director": lambda: api_client(people.director),
        "removed_director": lambda: api_client(replaced["removed_director"]),
        "private_director": lambda: api_client(private.director),
        "organiser": lambda: api_client(organiser()),
    }[who]()
    answer = client.post(f"/api/v1/players/{dup.pk}/merge/", {"into": kept.pk}, format="json")
    assert answer.status_code == expected, answer.json()
    if expected == 200:
        assert answer.json() == {"id": kept.pk, "display_name": "Cleopatra", "club": "Riverside", "rating": None,
                                 "email": "", "has_pin": False, "created_at": answer.json()["created_at"]}
        assert Entry.objects.get(event=event, player=kept)
    else:
        (error,) = answer.json()["errors"]
        assert error["message"]
        assert Entry.objects.get(event=event, player__display_name="Cleo").player_id == dup.pk
        assert Player.objects.filter(pk=dup.pk).exists()


def test_api_refusals_name_into_and_unknown_or_merged_ids_are_404():
    g = played_game()
    ann, bob = (s.player for s in g.seats.order_by("position"))
    api = api_client(organiser())

    def merge(pk, body):
        answer = api.post(f"/api/v1/players/{pk}/merge/", body, format="json")
        return answer.status_code, [(e["field"], e["message"]) for e in answer.json()["errors"]]

    assert merge(ann.pk, {}) == (400, [("into", "This field is required.")])
    assert merge(ann.pk, {"into": "7"}) == (400, [("into", "a whole number (a JSON integer, not text); '7' given")])
    assert merge(ann.pk, {"into": ann.pk}) == (400, [("into", "Ann cannot be merged into itself: choose the "
                                                              "player to keep")])
    assert merge(ann.pk, {"into": 99999}) == (400, [("into", "there is no player #99999")])
    assert merge(ann.pk, {"into": bob.pk}) == (400, [("into", f"Ann and Bob cannot be one person: both play "
                                                              f"in Game {g.pk}")])
    assert merge(99999, {"into": bob.pk}) == (404, [(None, "not found")])
    kept = player("Annie")
    assert api.post(f"/api/v1/players/{ann.pk}/merge/", {"into": kept.pk}, format="json").status_code == 200
    assert merge(ann.pk, {"into": bob.pk}) == (404, [(None, "not found")])
    assert api.get(f"/api/v1/players/{ann.pk}/").json()["id"] == kept.pk  # the old id reads as the kept player
    assert api.patch(f"/api/v1/players/{ann.pk}/", {"club": "X"}, format="json").status_code == 404
    assert [x["id"] for x in api.get("/api/v1/games/", {"player": ann.pk}).json()["results"]] == [g.pk]
    assert PinFailure.objects.filter(player_id=ann.pk).count() == 0
