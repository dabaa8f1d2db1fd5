"""The ratings app's writes: the ratings recomputed from scratch (``recompute``), by a job after every
change of a settled result, and on a merge of duplicate players."""

from .recompute import (
    MERGED_RATINGS,
    MergedRatings,
    recompute_after_commit,
    recompute_ratings,
    recompute_ratings_job,
    store,
)

__all__ = ["MERGED_RATINGS", "MergedRatings", "recompute_after_commit", "recompute_ratings",
           "recompute_ratings_job", "store"]
