"""What events keep about players, for ``scoring``'s merge of a duplicate player into the one it really is
(``scoring.services.merges``, through the ``scoring.player_records`` registry): how many entries a player
has, whether two players are entered in one event, and the duplicate's entries moved to the kept player,
inside the merge's own transaction, each event's row locked and its stored answer refreshed (its
standings name the kept player now).

It must not decide who may merge (``scoring`` has decided, organisers only) nor touch matches, results or
games: an entry changes player and keeps its seed, rating, drop, matches and results.
"""

from __future__ import annotations

from tournaments.models import Entry, Event

from ..answers.job import bump


class EventEntries:
    """``scoring``'s ``PlayerRecords`` for events' entries (registered at start-up, ``TournamentsConfig.ready``)."""

    def describe(self, player_id: int) -> list[tuple[int, str, str]]:
        count = Entry.objects.filter(player_id=player_id).count()
        return [(count, "event entry", "event entries")] if count else []

    def conflicts(self, player_id: int, into_id: int) -> list[str]:
        both = (Event.objects.filter(entries__player_id=player_id).filter(entries__player_id=into_id)
                .order_by("pk").values_list("name", flat=True)[:3])
        return [f"both are entered in {name}" for name in both]

    def lock(self, player_id: int, into_id: int) -> list[Event]:
        """Every event either player is entered in, locked in id order (one query)."""
        ids = Entry.objects.filter(player_id__in=[player_id, into_id]).values("event_id")
        return list(Event.objects.select_for_update().filter(pk__in=ids).order_by("pk"))

    def move(self, player_id: int, into_id: int) -> None:
        """The duplicate's entries become the kept player's, and every event either is entered in is bumped:
        its standings show the kept player's name and club now. Locked again, in case an entry came in
        between ``lock`` and now (the locks already held cost nothing)."""
        events = self.lock(player_id, into_id)
        Entry.objects.filter(player_id=player_id).update(player_id=into_id)
        for event in events:
            bump(event)


EVENT_ENTRIES = EventEntries()
