"""Keeps each event's results fingerprint in step with its games, without ``scoring`` knowing events.

``scoring`` sends ``game_result_changed`` inside the transaction of the hand write (or abandon, or
reopen) that changed a game's settled result. If the game is a match's, a ``ResultChange`` row is
added in that same transaction (no lock on the event row) and the event's answer is recomputed once
it commits. Most hand writes leave the settled result alone and never reach this module. It decides
nothing about results: ``tournaments.stored_event`` reads them.
"""

from django.dispatch import receiver

from scoring.signals import game_result_changed

from .models import MatchGame, ResultChange
from .services import refresh_after_commit


@receiver(game_result_changed, dispatch_uid="tournaments.note_result_change")
def note_result_change(sender, *, game, **kwargs) -> None:
    events = sorted(set(MatchGame.objects.filter(game_id=game.pk).values_list("match__event_id", flat=True)))
    if not events:
        return
    ResultChange.objects.bulk_create(ResultChange(event_id=event_id, game_id=game.pk) for event_id in events)
    for event_id in events:
        refresh_after_commit(event_id)
