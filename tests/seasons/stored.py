"""Helpers for the stored-season tests: club nights and events played through the services only."""

from datetime import timedelta

from django.utils import timezone

from scoring import services as scoring
from scoring.models import Game, Player
from tournaments import selectors, services
from tournaments.models import Event

from ..factories import as_actor, gin, organiser
from ..tournaments.stored import Officials, new_event, open_matches, play_match

TODAY = timezone.localdate()


def day(offset: int):
    return TODAY + timedelta(days=offset)


def club_player(name: str) -> Player:
    found = Player.objects.filter(display_name=name, club="").first()
    return found or scoring.create_player(actor=as_actor(organiser()), display_name=name)


def club_game(winner: str, loser: str, *, days_ago: int, finished: bool = True, is_public: bool = True) -> Game:
    """A two-player club game ``days_ago`` days back, won by ``winner`` in one gin hand (or left in progress)."""
    boss = as_actor(organiser())
    g = scoring.create_game(actor=boss, format="standard", players=[club_player(winner), club_player(loser)],
                            conventions={"preset": "classic", "target": 50}, requires_confirmation=False,
                            is_public=is_public)
    if finished:
        scoring.record_hand(actor=boss, game=g, data=gin(winner, 30))
    at = timezone.now() - timedelta(days=days_ago)
    Game.objects.filter(pk=g.pk).update(created_at=at)
    return Game.objects.get(pk=g.pk)


def round_robin(order, *, people=None, is_public=True) -> tuple[Event, Officials]:
    """A complete round robin in which a player always beats everyone after them in ``order``."""
    people = people or Officials()
    event = new_event(people, names=order, fmt="round_robin", is_public=is_public)
    for number in range(1, len(order)):
        services.pair_next_round(actor=people.dir, event=event)
        for m in open_matches(event, number):
            names = [p.entry.player.display_name for p in m.players.all()]
            play_match(people, m, min(names, key=order.index))
    selectors.event_answer(event)  # the answer worked out, the event's status brought up to date
    event.refresh_from_db()
    assert event.status == Event.Status.COMPLETE
    return event, people
