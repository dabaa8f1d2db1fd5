"""Who may act on an event's games: the event's officials as they are now, whatever the game's status
(being played, finished, frozen by a director's result, reopened when that result was cleared), on
every path (the API, the web forms, the services). An official removed from the event is a stranger
to its games from that moment; one added is a referee of all of them. A private event's games do not
exist for whoever may not read the event: every route answers exactly as for a game that does not
exist (404; never 403, never a 400 that tells how many hands it has)."""

import pytest
from django.apps import apps
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.test import Client

from scoring import services as scoring
from scoring.models import Game, Hand, PinFailure
from tournaments import selectors, services
from tournaments.models import Match

from ..factories import api_client, as_actor, gin, user
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db

GAMES = ["playing", "finished", "frozen", "cleared"]
STAY = ["recorder", "added_referee", "added_director", "organiser"]  # officials now
GONE = ["removed_referee", "removed_director", "stranger"]  # not officials now (the stranger never was)
ACTIONS = ["record", "confirm", "void", "correct"]


class Scene:
    """A Swiss round of three tables, then the officials changed by an organiser: the director and one
    referee (``confirmer``) removed, a new director and a new referee added, ``recorder`` kept.

    - playing: a hand recorded by ``recorder``, awaiting confirmation;
    - finished: the match decided by its game (one confirmed gin);
    - frozen: a hand recorded, then a forfeit froze the game; it is still frozen;
    - cleared: frozen the same way when the officials changed, then the forfeit was cleared: in play again.
    """

    def __init__(self, *, public: bool):
        self.people = people = Officials()
        self.event = event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"], rounds=2,
                                       is_public=public)
        services.pair_next_round(actor=people.dir, event=event)
        matches = open_matches(event, 1)
        self.games = {name: m.match_games.get().game for name, m in zip(("finished", "frozen", "playing"), matches,
                                                                         strict=True)}
        cleared_match = matches[1]
        play_match(people, matches[0], self.player(matches[0], 0))
        for name in ("frozen", "playing"):
            g = self.games[name]
            scoring.record_hand(actor=as_actor(people.recorder), game=g, data=gin(g.player_names[0], 10))
        services.record_forfeit(actor=people.dir, match=cleared_match, winner=cleared_match.players.first().entry,
                                reason="no show")
        self.added_director, self.added_referee = user("added-director"), user("added-referee")
        services.set_officials(actor=people.boss, event=event, directors=[self.added_director],
                               referees=[people.recorder, self.added_referee])
        self.roles = {"recorder": people.recorder, "added_referee": self.added_referee,
                      "added_director": self.added_director, "organiser": people.organiser,
                      "removed_referee": people.confirmer, "removed_director": people.director,
                      "stranger": user("stranger")}

    @staticmethod
    def player(match, side):
        return match.players.order_by("side")[side].entry.player.display_name

    def game(self, name):
        """``cleared``: the frozen table after its forfeit was cleared (by the new director)."""
        if name == "cleared":
            match = Match.objects.get(match_games__game=self.games["frozen"])
            services.clear_director_result(actor=as_actor(self.added_director), match=match, reason="play on")
            name = "frozen"
        return Game.objects.get(pk=self.games[name].pk)


# What counts or caches requests rather than records results: replay records, throttle counters and the
# events' stored answers.
BOOKKEEPING = {"OnceKey", "EventAnswer", "RateCounter"}


def stored():
    """Every row of both apps: what a refusal must leave as it was."""
    found = {}
    for app in ("scoring", "tournaments"):
        for model in apps.get_app_config(app).get_models():
            if model.__name__ not in BOOKKEEPING:
                found[model.__name__] = sorted(map(repr, model.objects.values_list()))
    return found


