"""The shape every calculator command shares (``manage.py score``, ``manage.py event``).

A JSON document on standard input, the engine's answer on standard output and exit 0; a refusal
prints the error JSON (the contract's own location key) on standard output and exits 2. Never a
traceback for bad input. It computes only: it needs no database and no secret key, so it runs
without Django's system checks (which refuse a production setup lacking ``SECRET_KEY``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand


class CalculatorCommand(BaseCommand):
    requires_system_checks: list[str] = []
    #: the key naming where a problem is in the contract's error JSON ("hand", "result")
    location_key = "hand"
    #: the engine's refusal: an exception with ``as_dict()`` giving the error JSON
    refusal: type[Exception] = Exception

    def calculate(self, request: Any) -> dict:
        raise NotImplementedError

    def add_arguments(self, parser):
        parser.add_argument("--compact", action="store_true", help="print the answer on one line")

    def handle(self, *args, compact=False, **options):
        indent = None if compact else 2
        try:
            request = json.loads(sys.stdin.read())
        except (json.JSONDecodeError, RecursionError) as exc:
            where = (f": {exc.msg} at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError)
                     else ": it is nested too deeply")
            self._emit({"errors": [{self.location_key: None, "field": None,
                                    "message": f"the input is not valid JSON{where}"}]}, indent)
            sys.exit(2)
        try:
            answer = self.calculate(request)
        except self.refusal as exc:
            self._emit(exc.as_dict(), indent)
            sys.exit(2)
        self._emit(answer, indent)

    def _emit(self, document, indent):
        self.stdout.write(json.dumps(document, indent=indent, ensure_ascii=False))
