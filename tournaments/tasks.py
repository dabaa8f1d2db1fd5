"""The tournaments app's background jobs, where procrastinate's worker finds them (``core.jobs`` says
where and when they run). Each is defined beside the service it runs:

- ``tournaments.refresh_event_answer`` (``answers.job``): an event's answer recomputed and stored
  with its results version after a write that can change it, and the bracket matches it made ready opened.
- ``tournaments.warm_live_pages`` (``warm``): the live pages of that version made before any phone asks.
"""

from tournaments.answers.job import refresh_event_answer
from tournaments.warm import warm_live_pages

__all__ = ["refresh_event_answer", "warm_live_pages"]