def attempt(client, game, action):
    """The action through the API, on the game's last hand (the next one for a record)."""
    base = f"/api/v1/games/{game.pk}/hands/"
    last = game.hand_count
    body = {"record": gin(game.player_names[1], 10), "confirm": {}, "void": {"reason": "wrong table"},
            "correct": {"hand": gin(game.player_names[1], 12), "reason": "wrong knocker"}}[action]
    url = base if action == "record" else f"{base}{last}/{action}/"
    return client.post(url, body, format="json")


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
@pytest.mark.parametrize("state", GAMES)
def test_the_permission_matrix_of_an_events_games_after_its_officials_changed(state, public):
    """Every role now and gone, every action, on one game state; each attempt rolled back after."""
    scene = Scene(public=public)
    game = scene.game(state)
    clients = {who: api_client(u) for who, u in scene.roles.items()}
    before = stored()
    for who in STAY + GONE:
        for action in ACTIONS:
            with transaction.atomic():  # each attempt is undone after it, so the next one meets the same game
                answer = attempt(clients[who], game, action)
                unchanged = stored() == before if who in GONE else True
                transaction.set_rollback(True)
            message = answer.json()["errors"][0]["message"] if answer.status_code >= 400 else ""
            case = (who, action, answer.status_code, message)
            if who in GONE:
                assert answer.status_code == (403 if public else 404), case
                assert message.startswith("only ") if public else message == "not found", case
            else:
                assert answer.status_code not in (401, 404), case
                assert not message.startswith("only an organiser or this game's referee"), case
                assert not message.startswith("only a player of this game or an official"), case
                if state == "frozen":
                    assert (answer.status_code, "was abandoned" in message) == (403, True), case
                if (state, action) in (("playing", "record"), ("cleared", "record"), ("playing", "void"),
                                       ("finished", "void"), ("cleared", "correct")):
                    assert answer.status_code == 201, case
                if (state, action) == ("playing", "confirm") and who != "recorder":  # the recorder entered it
                    assert answer.status_code == 200, case
            assert unchanged, case


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_a_removed_referee_cannot_undo_a_finished_match_and_the_added_one_can(public):
    scene = Scene(public=public)
    finished = scene.game("finished")
    match = Match.objects.get(match_games__game=finished)
    decided = selectors.match(scene.event, match.pk)
    assert decided["status"] == "decided"
    removed = api_client(scene.people.confirmer)
    refused = removed.post(f"/api/v1/games/{finished.pk}/hands/1/void/", {"reason": "mine"}, format="json")
    assert refused.status_code == (403 if public else 404)
    assert selectors.match(scene.event, match.pk)["status"] == "decided"
    voided = api_client(scene.added_referee).post(f"/api/v1/games/{finished.pk}/hands/1/void/",
                                                  {"reason": "the knocker was wrong"}, format="json")
    assert voided.status_code == 201
    assert selectors.match(scene.event, match.pk)["status"] != "decided"


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_a_game_frozen_when_the_officials_changed_follows_the_new_ones_once_cleared(public):
    scene = Scene(public=public)
    game = scene.game("cleared")
    assert game.status == Game.Status.IN_PROGRESS
    removed = api_client(scene.people.confirmer).post(f"/api/v1/games/{game.pk}/hands/",
                                                      gin(game.player_names[0], 10), format="json")
    assert removed.status_code == (403 if public else 404)
    added = api_client(scene.added_referee).post(f"/api/v1/games/{game.pk}/hands/", gin(game.player_names[0], 10),
                                                 format="json")
    assert added.status_code == 201
    confirmed = api_client(scene.people.recorder).post(f"/api/v1/games/{game.pk}/hands/2/confirm/", {},
                                                       format="json")
    assert confirmed.status_code == 200


def web(u):
    client = Client()
    if u is not None:
        client.force_login(u)
    return client


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
@pytest.mark.parametrize("who", ["removed_referee", "removed_director", "added_referee", "added_director"])
def test_the_web_forms_of_an_events_games_follow_the_officials_now(who, public):
    scene = Scene(public=public)
    game = scene.game("playing")
    client = web(scene.roles[who])
    stays = who.startswith("added")
    entry = client.get(f"/games/{game.pk}/enter/")
    assert entry.status_code == (200 if stays else 403 if public else 404)
    before = stored()
    voided = client.post(f"/games/{game.pk}/hands/1/void/", {"reason": "wrong"}, follow=True)
    corrected = client.post(f"/games/{game.pk}/hands/1/correct/", {"result": "gin", "knocker": game.player_names[1],
                                                                   "opponent_deadwood": "12", "reason": "wrong"})
    if stays:
        assert "Hand 1 voided; later hands rescored." in voided.content.decode()
        assert corrected.status_code == 302
    else:
        assert (voided.status_code, corrected.status_code) == ((200, 403) if public else (404, 404))
        if public:
            assert "only an organiser or this game&#x27;s referee may void a hand" in voided.content.decode()
        assert stored() == before


