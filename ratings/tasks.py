"""The ratings app's background jobs, where procrastinate's worker finds them (``core.jobs`` says where
and when they run):

- ``ratings.recompute`` (``services.recompute``): every rating recomputed from scratch after a settled
  result moved (a game settled, corrected or reopened; a director's result; a merge of players).
"""

from ratings.services.recompute import recompute_ratings_job

__all__ = ["recompute_ratings_job"]
