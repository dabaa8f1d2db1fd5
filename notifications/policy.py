"""Who may hold which webhook: an organiser for every event (``event`` null) or any one; an event's directors
for their event only. Nobody else reads or changes a subscription but its owner: not its secret (shown once,
when made), not its deliveries. A subscription whose owner may no longer hold it (a director removed, an
organiser no longer one) is sent nothing. This module decides; it does not write.
"""

from __future__ import annotations

from scoring.policy import Actor, NotAllowed
from tournaments import policy as events
from tournaments.models import Event

from .models import Subscription

__all__ = ["may_hold", "require_may_subscribe"]


def require_may_subscribe(actor: Actor, event: Event | None) -> None:
    if actor.user is None or actor.link is not None:
        raise NotAllowed("sign in to manage webhooks")
    if event is None:
        if not actor.is_organiser:
            raise NotAllowed("only an organiser may subscribe to every event: name the event you direct")
        return
    events.require_director(actor, event, "subscribe to its webhooks")


def may_hold(subscription: Subscription) -> bool:
    """Whether the owner may still be sent what this subscription asks for (one query at most)."""
    owner = subscription.owner
    if not owner.is_active:
        return False
    actor = Actor(user=owner)
    if subscription.event_id is None:
        return actor.is_organiser
    return events.can_direct(actor, subscription.event)
