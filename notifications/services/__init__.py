"""Every write of the notifications app, one module per concern:

- ``subscriptions``: webhooks made, changed, removed by their owner; a ping; a message sent again;
- ``deliveries``: the one queue: a message owed to each subscription, every attempt, retries, turning off;
- ``emails``: email to players (sign-ups, promotions, a round's pairings, final standings) and its status;
- ``happenings``: what happened in an event (or to a sign-up) told once.

Views, the API and receivers import this package, never its modules' private helpers.
"""

from .deliveries import attempt, publish, retry_schedule, sweep
from .emails import email_round, send
from .happenings import tell_event, tell_registration
from .subscriptions import create_subscription, delete_subscription, redeliver, send_ping, update_subscription

__all__ = ["attempt", "create_subscription", "delete_subscription", "email_round", "publish", "redeliver",
           "retry_schedule", "send", "send_ping", "sweep", "tell_event", "tell_registration", "update_subscription"]