# --- a private event's games: every route, exactly as for a game that does not exist ----------------------

API_ROUTES = [
    ("get", "/api/v1/games/{game}/", None),
    ("get", "/api/v1/games/{game}/hands/", None),
    ("get", "/api/v1/games/{game}/history/", None),
    ("get", "/api/v1/games/{game}/hands/{hand}/history/", None),
    ("post", "/api/v1/games/{game}/hands/", {"result": "gin", "knocker": "Ann", "opponent_deadwood": 10}),
    ("post", "/api/v1/games/{game}/hands/{hand}/confirm/", {}),
    ("post", "/api/v1/games/{game}/hands/{hand}/confirm/", {"player": "Bob", "pin": "2222"}),
    ("post", "/api/v1/games/{game}/hands/{hand}/confirm/", {"player": "Bob", "pin": "12"}),
    ("post", "/api/v1/games/{game}/hands/{hand}/correct/", {"hand": {"result": "dead"}, "reason": "r"}),
    ("post", "/api/v1/games/{game}/hands/{hand}/void/", {"reason": "r"}),
    ("post", "/api/v1/games/{game}/abandon/", {"reason": "r"}),
    ("post", "/api/v1/games/{game}/reopen/", {"reason": "r"}),
]
WEB_ROUTES = [
    ("get", "/games/{game}/", {}),
    ("get", "/games/{game}/sheet/", {}),
    ("get", "/games/{game}/history/", {}),
    ("get", "/games/{game}/enter/", {}),
    ("post", "/games/{game}/enter/", {"result": "dead", "number": "1", "once": "k1"}),
    ("post", "/games/{game}/preview/", {"result": "dead"}),
    ("post", "/games/{game}/hands/{hand}/confirm/", {}),
    ("post", "/games/{game}/hands/{hand}/confirm/", {"player": "Bob", "pin": "2222"}),
    ("get", "/games/{game}/hands/{hand}/correct/", {}),
    ("post", "/games/{game}/hands/{hand}/correct/", {"result": "dead", "reason": "r"}),
    ("post", "/games/{game}/hands/{hand}/void/", {"reason": "r"}),
    ("post", "/games/{game}/abandon/", {"reason": "r"}),
    ("post", "/games/{game}/reopen/", {"reason": "r"}),
    ("get", "/games/{game}/links/", {}),
    ("post", "/games/{game}/links/", {"label": "mine"}),
]
NOT_READERS = ["anonymous", "stranger", "player_of_another_table", "other_events_director", "removed_referee",
               "removed_director", "link_of_another_game"]


def private_scene():
    scene = Scene(public=False)
    other = new_event(Officials(), names=["Gus", "Hana"])
    another = open_matches(scene.event, 1)[0].match_games.get().game  # the finished table
    link = scoring.create_referee_link_unchecked(actor=as_actor(scene.people.organiser), game=another)
    player_elsewhere = user("gus")
    another.seats.first().player.__class__.objects.filter(pk=another.seats.first().player_id).update(
        user=player_elsewhere)
    clients = {
        "anonymous": (api_client(), web(None)),
        "stranger": (api_client(user()), web(user())),
        "player_of_another_table": (api_client(player_elsewhere), web(player_elsewhere)),
        "other_events_director": (api_client(other.directors.get()), web(other.directors.get())),
        "removed_referee": (api_client(scene.people.confirmer), web(scene.people.confirmer)),
        "removed_director": (api_client(scene.people.director), web(scene.people.director)),
        "link_of_another_game": (api_client(referee_token=link.token), None),
    }
    return scene, clients


