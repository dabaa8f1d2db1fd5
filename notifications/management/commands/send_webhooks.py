"""``manage.py send_webhooks``: attempt every webhook message left due (its job lost, the process that held its
retry restarted) and forget attempts older than 30 days. With PostgreSQL a periodic job does this every
minute; with SQLite run it from cron (every few minutes) beside ``cleanup_expired``."""

from django.core.management.base import BaseCommand

from core import background, jobs
from notifications.services import sweep


class Command(BaseCommand):
    help = "Attempt the webhook messages left due and forget attempts older than 30 days."

    def handle(self, *args, **options):
        done = sweep()
        if not jobs.queued():
            background.wait_idle(timeout=300)  # this process's thread sends them: wait before exiting
        self.stdout.write(f"{done['due']} messages attempted, {done['forgotten']} old attempts forgotten")
