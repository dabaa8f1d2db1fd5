"""Keeps each event's results fingerprint in step with its games, without ``scoring`` knowing events.

``scoring`` sends ``game_result_changed`` inside the transaction of the hand write (or abandon, or
reopen) that changed a game's settled result. If the game is a match's, a ``ResultChange`` row is
added in that same transaction (no lock on the event row) and the event's answer is recomputed once
it commits. Most hand writes leave the settled result alone and never reach this module. It decides
nothing about results: ``tournaments.stored_event`` reads them.

Once the job stored a new answer (``answer_refreshed``), a running bracket opens the matches a new result
made ready (``services.open_ready_bracket_matches``), and the live pages of the new version are made before
any phone asks (``warm``).
"""

from django.dispatch import receiver

from scoring.signals import game_result_changed

from .answers.job import refresh_after_commit
from .models import Event, MatchGame, ResultChange
from .services import open_ready_bracket_matches
from .signals import answer_refreshed
from .warm import warm_after_refresh


@receiver(game_result_changed, dispatch_uid="tournaments.note_result_change")
def note_result_change(sender, *, game, **kwargs) -> None:
    events = sorted(set(MatchGame.objects.filter(game_id=game.pk).values_list("match__event_id", flat=True)))
    if not events:
        return
    ResultChange.objects.bulk_create(ResultChange(event_id=event_id, game_id=game.pk) for event_id in events)
    for event_id in events:
        refresh_after_commit(event_id)


@receiver(answer_refreshed, dispatch_uid="tournaments.open_ready_bracket_matches")
def open_ready_matches(sender, *, event, **kwargs) -> None:
    if event.is_elimination and event.status == Event.Status.RUNNING:
        open_ready_bracket_matches(event_id=event.pk)


@receiver(answer_refreshed, dispatch_uid="tournaments.warm_live_pages")
def warm_live_pages(sender, *, event, **kwargs) -> None:
    warm_after_refresh(event)
