"""``manage.py score``: the calculator on the command line (SCORESHEET.md).

Reads a score sheet as JSON on standard input, prints the scored sheet on standard output and exits
0; a rejected sheet prints the error JSON on standard output and exits 2. Never a traceback for bad
input.
"""

from scoring.engine import SheetError
from scoring.management.calculator_command import CalculatorCommand
from scoring.sheets import score_bounded_sheet


class Command(CalculatorCommand):
    help = "Score a score sheet read as JSON from standard input (see SCORESHEET.md)."
    location_key = "hand"
    refusal = SheetError

    def calculate(self, request):
        return score_bounded_sheet(request)
