"""Helpers for the stored-event tests: events, entries and games played through the services only."""

from scoring import services as scoring
from scoring.models import Game
from tournaments import selectors, services
from tournaments.models import Entry, Event, Match

from ..factories import as_actor, gin, organiser, user

# A game is won in one hand: a gin with 30 or more of the opponent's deadwood reaches the target.
QUICK = {"preset": "classic", "target": 50}


class Officials:
    """An organiser who creates the event, its director, and two referees (one records, one confirms)."""

    def __init__(self):
        self.organiser = organiser()
        self.director = user()
        self.recorder = user()
        self.confirmer = user()

    @property
    def boss(self):
        return as_actor(self.organiser)

    @property
    def dir(self):
        return as_actor(self.director)


def new_event(people, *, names, fmt="swiss", **options):
    options.setdefault("conventions", QUICK)
    event = services.create_event(actor=people.boss, name=f"Test {fmt}", format=fmt, directors=[people.director],
                                  referees=[people.recorder, people.confirmer], **options)
    services.add_entries_from_text(actor=people.dir, event=event, text="\n".join(names))
    return event


def entry(event, name):
    return Entry.objects.get(event=event, player__display_name=name)


def play_game(people, game, winner, opponent_deadwood):
    """One gin hand that ends the game, recorded by one referee and confirmed by the other."""
    game = Game.objects.get(pk=game if isinstance(game, int) else game.pk)
    scoring.record_hand(actor=as_actor(people.recorder), game=game, data=gin(winner, opponent_deadwood))
    number = game.hands.count()
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=game, number=number)


def play_match(people, match, winner, opponent_deadwood=30):
    """Play every game a match needs for ``winner`` (a name) to win it."""
    row = next(r for r in selectors.matches(match.event) if r["id"] == match.pk)
    for game_id in row["games"][: 2 if match.event.match_format == Event.MatchFormat.BEST_OF_3 else 1]:
        play_game(people, game_id, winner, opponent_deadwood)


def open_matches(event, round_number=None):
    qs = Match.objects.filter(event=event, reset_at__isnull=True, is_bye=False)
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    return list(qs.order_by("id"))


def replace_officials(people, event):
    """Officials changed after the round was paired: a director and a referee added, then replaced by
    new ones (the event's own director and referees stay). Returns the four of them by role."""
    gone_director, gone_referee, new_director, new_referee = user(), user(), user(), user()
    services.set_officials(actor=people.boss, event=event, directors=[people.director, gone_director],
                           referees=[people.recorder, people.confirmer, gone_referee])
    services.set_officials(actor=people.boss, event=event, directors=[people.director, new_director],
                           referees=[people.recorder, people.confirmer, new_referee])
    return {"removed_director": gone_director, "removed_referee": gone_referee, "added_director": new_director,
            "added_referee": new_referee}
