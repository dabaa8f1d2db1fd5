"""Keeps the ratings in step with the results, without ``scoring`` or ``tournaments`` knowing ratings.

``scoring`` sends ``game_result_changed`` and ``tournaments`` ``match_result_changed`` inside the
transaction that moved a result (and ``event_visibility_changed`` when an event is made public or private:
only public results are rated); each defers one recompute of every rating once it commits (at most one
waits). It decides nothing about results or ratings.
"""

from django.dispatch import receiver

from scoring.signals import game_result_changed
from tournaments.signals import event_visibility_changed, match_result_changed

from .services import recompute_after_commit


@receiver(game_result_changed, dispatch_uid="ratings.game_result_changed")
def game_changed(sender, **kwargs) -> None:
    recompute_after_commit()


@receiver(match_result_changed, dispatch_uid="ratings.match_result_changed")
def match_changed(sender, **kwargs) -> None:
    recompute_after_commit()


@receiver(event_visibility_changed, dispatch_uid="ratings.event_visibility_changed")
def event_visibility(sender, **kwargs) -> None:
    recompute_after_commit()
