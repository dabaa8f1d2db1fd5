"""Forms of the tournament pages: they read what was typed; the engine judges the event."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from core.reading import IdChoiceField, IdsChoiceField, WholeNumberFormField
from scoring.engine import PRESETS
from scoring.forms import ConventionsFormMixin
from scoring.models import Player
from tournaments.engine import EventError
from tournaments.engine.records import MAX_ENTRIES, MAX_MARGIN, MAX_MATCH_POINTS, MAX_SWISS_ROUNDS, TIEBREAK_KEYS

from .models import Event
from .tables import TIEBREAK_LABELS
from .wallchart import RESULTS_HELP

TIEBREAK_SLOTS = 5
MAX_STORED = 2**31 - 1  # the database's integer columns
TIEBREAK_CHOICES = [("", "—")] + [(key, TIEBREAK_LABELS[key]) for key in TIEBREAK_KEYS]


def _points(label: str, default: int) -> WholeNumberFormField:
    return WholeNumberFormField(
        label=label, required=False, min_value=0, max_value=MAX_MATCH_POINTS,
        widget=forms.NumberInput(attrs={"placeholder": str(default), "inputmode": "numeric"}),
    )


class EventOptionsForm(forms.Form):
    """What the standings count, shared by the event calculator and a new stored event: match points,
    margins for byes and forfeits, tiebreaks in order (empty: the engine's defaults)."""

    win = _points("Points for a win", 2)
    draw = _points("Points for a draw", 1)
    loss = _points("Points for a loss", 0)
    bye = _points("Points for a bye", 2)
    bye_margin = WholeNumberFormField(label="Margin credited for a bye", required=False, min_value=0,
                                    max_value=MAX_MARGIN, widget=forms.NumberInput(attrs={"placeholder": "0"}))
    forfeit_margin = WholeNumberFormField(label="Margin credited for a forfeit win", required=False, min_value=0,
                                        max_value=MAX_MARGIN, widget=forms.NumberInput(attrs={"placeholder": "0"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = forms.ChoiceField(
                label=f"Tiebreak {slot}", choices=TIEBREAK_CHOICES, required=False,
            )

    def points_fields(self):
        return [self[name] for name in ("win", "draw", "loss", "bye", "bye_margin", "forfeit_margin")]

    def tiebreak_fields(self):
        return [self[f"tiebreak_{slot}"] for slot in range(1, TIEBREAK_SLOTS + 1)]

    def tiebreaks(self) -> list[str] | None:
        """The keys chosen, in order; None when none is chosen (the format's default order)."""
        chosen = [self.cleaned_data.get(f"tiebreak_{slot}") for slot in range(1, TIEBREAK_SLOTS + 1)]
        keys = [key for key in chosen if key]
        return keys or None

    def match_points(self) -> dict[str, int] | None:
        data = self.cleaned_data
        points = {k: data[k] for k in ("win", "draw", "loss", "bye") if data.get(k) is not None}
        return points or None


class EventCalculatorForm(EventOptionsForm):
    """The event as a director writes it on the wall chart: entries, format, options, results so far."""

    format = forms.ChoiceField(label="Format", choices=Event.Format.choices, initial=Event.Format.SWISS)
    entries = forms.CharField(
        label="Entries, one a line, best seed first",
        widget=forms.Textarea(attrs={"rows": 8, "placeholder": "Ann\nBob\nCleo\nDev", "autocapitalize": "words"}),
        help_text="A late entry to a Swiss event: “Gail (from round 3)”.",
    )
    rounds = WholeNumberFormField(
        label="Swiss rounds", required=False, min_value=1, max_value=MAX_SWISS_ROUNDS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Empty: enough rounds for one undefeated winner.",
    )
    third_place = forms.BooleanField(label="Play a third-place match", required=False)
    grand_final = forms.ChoiceField(
        label="Grand final",
        choices=Event.GrandFinal.choices, initial=Event.GrandFinal.RESET, required=False,
    )
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
    as_of_round = WholeNumberFormField(label="Show the standings as of round", required=False, min_value=0,
                                     max_value=MAX_SWISS_ROUNDS * 2)


# ---------------------------------------------------------------------------------------------------
# Stored events: what a director types. The services judge it; their refusals are placed beside the
# field they name (``place_errors``).


class EventForm(ConventionsFormMixin, EventOptionsForm):
    """A new event: the format, how a match is played, the conventions (frozen at creation), the
    standings' points and tiebreaks, and who runs it."""

    name = forms.CharField(max_length=120, widget=forms.TextInput(attrs={"placeholder": "Thursday Swiss"}))
    format = forms.ChoiceField(choices=Event.Format.choices, initial=Event.Format.SWISS)
    match_format = forms.ChoiceField(label="A match is", choices=Event.MatchFormat.choices,
                                     initial=Event.MatchFormat.SINGLE_GAME,
                                     help_text="best of 3: the margin is the net over the games played")
    is_public = forms.BooleanField(required=False, initial=True, label="Anyone may follow the pairings and standings")
    check_in = forms.BooleanField(required=False, label="Check players in before round 1",
                                  help_text="round 1 pairs only those checked in (by a director, or at the venue's "
                                            "QR code)")
    round_minutes = WholeNumberFormField(required=False, min_value=1, max_value=600, label="Minutes a round",
                                         widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                                         help_text="a round's clock starts at this (empty: no time limit)")
    time_rule = forms.ChoiceField(label="At time", choices=Event.TimeRule.choices, initial=Event.TimeRule.FINISH_HAND,
                                  widget=forms.RadioSelect, required=False)
    preset = forms.ChoiceField(choices=[(p, p) for p in PRESETS], initial="classic", label="Conventions")
    rounds = WholeNumberFormField(label="Swiss rounds", required=False, min_value=1, max_value=MAX_SWISS_ROUNDS,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                                help_text="Swiss only. Empty: enough rounds for one undefeated winner.")
    third_place = forms.BooleanField(label="Play a third-place match (single elimination)", required=False)
    grand_final = forms.ChoiceField(label="Grand final (double elimination)", choices=Event.GrandFinal.choices,
                                    initial=Event.GrandFinal.RESET)
    directors = IdsChoiceField(queryset=get_user_model().objects.order_by("username"),
                               required=False, widget=forms.CheckboxSelectMultiple,
                               help_text="they pair rounds and record results")
    referees = IdsChoiceField(queryset=get_user_model().objects.order_by("username"),
                              required=False, widget=forms.CheckboxSelectMultiple,
                              help_text="they record hands at every table")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_convention_fields()

    def service_arguments(self) -> dict:
        """The keyword arguments of ``services.create_event``."""
        data = self.cleaned_data
        swiss = data["format"] == Event.Format.SWISS
        return {
            "name": data["name"], "format": data["format"], "conventions": self.conventions(),
            "match_format": data["match_format"], "rounds": data["rounds"] if swiss else None,
            "tiebreaks": self.tiebreaks(), "match_points": self.match_points(),
            "bye_margin": data["bye_margin"] or 0, "forfeit_margin": data["forfeit_margin"] or 0,
            "third_place": bool(data["third_place"]) and data["format"] == Event.Format.SINGLE_ELIMINATION,
            "grand_final": data["grand_final"] if data["format"] == Event.Format.DOUBLE_ELIMINATION
            else Event.GrandFinal.RESET,
            "is_public": data["is_public"], "check_in": data["check_in"], "round_minutes": data["round_minutes"],
            "time_rule": data["time_rule"] or Event.TimeRule.FINISH_HAND,
            "directors": list(data["directors"]),
            "referees": list(data["referees"]),
        }


# Engine and service field names -> the form field a refusal is shown beside.
EVENT_FIELD_ALIASES = {"match_points.win": "win", "match_points.draw": "draw", "match_points.loss": "loss",
                       "match_points.bye": "bye", "conventions": "preset"}


def place_errors(form: forms.Form, error: EventError, aliases: dict[str, str] | None = None) -> list[str]:
    """Put each problem beside the field it names (``tiebreaks.1`` beside tiebreak 2, ``conv_*`` for a
    convention, ``lines.3`` beside the pasted text); what names no field is returned for the page."""
    aliases = {**EVENT_FIELD_ALIASES, **(aliases or {})}
    general = []
    for problem in error.problems:
        name = problem.field or ""
        target = aliases.get(name)
        if target is None and name.startswith("tiebreaks."):
            index = name.split(".")[1]
            target = f"tiebreak_{int(index) + 1}" if index.isdigit() else None
        elif target is None and name.startswith("conventions."):
            target = f"conv_{name.split('.')[1]}"
        elif target is None and name.startswith("lines."):
            target = aliases.get("lines", "text")
        elif target is None:
            target = name.split(".")[0]
        if target in form.fields:
            form.add_error(target, problem.message[:1].upper() + problem.message[1:])
        else:
            general.append(problem.message[:1].upper() + problem.message[1:])
    return general


class EventChangeForm(forms.Form):
    """What a director changes on the event page at any time (the API changes the other options until
    round 1 is paired)."""

    name = forms.CharField(max_length=120)
    rounds = WholeNumberFormField(min_value=1, required=False, label="Swiss rounds",
                                  help_text="never below the rounds already paired",
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    is_public = forms.BooleanField(required=False, label="Public (anyone may follow it)")
    check_in = forms.BooleanField(required=False, label="Check players in before round 1",
                                  help_text="round 1 pairs only those checked in (by you, or at the venue's QR code)")
    round_minutes = WholeNumberFormField(required=False, min_value=1, max_value=600, label="Minutes a round",
                                         widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                                         help_text="the round's clock starts at this (empty: no time limit)")


class RegistrationForm(forms.Form):
    """Players signing up themselves, on the event page (its directors; any time before round 1)."""

    registration_open = forms.BooleanField(required=False, label="Players may sign up themselves")
    registration_cap = WholeNumberFormField(required=False, min_value=2, max_value=4096, label="Entries at most",
                                            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                                            help_text="empty: no limit")
    waitlist = forms.BooleanField(required=False, label="Once full, put sign-ups on a waiting list",
                                  help_text="in the order they came; a withdrawal lets the next one in")
    registration_closes_at = forms.DateTimeField(required=False, label="Sign-ups close at",
                                                 widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                                 input_formats=["%Y-%m-%dT%H:%M"],
                                                 help_text="empty: when round 1 is paired")


class PrizesForm(forms.Form):
    """The event's prize list on its page, one "place: prize" a line (``services.prizes_from_text`` reads it)."""

    prizes = forms.CharField(
        required=False, max_length=64 * 130, label="Prizes",
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "1: 50 € voucher\n2: 25 € voucher"}),
        help_text="one “place: prize” a line; shown beside the final standings. Where a place is shared, the "
                  "standings' order decides who is shown at it",
    )


class CancelEventForm(forms.Form):
    """Cancelling an event on its page: why (kept, shown to its officials) and a confirmation."""

    reason = forms.CharField(max_length=500, label="Why is it cancelled?",
                             help_text="shown to its officials; spectators read that it was cancelled")
    confirm = forms.BooleanField(label="Yes: close its games being played and record nothing more in it")


class AcknowledgeWarningForm(forms.Form):
    """One warning acknowledged on the event page: its key (a hidden field) and an optional note."""

    key = forms.CharField(max_length=100, widget=forms.HiddenInput)
    note = forms.CharField(max_length=500, required=False, label="Note (optional)")


class OfficialsForm(forms.Form):
    directors = IdsChoiceField(queryset=get_user_model().objects.order_by("username"),
                               required=False, widget=forms.CheckboxSelectMultiple,
                               help_text="an organiser changes these")
    referees = IdsChoiceField(queryset=get_user_model().objects.order_by("username"),
                              required=False, widget=forms.CheckboxSelectMultiple,
                                              help_text="they referee every game still being played, and every "
                                                        "game to come")


class AddEntryForm(forms.Form):
    player = IdChoiceField(queryset=Player.objects.all(), required=False, label="A player of the club",
                                    empty_label="— or type a new name below —")
    name = forms.CharField(max_length=60, required=False, label="New player's name",
                           widget=forms.TextInput(attrs={"autocapitalize": "words", "autocomplete": "off"}))
    club = forms.CharField(max_length=80, required=False, label="Club",
                           help_text="Optional: where to look the name up, and a new player's club.")
    rating = WholeNumberFormField(required=False, min_value=-MAX_STORED, max_value=MAX_STORED,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        if event is not None:
            self.fields["player"].queryset = Player.objects.exclude(event_entries__event=event)

    def clean(self):
        data = super().clean()
        typed = (data.get("name") or "").strip()
        if not data.get("player") and not typed:
            raise forms.ValidationError("Pick a player, or type the name of a new one.")
        if data.get("player") and typed:
            raise forms.ValidationError(f"Pick a player or type a name, not both ({data['player']} and {typed}).")
        return data


class PasteEntriesForm(forms.Form):
    text = forms.CharField(label="Paste a list", max_length=400_000,
                           widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Ann,1850\nBob\nCleo,1620"}),
                           help_text="One name a line, or CSV: name,rating. A player already known is found by "
                                     "name (any case; in the club below if you give one); the others are added "
                                     "as new players.")
    club = forms.CharField(max_length=80, required=False, label="Club",
                           help_text="Optional: where to look the names up, and the club of new players.")
    new_alike = forms.BooleanField(required=False, label="Make new players even where the club has a name alike",
                                   help_text="“Rosa Marquez” beside the club's “Rosa Márquez”: tick only if they "
                                             "are two people")


class DropForm(forms.Form):
    after_round = WholeNumberFormField(required=False, min_value=0, max_value=MAX_ENTRIES, label="Last round played",
                                     widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                                     help_text="empty: the last round the entry is paired in")
    reason = forms.CharField(max_length=500, required=False)


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(coerce=int, label="Move")
    second = forms.TypedChoiceField(coerce=int, label="with")
    confirm = forms.BooleanField(required=False, label="Swap anyway")

    def __init__(self, *args, entries: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = [("", "— choose an entry —"), *entries]
        self.fields["second"].choices = [("", "— choose an entry —"), *entries]

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", "Choose two different entries.")
        return data


class ResultForm(forms.Form):
    """A director's result for one match: a forfeit, an adjusted result, or back to the games."""

    KINDS = [("forfeit", "Forfeit"), ("adjusted", "Adjusted result"), ("cleared", "Back to the games' result")]
    kind = forms.ChoiceField(choices=KINDS, widget=forms.RadioSelect, initial="forfeit")
    winner = forms.ChoiceField(required=False, widget=forms.RadioSelect)
    margin = WholeNumberFormField(required=False, min_value=0, max_value=MAX_STORED, label="Margin (points)",
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    reason = forms.CharField(max_length=500, widget=forms.TextInput(attrs={"placeholder": "why, for the record"}))

    def __init__(self, *args, players: list[tuple[int, str]], draws: bool, can_clear: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not can_clear:
            self.fields["kind"].choices = self.KINDS[:2]
        choices = [(str(pk), name) for pk, name in players]
        if draws:
            choices.append(("draw", "Draw (adjusted result)"))
        self.fields["winner"].choices = choices


class KnockoutForm(forms.Form):
    top_n = WholeNumberFormField(min_value=2, label="How many go through",
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    format = forms.ChoiceField(choices=[(Event.Format.SINGLE_ELIMINATION, "Single elimination"),
                                        (Event.Format.DOUBLE_ELIMINATION, "Double elimination")])
    match_format = forms.ChoiceField(choices=Event.MatchFormat.choices, label="A match is", required=False,
                                     help_text="a best-of-3 final, say: the margin is the net over the games")
    name = forms.CharField(max_length=120, required=False, help_text="empty: “<event>: top N”")
    third_place = forms.BooleanField(required=False, label="Third-place match (single elimination)")
    round_minutes = WholeNumberFormField(required=False, min_value=1, max_value=600, label="Minutes a match",
                                         widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                                         help_text="each match's clock starts at this (empty: as this event's rounds)")
