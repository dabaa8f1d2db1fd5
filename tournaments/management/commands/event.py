"""``manage.py event``: the event calculator on the command line (EVENTS.md).

Reads an event document as JSON on standard input, prints the answer on standard output and exits
0; a rejected request prints the error JSON on standard output and exits 2. Never a traceback for
bad input.
"""

import json
import sys

from django.core.management.base import BaseCommand

from tournaments.engine import EventError, run_event


class Command(BaseCommand):
    help = "Answer an event document read as JSON from standard input (see EVENTS.md)."

    def add_arguments(self, parser):
        parser.add_argument("--compact", action="store_true", help="print the answer on one line")

    def handle(self, *args, compact=False, **options):
        indent = None if compact else 2
        raw = sys.stdin.read()
        try:
            request = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as exc:
            where = f": {exc.msg} at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) \
                else ": it is nested too deeply"
            self._emit({"errors": [{"result": None, "field": None,
                                    "message": f"the input is not valid JSON{where}"}]}, indent)
            sys.exit(2)
        try:
            answer = run_event(request)
        except EventError as exc:
            self._emit(exc.as_dict(), indent)
            sys.exit(2)
        self._emit(answer, indent)

    def _emit(self, document, indent):
        self.stdout.write(json.dumps(document, indent=indent, ensure_ascii=False))
