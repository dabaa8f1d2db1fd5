"""The round robin schedule by the circle method of EVENTS.md, as a formula (no table is built).

Places are the seed order, with an empty place first when the number of entries is odd. Round 1
pairs places i and m + 1 - i; before each later round the entry in the last place moves to place 2
and those from place 2 on move down one (place 1 stays): a rotation of places 2..m by one. So in
round r the entry first at place p (p >= 2) stands at place 2 + ((p - 2 + r - 1) mod (m - 1)), and
an entry's opponent in any round is found in constant time, which keeps a 4,096-entry schedule
(4,095 rounds) free.

It must not know about results, drops or standings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CircleSchedule:
    """The schedule of ``entries`` entries (0-based seed positions); ``None`` is the empty place."""

    entries: int

    @property
    def places(self) -> int:
        return self.entries + (self.entries % 2)

    @property
    def rounds(self) -> int:
        return self.places - 1

    @property
    def offset(self) -> int:
        """1 when the first place is the empty one."""
        return self.entries % 2

    def _place_of(self, entry: int, round_no: int) -> int:
        original = entry + self.offset  # 0-based place in round 1
        if original == 0:
            return 0
        return 1 + (original - 1 + round_no - 1) % (self.places - 1)

    def _entry_at(self, place: int, round_no: int) -> int | None:
        if place == 0:
            original = 0
        else:
            original = 1 + (place - 1 - (round_no - 1)) % (self.places - 1)
        entry = original - self.offset
        return entry if entry >= 0 else None

    def opponent(self, entry: int, round_no: int) -> int | None:
        """Whom ``entry`` meets in ``round_no`` (1-based); None when it sits out."""
        place = self._place_of(entry, round_no)
        return self._entry_at(self.places - 1 - place, round_no)

    def pairs(self, round_no: int) -> list[tuple[int | None, int | None]]:
        """The round's pairs in place order: (place i, place m + 1 - i) for i up to m / 2."""
        m = self.places
        return [(self._entry_at(i, round_no), self._entry_at(m - 1 - i, round_no)) for i in range(m // 2)]
