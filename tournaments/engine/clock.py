"""A round's clock as plain values: where it stands at a given moment, from what is stored (when the time
is up while it runs, the seconds left while it is paused, a table's extra time). Shared by the pages, the
API and the services, so every reader tells the same time.

It must not read the database nor the current time itself: the caller passes ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

NOT_STARTED, RUNNING, PAUSED, TIME = "not_started", "running", "paused", "time"


@dataclass(frozen=True, slots=True)
class ClockState:
    status: str  # not_started | running | paused | time
    ends_at: datetime | None  # while running (or at time): when the time is (was) up
    remaining_seconds: int | None  # None before the clock starts; 0 at time

    def as_dict(self) -> dict:
        return {"status": self.status, "ends_at": self.ends_at.isoformat() if self.ends_at else None,
                "paused": self.status == PAUSED, "remaining_seconds": self.remaining_seconds}


def clock_state(*, ends_at: datetime | None, left_seconds: int | None, now: datetime,
                extra_seconds: int = 0) -> ClockState:
    """The clock of a round (``extra_seconds``: one table's extension on top of it)."""
    if left_seconds is not None:
        return ClockState(PAUSED, None, left_seconds + extra_seconds)
    if ends_at is None:
        return ClockState(NOT_STARTED, None, None)
    ends = ends_at + timedelta(seconds=extra_seconds)
    left = (ends - now).total_seconds()
    if left <= 0:
        return ClockState(TIME, ends, 0)
    return ClockState(RUNNING, ends, int(left + 0.999))  # 0.2 s left still reads 1 s, never 0 before time


def in_words(state: ClockState) -> str:
    """"23:14 left", "paused, 5:00 left", "Time", "" (no clock yet)."""
    if state.status == NOT_STARTED:
        return ""
    if state.status == TIME:
        return "Time"
    minutes, seconds = divmod(state.remaining_seconds or 0, 60)
    left = f"{minutes}:{seconds:02d} left"
    return f"paused, {left}" if state.status == PAUSED else left
