"""Turns what the tournaments app says happened into messages and emails, deciding nothing itself.

``hand_confirmed`` (after the hand's commit) is told only if a subscription asks for ``hand.confirmed`` by name.
``answer_refreshed`` (sent by the job that stored an event's new answer, outside any write) defers one
``tell_event`` (at most one waits per event); ``registration_changed`` (sent once a sign-up's transaction
committed) tells that sign-up. Both run off the request (``core.jobs``; the background thread when jobs are
inline), so a slow receiver or mail server never slows the write.
"""

from django.dispatch import receiver
from procrastinate import RetryStrategy

from core import jobs
from scoring.signals import hand_confirmed
from tournaments.signals import answer_refreshed, registration_changed

from . import sealing
from .services import tell_event, tell_registration
from .services.happenings import tell_hand, wants_hands


@jobs.catch_up_task(name="notifications.tell_event", lock=lambda event_id: f"notifications.tell-event:{event_id}",
                    attempts=3, wait=5)
def tell_event_job(event_id: int) -> None:
    tell_event(event_id=event_id)


@jobs.app.task(name="notifications.tell_registration", retry=RetryStrategy(max_attempts=3, wait=5))
def tell_registration_job(registration_id: int, what: str, sealed: str = "") -> None:
    tell_registration(registration_id=registration_id, what=what, sealed=sealed)


@receiver(answer_refreshed, dispatch_uid="notifications.answer_refreshed")
def event_refreshed(sender, *, event, **kwargs) -> None:
    jobs.off_request(tell_event_job, event_id=event.pk)


@receiver(registration_changed, dispatch_uid="notifications.registration_changed")
def registration_told(sender, *, registration, what, token="", **kwargs) -> None:
    sealed = sealing.seal(registration.pk, token) if token else ""  # the player's link never waits in clear
    jobs.off_request(tell_registration_job, registration_id=registration.pk, what=what, sealed=sealed)


@jobs.app.task(name="notifications.tell_hand", retry=RetryStrategy(max_attempts=3, wait=5))
def tell_hand_job(game_id: int, number: int, version: int) -> None:
    tell_hand(game_id=game_id, number=number, version=version)


@receiver(hand_confirmed, dispatch_uid="notifications.hand_confirmed")
def hand_told(sender, *, game_id, number, version, **kwargs) -> None:
    if not wants_hands():  # the common case: nobody asked for hands by name, nothing deferred
        return
    jobs.off_request(tell_hand_job, game_id=game_id, number=number, version=version)
