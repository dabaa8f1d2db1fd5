"""``manage.py load_demo``: a demo club night (players, games in progress and complete, a referee).

Safe to run again: it does nothing when the demo organiser already exists. Every hand goes through
the services, exactly as a referee would record it.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from scoring import services
from scoring.models import Player
from scoring.policy import Actor

PASSWORD = "ginscore-demo"


def knock(knocker, kd, od):
    return {"result": "knock", "knocker": knocker, "knocker_deadwood": kd, "opponent_deadwood": od}


def gin(knocker, od):
    return {"result": "gin", "knocker": knocker, "opponent_deadwood": od}


class Command(BaseCommand):
    help = "Load a demo club night (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options):
        users = get_user_model().objects
        if users.filter(username="organiser").exists():
            self.stdout.write("Demo data already loaded.")
            self._print_logins()
            return
        organiser = users.create_user("organiser", password=PASSWORD, is_staff=True, is_superuser=True)
        referee = users.create_user("referee", password=PASSWORD)
        org = Actor(user=organiser, address="demo")
        ref = Actor(user=referee, address="demo")
        pins = {"Ann": "1111", "Bob": "2222", "Cleo": "3333", "Dev": "4444", "Eve": "5555", "Fay": "6666"}
        players = {name: services.create_player(actor=org, display_name=name, club="Riverside Gin Club", pin=pin)
                   for name, pin in pins.items()}

        # Table 1: a classic game in progress, one hand awaiting the opponent's PIN.
        t1 = services.create_game(actor=org, format="standard", players=[players["Ann"], players["Bob"]],
                                  conventions="classic", table_label="Table 1", referees=[referee])
        for data, opponent in [(knock("Ann", 6, 19), "Bob"), (gin("Bob", 31), "Ann"), (knock("Ann", 3, 24), "Bob")]:
            hand, _ = services.record_hand(actor=ref, game=t1, data=data)
            services.confirm_hand(actor=ref, game=t1, number=hand.number, player_name=opponent, pin=pins[opponent])
        services.record_hand(actor=ref, game=t1, data=knock("Bob", 8, 8))

        # Table 2: Parlett's worked game, complete (214 to "Cleo").
        t2 = services.create_game(actor=org, format="standard", players=[players["Cleo"], players["Dev"]],
                                  conventions="parlett", table_label="Table 2", requires_confirmation=False,
                                  referees=[referee])
        for data in [knock("Cleo", 2, 36), knock("Dev", 3, 15), knock("Dev", 1, 20), gin("Cleo", 5),
                     knock("Cleo", 4, 30), knock("Cleo", 2, 22)]:
            services.record_hand(actor=ref, game=t2, data=data)

        # Table 3: Oklahoma Hollywood in progress, with cards entered for one hand.
        t3 = services.create_game(actor=org, format="hollywood", players=[players["Eve"], players["Fay"]],
                                  conventions="oklahoma", table_label="Table 3", requires_confirmation=False,
                                  referees=[referee])
        services.record_hand(actor=ref, game=t3, data={**knock("Eve", 3, 20), "upcard": "5S"})
        services.record_hand(actor=ref, game=t3, data={
            "result": "knock", "knocker": "Fay", "upcard": "9H",
            "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD 9C".split(),
            "opponent_cards": "4S 5S 8C 8H 8D 2C 3C TH 9H 6D".split()})
        link = services.create_referee_link(actor=org, game=t1, label="Table 1 phone")
        self.stdout.write(self.style.SUCCESS(f"Demo club night loaded: {Player.objects.count()} players, 3 games."))
        self._print_logins()
        # Only the link's digest is stored: this is the one time its token can be shown.
        self.stdout.write(f"Table 1's referee link (shown once; the organiser makes more on the game's page):\n"
                          f"  http://127.0.0.1:8000/r/#{link.token}")

    def _print_logins(self):
        self.stdout.write(
            "Sign in at http://127.0.0.1:8000/accounts/login/ as\n"
            f"  organiser / {PASSWORD}   (staff: creates games, corrects anything, admin)\n"
            f"  referee   / {PASSWORD}   (records hands at Tables 1-3)\n"
            "Player PINs for accepting hands: Ann 1111, Bob 2222, Cleo 3333, Dev 4444, Eve 5555, Fay 6666"
        )