@pytest.mark.parametrize("who", NOT_READERS)
def test_every_route_of_a_private_events_games_answers_as_for_a_game_that_does_not_exist(who):
    scene, clients = private_scene()
    game = scene.game("playing")  # hand 1 pending (the routes' bodies need not fit it)
    api, page = clients[who]
    before = stored()
    for method, path, body in API_ROUTES:
        for hand in (1, 7):
            there = getattr(api, method)(path.format(game=game.pk, hand=hand), body, format="json")
            nowhere = getattr(api, method)(path.format(game=999999, hand=hand), body, format="json")
            assert (there.status_code, there.content) == (nowhere.status_code, nowhere.content), (path, hand)
            assert there.status_code in ((401, 404) if who == "anonymous" else (404,)), (path, there.status_code)
    if page is not None:
        for method, path, data in WEB_ROUTES:
            there = getattr(page, method)(path.format(game=game.pk, hand=1), data)
            nowhere = getattr(page, method)(path.format(game=999999, hand=1), data)
            where = there.get("Location", "").replace(f"/games/{game.pk}/", "/games/999999/")
            assert (there.status_code, where) == (nowhere.status_code, nowhere.get("Location", "")), path
            assert there.status_code in (302, 404), (path, there.status_code)
    assert stored() == before
    assert not PinFailure.objects.exists()
    assert Hand.objects.filter(game=game).count() == 1


def test_a_private_events_game_is_listed_for_its_readers_only():
    scene, clients = private_scene()
    game = scene.game("playing")
    for who, (api, _) in clients.items():
        listed = {g["id"] for g in api.get("/api/v1/games/?limit=200").json()["results"]}
        assert game.pk not in listed, who
    for u in (scene.people.recorder, scene.added_referee, scene.added_director, scene.people.organiser):
        listed = {g["id"] for g in api_client(u).get("/api/v1/games/?limit=200").json()["results"]}
        assert game.pk in listed
        assert api_client(u).get(f"/api/v1/games/{game.pk}/").status_code == 200


def test_a_player_of_a_private_events_table_sees_and_accepts_their_own_game_never_the_event():
    scene = Scene(public=False)
    game = scene.game("playing")  # the first player's gin, pending: the second player accepts it
    bob = user("bob-login")
    game.seats.get(position=1).player.__class__.objects.filter(pk=game.seats.get(position=1).player_id).update(
        user=bob)
    api = api_client(bob)
    assert api.get(f"/api/v1/games/{game.pk}/").status_code == 200
    assert api.get(f"/api/v1/events/{scene.event.pk}/").status_code == 404
    assert web(bob).get(f"/events/{scene.event.pk}/").status_code == 404
    assert api.post(f"/api/v1/games/{game.pk}/hands/", gin("Bob", 10), format="json").status_code == 403
    assert api.post(f"/api/v1/games/{game.pk}/hands/1/confirm/", {}, format="json").status_code == 200


def test_a_table_link_records_at_its_own_table_whoever_the_officials_are():
    scene = Scene(public=False)
    game = scene.game("playing")
    link = scoring.create_referee_link_unchecked(actor=as_actor(scene.people.organiser), game=game)
    answer = api_client(referee_token=link.token).post(f"/api/v1/games/{game.pk}/hands/1/confirm/", {},
                                                       format="json")
    assert answer.status_code == 200  # a second official: the link did not enter hand 1


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_a_removed_referee_cannot_have_a_player_accept_on_his_phone(public):
    scene = Scene(public=public)
    game = scene.game("playing")  # the first player's gin, pending: the second accepts it with a PIN
    loser = game.seats.get(position=1).player
    loser.confirm_pin = make_password("2222")
    loser.save(update_fields=["confirm_pin"])
    accepting = {"player": game.player_names[1], "pin": "2222"}
    removed = api_client(scene.people.confirmer).post(f"/api/v1/games/{game.pk}/hands/1/confirm/", accepting,
                                                      format="json")
    assert removed.status_code == (403 if public else 404)
    assert not PinFailure.objects.exists()
    assert not Hand.objects.get(game=game, number=1).is_confirmed
    added = api_client(scene.added_referee).post(f"/api/v1/games/{game.pk}/hands/1/confirm/", accepting,
                                                 format="json")
    assert added.status_code == 200
    assert Hand.objects.get(game=game, number=1, is_current=True).confirmed_by_player == loser
