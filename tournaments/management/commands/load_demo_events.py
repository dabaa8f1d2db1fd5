"""``manage.py load_demo_events``: the demo tournaments (after ``load_demo``, the demo club night).

A 12-player Swiss in its third round (rounds 1 and 2 played, round 3 half played: tables complete,
in progress with a hand awaiting acceptance, not started) and a finished 8-player double
elimination. Every game is played hand by hand through the services, as referees would record them
(a referee enters, the director confirms as second official), with a fixed random seed so the demo
is the same on every machine. Safe to run again: it does nothing when the demo events exist.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from core import jobs
from scoring import services as scoring
from scoring.management.commands.load_demo import PASSWORD
from scoring.models import Game, Player
from scoring.policy import Actor
from tournaments import selectors, services
from tournaments.models import Event, Match

CLUB = "Riverside Gin Club"
SWISS = "Riverside Thursday Swiss"
KNOCKOUT = "Riverside Knockout Cup"
# The demo club night's six players (PINs 1111-6666) and six more for the events.
MORE_PLAYERS = {"Gus": "7777", "Hana": "8888", "Ivo": "9999", "Jo": "1212", "Kit": "1313", "Lee": "1414"}
SWISS_FIELD = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kit", "Lee"]
KNOCKOUT_FIELD = ["Cleo", "Ann", "Eve", "Gus", "Bob", "Hana", "Dev", "Fay"]
STRENGTH = {name: 100 - 6 * i for i, name in enumerate(
    ["Cleo", "Ann", "Eve", "Gus", "Bob", "Hana", "Dev", "Fay", "Ivo", "Jo", "Kit", "Lee"])}


class Table:
    """Plays a game hand by hand: the referee enters each hand, the director accepts it as second official."""

    def __init__(self, referee: Actor, director: Actor, rng: random.Random):
        self.referee, self.director, self.rng = referee, director, rng

    def hand_for(self, winner: str, loser: str) -> dict:
        roll = self.rng.random()
        if roll < 0.15:
            return {"result": "gin", "knocker": winner, "opponent_deadwood": self.rng.randint(8, 45)}
        if roll < 0.22:
            return {"result": "dead"}
        if roll < 0.30:  # the favourite's knock is undercut
            low = self.rng.randint(2, 9)
            return {"result": "knock", "knocker": winner, "knocker_deadwood": low,
                    "opponent_deadwood": self.rng.randint(0, low)}
        knocker = winner if roll < 0.80 else loser
        deadwood = self.rng.randint(0, 10) if knocker == winner else self.rng.randint(3, 10)
        if deadwood == 0:
            return {"result": "gin", "knocker": knocker, "opponent_deadwood": self.rng.randint(8, 45)}
        return {"result": "knock", "knocker": knocker, "knocker_deadwood": deadwood,
                "opponent_deadwood": deadwood + self.rng.randint(1, 35)}

    def play(self, game: Game, favourite: str, *, hands: int | None = None, leave_pending: bool = False) -> None:
        """Hands until the game is complete (or ``hands`` of them); the last one pending if asked."""
        game = Game.objects.get(pk=game.pk)
        loser = next(n for n in game.player_names if n != favourite)
        played = 0
        while game.status == Game.Status.IN_PROGRESS and (hands is None or played < hands):
            hand, _ = scoring.record_hand(actor=self.referee, game=game, data=self.hand_for(favourite, loser))
            played += 1
            if not (leave_pending and hands is not None and played == hands):
                scoring.confirm_hand(actor=self.director, game=game, number=hand.number)
            game = Game.objects.get(pk=game.pk)


def _favourite(names: list[str], rng: random.Random) -> str:
    """The stronger player, usually; an upset about one time in four."""
    strong, weak = sorted(names, key=lambda n: -STRENGTH[n])
    return weak if rng.random() < 0.25 else strong


def _match_names(match: Match) -> list[str]:
    return [p.entry.player.display_name for p in match.players.select_related("entry__player").order_by("side")]


class Command(BaseCommand):
    help = "Load the demo tournaments: a Swiss in its third round and a finished double elimination (idempotent)."

    # One transaction: the answers the demo reads are worked out here, not by a worker after the commit.
    @jobs.inline()
    @transaction.atomic
    def handle(self, *args, **options):
        users = get_user_model().objects
        organiser, referee = users.filter(username="organiser").first(), users.filter(username="referee").first()
        if organiser is None or referee is None:
            raise CommandError("run `manage.py load_demo` first: the demo events use its organiser and referee")
        if Event.objects.filter(name=SWISS).exists():
            self.stdout.write("Demo events already loaded.")
            self._print()
            return
        director = users.filter(username="director").first() or users.create_user("director", password=PASSWORD)
        # The club's director runs their own nights: an organiser has allowed them to create events.
        director.user_permissions.add(Permission.objects.get(codename="add_event",
                                                             content_type__app_label="tournaments"))
        org = Actor(user=organiser, address="demo")
        td = Actor(user=director, address="demo")
        table = Table(Actor(user=referee, address="demo"), td, random.Random(2026))
        for name, pin in MORE_PLAYERS.items():
            if not Player.objects.filter(display_name=name, club=CLUB).exists():
                scoring.create_player(actor=org, display_name=name, club=CLUB, pin=pin)

        swiss = services.create_event(actor=org, name=SWISS, format=Event.Format.SWISS, conventions="classic",
                                      rounds=4, round_minutes=45, directors=[director], referees=[referee])
        services.add_entries_from_text(actor=td, event=swiss, club=CLUB, text="\n".join(
            f"{n},{1500 + 10 * STRENGTH[n]}" for n in SWISS_FIELD))
        services.seed_entries(actor=td, event=swiss, method="rating")
        for number in (1, 2, 3):
            opened = services.pair_next_round(actor=td, event=swiss)
            games = [(m, m.match_games.get().game) for m in opened.matches if not m.is_bye]
            for i, (match, game) in enumerate(sorted(games, key=lambda mg: mg[0].table)):
                favourite = _favourite(_match_names(match), table.rng)
                if number < 3 or i < 2:
                    table.play(game, favourite)  # rounds 1 and 2, and round 3's first two tables: complete
                elif i < 4:
                    table.play(game, favourite, hands=2, leave_pending=i == 3)  # under way
                # the last two tables of round 3 have not started
            selectors.event_answer(swiss)  # what the on-commit refresh does after a web request
        # Round 3's clock runs (45 minutes from loading the demo): the pairings and the tables count it down.
        services.run_round_clock(actor=td, round=swiss.event_rounds.get(number=3), action="start")

        knockout = services.create_event(actor=org, name=KNOCKOUT, format=Event.Format.DOUBLE_ELIMINATION,
                                         conventions={"preset": "classic", "target": 50}, forfeit_margin=50,
                                         directors=[director], referees=[referee])
        services.add_entries_from_text(actor=td, event=knockout, club=CLUB, text="\n".join(KNOCKOUT_FIELD))
        services.seed_entries(actor=td, event=knockout, method="manual",
                              order=[e["id"] for e in sorted(selectors.entries(knockout),
                                                            key=lambda e: KNOCKOUT_FIELD.index(e["name"]))])
        services.pair_next_round(actor=td, event=knockout)
        for _ in range(20):
            for row in selectors.open_bracket_matches(knockout):
                match = Match.objects.get(pk=row["id"])
                if row["match"] == "L1-2":
                    services.record_forfeit(actor=td, match=match, winner=match.players.get(side=0).entry,
                                            reason="opponent's train was cancelled")
                    continue
                table.play(match.match_games.get().game, _favourite(row["players"], table.rng))
            if selectors.event_answer(knockout)["complete"]:
                break
            services.pair_next_round(actor=td, event=knockout)
        self.stdout.write(self.style.SUCCESS(
            f"Demo events loaded: {SWISS} (round 3 of 4 being played) and {KNOCKOUT} (champion: "
            f"{selectors.event_answer(knockout)['champion']})."))
        self._print()

    def _print(self):
        swiss = Event.objects.filter(name=SWISS).first()
        knockout = Event.objects.filter(name=KNOCKOUT).first()
        if swiss is None or knockout is None:
            return
        self.stdout.write(
            f"Events: http://127.0.0.1:8000/events/ (the Swiss: /events/{swiss.pk}/, the cup's bracket: "
            f"/events/{knockout.pk}/bracket/)\n"
            f"  director  / {PASSWORD}   (runs both events: pairs rounds, records forfeits; may create events)\n"
            f"  referee   / {PASSWORD}   (referees every table: /events/my-tables/)")
