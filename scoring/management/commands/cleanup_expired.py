"""``manage.py cleanup_expired``: delete what is kept only for a while. Run it from cron (README).

- Idempotency records older than 24 hours (a retry after that runs as a new request; the API
  already ignores them, this only frees the space).
- Wrong-PIN records older than 24 hours (the lockout looks back 15 minutes; a day is kept for
  organisers to see in the admin).

- Rate counters of keys not seen for an hour (in the database when no Redis is configured; Redis
  expires its own).
"""

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from core import once, rate_limits
from scoring.models import PinFailure

PIN_FAILURES_KEPT = timedelta(hours=24)


class Command(BaseCommand):
    help = "Delete idempotency records and wrong-PIN records older than 24 hours, and idle rate counters."

    def handle(self, *args, **options):
        now = timezone.now()
        records = once.forget_expired()
        failures, _ = PinFailure.objects.filter(failed_at__lt=now - PIN_FAILURES_KEPT).delete()
        counters = rate_limits.forget_old_windows()
        self.stdout.write(f"Deleted {records} idempotency records and {failures} wrong-PIN records "
                          f"({counters} idle rate counters).")
