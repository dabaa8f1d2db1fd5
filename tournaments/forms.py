"""Forms of the tournament pages: they read what was typed; the engine judges the event."""

from __future__ import annotations

from django import forms

from tournaments.engine.document import MAX_MARGIN, MAX_MATCH_POINTS, MAX_SWISS_ROUNDS, TIEBREAK_KEYS

from .models import Event
from .tables import TIEBREAK_LABELS
from .wallchart import RESULTS_HELP

TIEBREAK_SLOTS = 5
TIEBREAK_CHOICES = [("", "—")] + [(key, TIEBREAK_LABELS[key]) for key in TIEBREAK_KEYS]


def _points(label: str, default: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=0, max_value=MAX_MATCH_POINTS,
        widget=forms.NumberInput(attrs={"placeholder": str(default), "inputmode": "numeric"}),
    )


class EventCalculatorForm(forms.Form):
    """The event as a director writes it on the wall chart: entries, format, options, results so far."""

    format = forms.ChoiceField(label="Format", choices=Event.Format.choices, initial=Event.Format.SWISS)
    entries = forms.CharField(
        label="Entries, one a line, best seed first",
        widget=forms.Textarea(attrs={"rows": 8, "placeholder": "Ann\nBob\nCleo\nDev", "autocapitalize": "words"}),
        help_text="A late entry to a Swiss event: “Gail (from round 3)”.",
    )
    rounds = forms.IntegerField(
        label="Swiss rounds", required=False, min_value=1, max_value=MAX_SWISS_ROUNDS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Empty: enough rounds for one undefeated winner.",
    )
    third_place = forms.BooleanField(label="Play a third-place match", required=False)
    grand_final = forms.ChoiceField(
        label="Grand final",
        choices=Event.GrandFinal.choices, initial=Event.GrandFinal.RESET, required=False,
    )
    win = _points("Points for a win", 2)
    draw = _points("Points for a draw", 1)
    loss = _points("Points for a loss", 0)
    bye = _points("Points for a bye", 2)
    bye_margin = forms.IntegerField(label="Margin credited for a bye", required=False, min_value=0,
                                    max_value=MAX_MARGIN, widget=forms.NumberInput(attrs={"placeholder": "0"}))
    forfeit_margin = forms.IntegerField(label="Margin credited for a forfeit win", required=False, min_value=0,
                                        max_value=MAX_MARGIN, widget=forms.NumberInput(attrs={"placeholder": "0"}))
    dropped = forms.CharField(
        label="Dropped entries", required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Dev, 2"}),
        help_text="One a line: the name and the last round played (0: withdrew before round 1).",
    )
    results = forms.CharField(
        label="Results so far", required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=RESULTS_HELP + " The round form below adds these lines for you; edit one to correct it.",
    )
    as_of_round = forms.IntegerField(label="Show the standings as of round", required=False, min_value=0,
                                     max_value=MAX_SWISS_ROUNDS * 2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = forms.ChoiceField(
                label=f"Tiebreak {slot}", choices=TIEBREAK_CHOICES, required=False,
            )

    def tiebreak_fields(self):
        return [self[f"tiebreak_{slot}"] for slot in range(1, TIEBREAK_SLOTS + 1)]

    def tiebreaks(self) -> list[str] | None:
        """The keys chosen, in order; None when none is chosen (the format's default order)."""
        chosen = [self.cleaned_data.get(f"tiebreak_{slot}") for slot in range(1, TIEBREAK_SLOTS + 1)]
        keys = [key for key in chosen if key]
        return keys or None
