"""Every write of the seasons app, one module per concern, re-exported here."""

from .seasons import MAX_PLACES, MAX_POINTS, create_season, season_problems, update_season

__all__ = ["MAX_PLACES", "MAX_POINTS", "create_season", "season_problems", "update_season"]
