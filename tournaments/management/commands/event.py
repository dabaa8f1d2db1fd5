"""``manage.py event``: the event calculator on the command line (EVENTS.md).

Reads an event document as JSON on standard input, prints the answer on standard output and exits
0; a rejected request prints the error JSON on standard output and exits 2. Never a traceback for
bad input.
"""

from scoring.management.calculator_command import CalculatorCommand
from tournaments.engine import EventError, run_event


class Command(CalculatorCommand):
    help = "Answer an event document read as JSON from standard input (see EVENTS.md)."
    location_key = "result"
    refusal = EventError

    def calculate(self, request):
        return run_event(request)
