"""``manage.py run_jobs``: the job worker, kept running (the Procfile's ``worker:``, and ``make run`` on
PostgreSQL).

procrastinate's worker stops when its database connection fails (a PostgreSQL restart, say): its
LISTEN connection is gone and it will not guess whether to go on. This command runs it in a child
process and starts it again when it stops on its own, after a pause that doubles up to a minute while
the database stays away; nothing is lost meanwhile (jobs wait in the queue, and a job a dying worker
was running is put back by ``scoring.retry_stalled_jobs``). SIGTERM or SIGINT stops the worker
gracefully, and this command with it.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from django.core.management.base import BaseCommand

FIRST_PAUSE = 1.0
LONGEST_PAUSE = 60.0
# A worker that ran this long was healthy: the next restart starts from the first pause again.
HEALTHY_AFTER = 30.0


class Command(BaseCommand):
    help = "Run the job worker (procrastinate), starting it again whenever it stops on a database error."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="run until the queue is empty, then stop")

    def handle(self, *args, **options):
        command = [sys.executable, sys.argv[0], "procrastinate", "worker"]
        if options["once"]:
            command.append("--one-shot")
        stopping = False
        child: subprocess.Popen | None = None

        def stop(signum, frame):
            nonlocal stopping
            stopping = True
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        pause = FIRST_PAUSE
        while not stopping:
            started = time.monotonic()
            child = subprocess.Popen(command)
            code = child.wait()
            if stopping or options["once"]:
                return
            if time.monotonic() - started > HEALTHY_AFTER:
                pause = FIRST_PAUSE
            self.stderr.write(f"The job worker stopped (exit {code}); starting it again in {pause:.0f} s.")
            time.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)
