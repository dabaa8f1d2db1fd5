"""The points race, plain Python (no Django): a season's ladder from plain values. See ``ladder``."""

from .ladder import (
    COUNTS,
    EventPlacings,
    LadderRow,
    NightPoints,
    PlacementPoints,
    PointsTable,
    combine_stages,
    ladder,
    placement_points,
    shared_places,
)

__all__ = [
    "COUNTS", "EventPlacings", "LadderRow", "NightPoints", "PlacementPoints", "PointsTable", "combine_stages",
    "ladder", "placement_points", "shared_places",
]
