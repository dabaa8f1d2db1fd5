"""The notifications app's background jobs, where procrastinate's worker finds them (``core.jobs`` says where
and when they run):

- ``notifications.deliver_webhook``: one attempt at one webhook message (``services.deliveries``);
- ``notifications.send_email``: one email (``services.emails``);
- ``notifications.tell_event``: what happened in an event since it was last told (``services.happenings``);
- ``notifications.sweep`` (every minute): messages left due attempted, attempts older than 30 days forgotten.
"""

from notifications.receivers import tell_event_job
from notifications.services.deliveries import deliver_webhook, sweep_job
from notifications.services.emails import send_email_job

__all__ = ["deliver_webhook", "send_email_job", "sweep_job", "tell_event_job"]
