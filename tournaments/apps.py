from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from scoring.game_clocks import register_game_clock
        from scoring.player_records import register_player_records
        from scoring.policy import register_game_authority, register_pin_authority

        from . import receivers  # noqa: F401  (keeps events' answers in step with their games)
        from .policy import ENTRANT_PINS, EVENT_GAMES
        from .services.players import EVENT_ENTRIES

        # An event's games are officiated and read as the event says (scoring asks; it never imports us).
        register_game_authority(EVENT_GAMES)
        register_pin_authority(ENTRANT_PINS)
        # A duplicate player merged into another takes its entries along (scoring asks; same transaction).
        register_player_records(EVENT_ENTRIES)
        # A round's clock shows on its tables' entry pages (scoring asks; it never imports us).
        from .selectors import game_clock

        register_game_clock(game_clock)
