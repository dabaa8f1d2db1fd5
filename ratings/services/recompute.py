"""Ratings recomputed from scratch: every finished result read, rated in date order by the engine, and both
tables rewritten whole in one transaction with bulk writes, so the stored ratings never depend on the order
results arrived in; and the job that does it, deferred whenever a settled result moves.

It must not decide what counts as a result (``ratings.rated_results``) nor how a result moves a rating (the engine).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, transaction
from django.utils import timezone

from core import jobs
from ratings.engine import Point, Standing, rate
from ratings.models import PlayerRating, RatingPoint
from ratings.rated_results import finished_results

BATCH = 2000
LOCK = "ratings-recompute"
# On the queue, the recompute runs this long after the result that asked for it: a round's end settles hundreds
# of matches in minutes, each of which asked for every rating again (a quarter of the job worker's time on the
# 1,000-player night's last minutes, issue 35); now the results of those seconds are rated once.
CATCH_UP_SECONDS = 30


def recompute_after_commit() -> None:
    """Recompute every rating once this transaction commits (a job: ``core.jobs``). At most one such job
    waits and they run one at a time: the one waiting reads every result as it is when it runs."""
    jobs.defer_on_commit(recompute_ratings_job)


@jobs.catch_up_task(name="ratings.recompute", lock=lambda: LOCK, delay=CATCH_UP_SECONDS)
def recompute_ratings_job() -> None:
    """The job: idempotent (a second run writes the very same rows)."""
    recompute_ratings()


@transaction.atomic
def recompute_ratings() -> int:
    """Every player's rating and history from the finished results; returns how many results were rated."""
    results = finished_results()
    standings, points = rate(results)
    store(standings, points)
    return len(results)


def store(standings: dict[int, Standing], points: Sequence[Point]) -> None:
    """Both tables rewritten whole: the list ranked by rating (more games, then the player's id, break ties)."""
    now = timezone.now()
    ranked = sorted(standings.values(), key=lambda s: (-s.rating, -s.games, s.player))
    RatingPoint.objects.all().delete()
    PlayerRating.objects.all().delete()
    PlayerRating.objects.bulk_create(
        (PlayerRating(player_id=s.player, mu=s.mu, sigma=s.sigma, rating=s.rating, games=s.games, rank=rank,
                      updated=now) for rank, s in enumerate(ranked, start=1)), batch_size=BATCH)
    _insert_points(points)


def _insert_points(points: Sequence[Point]) -> None:
    """The history in one prepared statement run for every row (tens of thousands: no model instance each,
    no batching by the backend's parameter limit), values adapted for the database as the ORM would."""
    adapt = connection.ops.adapt_datetimefield_value
    numbers: dict[int, int] = {}
    rows = []
    for p in points:
        numbers[p.player] = numbers.get(p.player, 0) + 1
        kind, pk = p.key if len(p.key) == 2 else (None, None)
        rows.append((p.player, numbers[p.player], adapt(p.at), p.mu, p.sigma, pk if kind == "game" else None,
                     pk if kind == "match" else None))
    table = connection.ops.quote_name(RatingPoint._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} (player_id, number, at, mu, sigma, game_id, match_id) "
                           "VALUES (%s, %s, %s, %s, %s, %s, %s)", rows)


class MergedRatings:
    """``scoring``'s ``PlayerRecords`` for ratings (registered at start-up, ``RatingsConfig.ready``): ratings
    are derived from games, which the merge moves, so there is nothing to tell, nothing in the way and
    nothing to move: the ratings are recomputed once the merge commits."""

    def describe(self, player_id: int) -> list[tuple[int, str, str]]:
        return []

    def conflicts(self, player_id: int, into_id: int) -> list[str]:
        return []

    def lock(self, player_id: int, into_id: int) -> None:
        return None

    def move(self, player_id: int, into_id: int) -> None:
        recompute_after_commit()


MERGED_RATINGS = MergedRatings()
