"""Test factories: small functions that build users, players and games through the services."""

import itertools

from django.contrib.auth import get_user_model

from scoring import services
from scoring.policy import Actor

_seq = itertools.count(1)


def api_client(u=None, *, referee_token=None):
    """A REST client as a program holds one: with a user's API token, a referee link's token, or none."""
    from rest_framework.test import APIClient

    client = APIClient()
    if u is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {services.issue_api_token(user=u)}")
    elif referee_token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Referee {referee_token}")
    return client


def user(name=None, *, staff=False):
    name = name or f"user{next(_seq)}"
    return get_user_model().objects.create_user(name, password="pw-" + name, is_staff=staff)


def organiser(name=None):
    return user(name or f"organiser{next(_seq)}", staff=True)


def as_actor(u=None, link=None):
    return Actor(user=u, link=link, address="127.0.0.1 pytest")


def player(name=None, *, pin="", club="", linked_user=None):
    return services.create_player(actor=as_actor(organiser()), display_name=name or f"Player {next(_seq)}",
                                  pin=pin, club=club, user=linked_user)


def game(*, names=("Ann", "Bob"), pins=("1111", "2222", "3333", "4444"), referees=(), fmt="standard",
         conventions="classic", requires_confirmation=True, is_public=True, by=None):
    club = f"club{next(_seq)}"
    seated = [player(n, pin=p, club=club) for n, p in zip(names, pins, strict=False)]
    return services.create_game(actor=as_actor(by or organiser()), format=fmt, players=seated,
                                conventions=conventions, referees=list(referees),
                                requires_confirmation=requires_confirmation, is_public=is_public)


def knock(knocker, kd, od):
    return {"result": "knock", "knocker": knocker, "knocker_deadwood": kd, "opponent_deadwood": od}


def gin(knocker, od):
    return {"result": "gin", "knocker": knocker, "opponent_deadwood": od}


ROLES = ["anonymous", "other_referee", "referee", "enterer", "organiser", "winner", "loser"]


def seat_user(g, position, name):
    """Give the player in ``position`` their own login (``name``)."""
    u = user(name)
    seated = g.seats.get(position=position).player
    seated.user = u
    seated.save(update_fields=["user"])
    return u


def permission_scene(who):
    """A game with one hand (Ann's knock, so Ann wins and Bob loses) entered by a referee ("enterer"),
    and the user playing ``who`` (None for anonymous): another referee of the game, a referee of
    another game, an organiser, or Ann or Bob signed in with their own login."""
    enterer, referee, other = user("enterer"), user("referee"), user("other")
    g = game(referees=[enterer, referee])
    game(names=("Cat", "Dan"), referees=[other])
    ann, bob = seat_user(g, 0, "ann"), seat_user(g, 1, "bob")
    services.record_hand(actor=as_actor(enterer), game=g, data=knock("Ann", 6, 19))
    actor = {"anonymous": None, "other_referee": other, "referee": referee, "enterer": enterer,
             "organiser": organiser(), "winner": ann, "loser": bob}[who]
    return g, actor
