"""Stored seasons: a name, first and last day, what counts (club nights, events or both) and the points table.

The database keeps the invariants, each constraint named: the last day not before the first, what counts one
of three, points never negative, best nights at least one, one season of a name ignoring case. The ladder is
never stored: ``seasons.selectors`` works it out on read from the games and events it counts. Writes live in
``seasons.services``; no ``save()`` or signal has side effects.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower

DEFAULT_PLACEMENT_POINTS = [10, 7, 5, 4, 3, 2]


def default_placement_points() -> list[int]:
    return list(DEFAULT_PLACEMENT_POINTS)


class Season(models.Model):
    class Counts(models.TextChoices):
        CLUB = "club", "Club nights"
        EVENTS = "events", "Events"
        BOTH = "both", "Club nights and events"

    name = models.CharField(max_length=80)
    starts_on = models.DateField()
    ends_on = models.DateField()
    counts = models.CharField(max_length=10, choices=Counts.choices, default=Counts.BOTH)
    # Points for 1st, 2nd, ... of an event (a list, place 1 first, never rising); a finisher placed beyond it
    # gets ``finisher_points``.
    placement_points = models.JSONField(default=default_placement_points)
    finisher_points = models.PositiveSmallIntegerField(default=1)
    night_points = models.PositiveSmallIntegerField(default=1)
    # Only this many club nights count for a player (None: every night).
    best_nights = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seasons_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_it_starts"),
            models.CheckConstraint(condition=Q(counts__in=["club", "events", "both"]), name="season_counts_known"),
            models.CheckConstraint(condition=Q(finisher_points__gte=0) & Q(night_points__gte=0),
                                   name="season_points_not_negative"),
            models.CheckConstraint(condition=Q(best_nights__isnull=True) | Q(best_nights__gte=1),
                                   name="season_best_nights_at_least_one"),
            models.CheckConstraint(condition=~Q(name=""), name="season_has_a_name"),
            models.UniqueConstraint(Lower("name"), name="season_name_unique_ignoring_case"),
        ]

    def __str__(self) -> str:
        return self.name
