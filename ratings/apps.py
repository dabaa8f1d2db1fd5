from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        from scoring.player_records import register_player_records
        from tournaments.ratings_source import register_rating_source

        from . import receivers  # noqa: F401  (a settled result moving recomputes the ratings)
        from .selectors import conservative_ratings
        from .services import MERGED_RATINGS

        # An event seeded "by rating (OpenSkill)" asks us (tournaments never imports this app).
        register_rating_source(conservative_ratings)
        # A duplicate player merged into another: its games are the kept player's, so rate again.
        register_player_records(MERGED_RATINGS)
