"""``manage.py cleanup_expired``: delete what is kept only for a while. Run it from cron (README).

- Idempotency records older than 24 hours (a retry after that runs as a new request; the API
  already ignores them, this only frees the space).
- Wrong-PIN records older than 24 hours (the lockout looks back 15 minutes; a day is kept for
  organisers to see in the admin).

(Throttle counters live in the cache, which expires its own entries.)
"""

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from scoring.api.idempotency import REPLAY_WINDOW
from scoring.models import IdempotencyRecord, PinFailure

PIN_FAILURES_KEPT = timedelta(hours=24)


class Command(BaseCommand):
    help = "Delete idempotency records and wrong-PIN records older than 24 hours."

    def handle(self, *args, **options):
        now = timezone.now()
        records, _ = IdempotencyRecord.objects.filter(created_at__lt=now - REPLAY_WINDOW).delete()
        failures, _ = PinFailure.objects.filter(failed_at__lt=now - PIN_FAILURES_KEPT).delete()
        self.stdout.write(f"Deleted {records} idempotency records and {failures} wrong-PIN records.")
