"""``manage.py score``: the calculator on the command line (SCORESHEET.md).

Reads a score sheet as JSON on standard input, prints the scored sheet on standard output and exits
0; a rejected sheet prints the error JSON on standard output and exits 2. Never a traceback for bad
input.
"""

import json
import sys

from django.core.management.base import BaseCommand

from scoring.engine import SheetError
from scoring.sheets import score_bounded_sheet


class Command(BaseCommand):
    help = "Score a score sheet read as JSON from standard input (see SCORESHEET.md)."

    def add_arguments(self, parser):
        parser.add_argument("--compact", action="store_true", help="print the answer on one line")

    def handle(self, *args, compact=False, **options):
        indent = None if compact else 2
        raw = sys.stdin.read()
        try:
            request = json.loads(raw)
        except json.JSONDecodeError as exc:
            error = {
                "errors": [
                    {"hand": None, "field": None, "message": f"the input is not valid JSON: {exc.msg} "
                     f"at line {exc.lineno} column {exc.colno}"}
                ]
            }
            self._emit(error, indent)
            sys.exit(2)
        try:
            answer = score_bounded_sheet(request)
        except SheetError as exc:
            self._emit(exc.as_dict(), indent)
            sys.exit(2)
        self._emit(answer, indent)

    def _emit(self, document, indent):
        self.stdout.write(json.dumps(document, indent=indent, ensure_ascii=False))
