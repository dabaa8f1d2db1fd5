"""Web forms: turn what a referee taps on a phone into the score-sheet contract's hand (and back).

No rules here: the engine refuses bad hands and the services refuse what a role may not do; their
messages are attached to the field they name.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from core.reading import IdChoiceField, IdsChoiceField, WholeNumberFormField

from .engine import PRESETS, Problem, SheetError
from .engine.conventions import FIELD_NAMES, FieldSpec, field_specs, overrides_of
from .models import Game, Player
from .services import valid_pin

RESULTS = [("knock", "Knock"), ("gin", "Gin"), ("big_gin", "Big gin"), ("dead", "Dead hand")]
# A hand's result and who made it, in one tap ("play"): "knock:Ann", "gin:Bob", ..., "dead".
PLAY_WORDS = {"knock": "{} knocks", "gin": "{} goes gin", "big_gin": "{} goes big gin"}
CHOOSE_RESULT = "Choose the result: who knocked or went gin, or a dead hand"
# The calculator page names two or three players; a partnership's teams are for stored games and the API.
CALCULATOR_FORMATS = {"standard", "hollywood", "rotation", "jersey"}


# Engine field names (and their prefixes) that a hand form shows under another field.
ENGINE_FIELD_ALIASES = {"knocker_melds": "knocker_cards", "knocker_deadwood_cards": "knocker_cards",
                        "opponents_cards": "knocker_cards", "number": None, "result": "play", "knocker": "play"}


def _in_words(label: str, message: str) -> str:
    """An engine message that is a predicate ("is required", "must be ...") reads as a sentence with the
    field's label; a message that is already a sentence stays as it is."""
    if message.startswith(("is ", "must ", "cannot ")):
        return f"{label} {message}"
    return message[:1].upper() + message[1:]


def attach_errors(form: forms.Form, error: SheetError, aliases: dict[str, str] | None = None) -> None:
    """Put the engine's or a service's problems beside the fields they name, in words: the field's label,
    never its internal name. A problem about no field of the form goes on the form itself."""
    if isinstance(form, DealForm):
        form.attach(error)
        return
    aliases = {**ENGINE_FIELD_ALIASES, **(aliases or {})}
    for problem in error.problems:
        field = None
        if problem.field:
            head, _, rest = problem.field.partition(".")
            head = head.split("[")[0]
            if head == "deadwood" and rest and f"deadwood_{rest}" in form.fields:  # Jersey: deadwood.B
                field = f"deadwood_{rest}"
            elif head == "conventions" and rest:  # the game form's convention fields
                field = f"conv_{rest}"
            else:
                field = aliases.get(head, head)
        if field in form.fields:
            form.add_error(field, _in_words(str(form.fields[field].label or field), problem.message))
        else:
            form.add_error(None, _in_words("This", problem.message))


def count_field(label: str, **kwargs) -> WholeNumberFormField:
    """A deadwood count: the phone's numeric keypad, a box big enough to tap, an error in words. At most
    two digits (98 is the most ten cards hold), so the page moves on by itself once two are typed."""
    return WholeNumberFormField(
        label=label, required=False, min_value=0, max_value=98,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "enterkeyhint": "next",
                                      "class": "count", "size": 3, "maxlength": 2}),
        error_messages={"invalid": f"{label}: type a number of points, like 12",
                        "min_value": f"{label} cannot be negative",
                        "max_value": f"{label} cannot be more than 98 (the most 10 cards can hold)"},
        **kwargs,
    )


class HandForm(forms.Form):
    """One hand as the referee enters it: counts, or the cards (a card picker fills the card fields).

    The form carries the hand number it was made for, so a form brought back (the Back button) is
    refused rather than recorded as the next hand.
    """

    # What the page offers: who won the hand and how, one tap ("knock:Ann"). ``result`` and ``knocker``
    # are what it means, and may be sent as they are instead (a form without the page, the tests).
    play = forms.ChoiceField(label="Result", required=False, widget=forms.RadioSelect)
    result = forms.ChoiceField(label="Result", choices=RESULTS, required=False, widget=forms.RadioSelect)
    knocker = forms.ChoiceField(label="Who knocked (or went gin)?", required=False, widget=forms.RadioSelect)
    knocker_deadwood = count_field("Knocker's deadwood")
    opponent_deadwood = count_field("Opponent's deadwood (after lay-offs)")
    upcard = forms.CharField(label="Upcard (Oklahoma)", required=False, max_length=4,
                             help_text="the deal's first upcard, like 7S",
                             widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}))
    knocker_cards = forms.CharField(label="Knocker's cards", required=False, widget=forms.HiddenInput)
    opponent_cards = forms.CharField(label="Opponent's cards", required=False, widget=forms.HiddenInput)
    number = WholeNumberFormField(required=False, min_value=1, widget=forms.HiddenInput)
    # One key per rendered form: a double tap or a resubmitted page records the hand once.
    once = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, game: Game, knockers: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        names = list(game.player_names)
        # Only who can knock this hand, as the engine seats it (rotation: never the dealer sitting out;
        # a partnership table: its two players). Jersey counts stay by every name: the knocker's is skipped.
        self.knockers = list(knockers) if knockers is not None else names
        self.fields["knocker"].choices = [(n, n) for n in self.knockers]
        self.fields["knocker"].error_messages["invalid_choice"] = (
            f"Choose who knocked from {' or '.join(self.knockers)}: the players of this hand")
        self.fields["play"].choices = [(f"{result}:{n}", words.format(n)) for n in self.knockers
                                       for result, words in PLAY_WORDS.items()] + [("dead", "Dead hand")]
        self.fields["play"].error_messages["invalid_choice"] = self.fields["knocker"].error_messages["invalid_choice"]
        # The knocker's deadwood is one tap: a key for each count up to the club's knock limit.
        limit = int(game.conventions.get("knock_limit") or 0)
        if limit >= 1:
            keys = [(n, str(n)) for n in range(1, limit + 1)]
            self.fields["knocker_deadwood"].widget = forms.RadioSelect(choices=keys)
        if not game.conventions.get("oklahoma"):
            del self.fields["upcard"]
        if game.format == Game.Format.JERSEY:
            del self.fields["opponent_deadwood"], self.fields["knocker_cards"], self.fields["opponent_cards"]
            for name in names:
                self.fields[f"deadwood_{name}"] = count_field(f"{name}'s deadwood (if not the knocker)")

    def clean(self):
        data = super().clean()
        if data.get("play"):
            result, _, knocker = data["play"].partition(":")
            data["result"], data["knocker"] = result, knocker
        if not data.get("result"):
            if "play" not in self.errors:
                self.add_error("play", CHOOSE_RESULT)
        elif data["result"] in ("knock", "gin", "big_gin") and not data.get("knocker"):
            self.add_error("play", "Say who knocked or went gin")
        return data

    def play_rows(self) -> list[tuple[str, list[tuple[Any, str]]]]:
        """The play choices by player, for the page: each knocker's row of knock, gin and big gin, each
        radio with the word on its button ("Gin"; its label says "Ann goes gin")."""
        radios = list(self["play"])
        words = [label for value, label in RESULTS if value in PLAY_WORDS]
        size = len(PLAY_WORDS)
        return [(name, list(zip(radios[i * size:(i + 1) * size], words, strict=True)))
                for i, name in enumerate(self.knockers)]

    def dead_play(self) -> Any:
        return list(self["play"])[-1]

    def hand(self) -> dict[str, Any]:
        """The contract's hand from the cleaned fields; blanks are left out for the engine to judge."""
        data = self.cleaned_data
        hand: dict[str, Any] = {"result": data["result"]}
        if data.get("upcard"):
            hand["upcard"] = data["upcard"].strip()
        if data["result"] == "dead":
            return hand
        if data.get("knocker"):
            hand["knocker"] = data["knocker"]
        if data.get("knocker_deadwood") is not None:
            hand["knocker_deadwood"] = data["knocker_deadwood"]
        if self.game.format == Game.Format.JERSEY:
            hand["deadwood"] = {
                name[len("deadwood_"):]: value
                for name, value in data.items()
                if name.startswith("deadwood_") and value is not None and name[len("deadwood_"):] != data.get("knocker")
            }
            return hand
        if data.get("opponent_deadwood") is not None:
            hand["opponent_deadwood"] = data["opponent_deadwood"]
        for name in ("knocker_cards", "opponent_cards"):
            if data.get(name):
                hand[name] = data[name].split()
        return hand

    @classmethod
    def initial_from(cls, hand: dict[str, Any]) -> dict[str, Any]:
        initial = {k: v for k, v in hand.items() if k in ("result", "knocker", "knocker_deadwood",
                                                           "opponent_deadwood", "upcard")}
        if hand.get("result") == "dead":
            initial["play"] = "dead"
        elif hand.get("result") and hand.get("knocker"):
            initial["play"] = f"{hand['result']}:{hand['knocker']}"
        for name in ("knocker_cards", "opponent_cards"):
            if name in hand:
                initial[name] = " ".join(hand[name])
        for name, value in hand.get("deadwood", {}).items():
            initial[f"deadwood_{name}"] = value
        return initial


class DealForm(forms.Form):
    """A partnership deal as the referee enters it: one hand form per table (prefixes ``t1``, ``t2``),
    each offering only its table's two players as knocker, and one hand number and one-time key for the
    deal. Who plays whom comes from the engine (``sheets.seating``), never from this form."""

    number = WholeNumberFormField(required=False, min_value=1, widget=forms.HiddenInput)
    once = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)

    def __init__(self, data=None, *, game: Game, tables: list[list[str]], dealers: list[str] | None = None,
                 initial: dict[str, Any] | None = None):
        super().__init__(data, initial=initial)
        self.game = game
        per_table = (initial or {}).get("tables") or [{}, {}]
        self.tables = []
        for i, players in enumerate(tables, start=1):
            table = HandForm(data, game=game, knockers=players, prefix=f"t{i}", initial=per_table[i - 1])
            table.table_number, table.players = i, list(players)
            table.dealer = dealers[i - 1] if dealers else None
            self.tables.append(table)

    def is_valid(self) -> bool:
        results = [super().is_valid()] + [table.is_valid() for table in self.tables]  # every table's errors
        return all(results)

    def hand(self) -> dict[str, Any]:
        """The contract's deal: ``{"tables": [hand, hand]}`` in this deal's table order."""
        return {"tables": [table.hand() for table in self.tables]}

    @classmethod
    def initial_from(cls, deal: dict[str, Any]) -> dict[str, Any]:
        tables = deal.get("tables") or [{}, {}]
        return {"tables": [HandForm.initial_from(t) for t in tables]}

    def attach(self, error: SheetError) -> None:
        """Each engine problem beside its table's field ("tables[1].knocker" -> table 2's knocker)."""
        for problem in error.problems:
            head, dot, rest = (problem.field or "").partition(".")
            if head.startswith("tables[") and head.endswith("]") and dot:
                index = int(head[len("tables["):-1])
                if 0 <= index < len(self.tables):
                    attach_errors(self.tables[index], SheetError([Problem(problem.hand, rest, problem.message)]))
                    continue
            self.add_error(None, _in_words("This", problem.message))

    def all_errors(self) -> list[tuple[forms.Form, str, list[str]]]:
        """(form, field name, messages) for the deal and each table, for the preview's answer."""
        return [(form, name, errors) for form in (self, *self.tables) for name, errors in form.errors.items()]


class CalculatorForm(forms.Form):
    """The calculator's game: format, preset and names; the hands so far travel in ``hands`` (the
    contract's list, as JSON) from one page to the next. Nothing is stored."""

    format = forms.ChoiceField(choices=[(f, label) for f, label in Game.Format.choices if f in CALCULATOR_FORMATS],
                               initial="standard")
    preset = forms.ChoiceField(choices=[(p, p) for p in PRESETS], initial="classic", label="Conventions")
    player_1 = forms.CharField(max_length=30, initial="Ann", label="Player 1")
    player_2 = forms.CharField(max_length=30, initial="Bob", label="Player 2")
    player_3 = forms.CharField(max_length=30, required=False, label="Player 3",
                               help_text="rotation and Jersey")
    hands = forms.CharField(required=False, widget=forms.HiddenInput, max_length=200_000)

    def names(self) -> list[str]:
        names = [self.cleaned_data[f"player_{i}"].strip() for i in (1, 2, 3) if self.cleaned_data.get(f"player_{i}")]
        return names if self.cleaned_data["format"] in ("rotation", "jersey") else names[:2]

    def clean_hands(self) -> list[dict[str, Any]]:
        raw = self.cleaned_data.get("hands") or "[]"
        try:
            hands = json.loads(raw)
        except (ValueError, RecursionError):
            hands = None
        if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
            raise forms.ValidationError("The hands so far could not be read: start again")
        return hands

    def request(self, hands: list[dict[str, Any]]) -> dict[str, Any]:
        """The score-sheet contract request for these hands (what the JSON view shows)."""
        return {"format": self.cleaned_data["format"], "conventions": self.cleaned_data["preset"],
                "players": self.names(), "hands": hands}


class AmendForm(forms.Form):
    reason = forms.CharField(label="Reason", max_length=500, error_messages={"required": "Say why"},
                             widget=forms.TextInput(attrs={"placeholder": "why"}))


PIN_SLIP = "a PIN is 4 to 8 digits (0-9): type it again"


class ConfirmForm(forms.Form):
    """A PIN typed on the accept card. A PIN that cannot be one (a letter, too long) is a typing slip,
    said in our words (not the browser's) before any PIN is checked: it spends no try."""

    player = forms.ChoiceField(label="Who is accepting?", error_messages={
        "required": "Choose who is accepting: tap your name, then type your PIN",
        "invalid_choice": "Choose who is accepting from the list"})
    pin = forms.CharField(label="PIN", max_length=8, error_messages={"required": "Type the PIN",
                                                                     "max_length": PIN_SLIP},
                          widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off",
                                                            "class": "pin"}))

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(n, n) for n in names]

    def clean_pin(self) -> str:
        pin = self.cleaned_data["pin"]
        if not valid_pin(pin):
            raise forms.ValidationError(PIN_SLIP)
        return pin


class AcceptNowForm(forms.Form):
    """The PIN typed on the entry page by the side the hand goes against, after reading the hand back
    in the preview: the hand is then recorded and accepted in one go. No PIN: the hand is only recorded
    (it awaits acceptance). A mistyped PIN or no player chosen sends the form back, recording nothing."""

    accept_player = forms.ChoiceField(label="Who is accepting?", required=False,
                                      error_messages={"invalid_choice": "Choose who is accepting from the list"})
    accept_pin = forms.CharField(label="PIN", required=False, strip=False, max_length=64,
                                 error_messages={"max_length": PIN_SLIP})

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["accept_player"].choices = [(n, n) for n in names]

    def clean(self):
        data = super().clean()
        pin = data.get("accept_pin") or ""
        if pin and not valid_pin(pin):
            self.add_error("accept_pin", PIN_SLIP)
        if pin and not data.get("accept_player") and "accept_player" not in self.errors:
            self.add_error("accept_player", "Choose who is accepting: tap your name, then type your PIN")
        return data

    @property
    def accepting(self) -> bool:
        return bool(self.cleaned_data.get("accept_pin"))


CONVENTION_LABELS = {
    "gin_bonus": "Gin bonus",
    "big_gin_bonus": "Big gin bonus",
    "undercut_bonus": "Undercut bonus",
    "target": "Game target",
    "game_bonus": "Game bonus",
    "box_bonus": "Box (line) bonus",
    "box_mode": "Boxes paid",
    "boxes_count_toward_target": "Boxes count toward the target",
    "shutout": "Shutout",
    "shutout_bonus": "Flat shutout bonus",
    "shutout_requires_all_hands": "Shutout needs every hand won",
    "dealer_rule": "Next dealer",
    "dead_hand_rule": "After a dead hand",
    "knock_limit": "Knock limit",
    "tie_rule": "A tie",
    "oklahoma": "Oklahoma",
    "oklahoma_ace": "Oklahoma ace upcard",
    "spade_doubles": "Spade upcard doubles",
    "oklahoma_extra_boxes": "Oklahoma extra boxes",
    "hollywood_shift": "Hollywood shift rule",
    "jersey_gin_bonus": "Jersey gin bonus",
    "jersey_undercut_penalty": "Jersey undercut penalty",
    "jersey_target": "Jersey target",
    "partnership_target": "Partnership target",
}
CHOICE_WORDS = {
    "per_hand": "per hand won", "net": "net (winner's boxes less loser's)",
    "double_game_bonus": "doubles the game bonus", "double_total": "doubles the winner's total",
    "double_hand_points": "doubles the winner's hand points", "double_difference": "doubles the difference",
    "flat": "adds a flat bonus", "none": "nothing",
    "alternate": "alternates", "loser_deals": "the loser deals", "winner_deals": "the winner deals",
    "same_dealer": "the same dealer deals", "pass_deal": "the deal passes",
    "undercut": "is an undercut", "no_score": "scores nothing", "knocker": "goes to the knocker",
    "gin_only": "gin only", "one": "limit 1",
}
CONVENTION_GROUPS = [
    ("Bonuses and target", ("gin_bonus", "big_gin_bonus", "undercut_bonus", "target", "game_bonus", "knock_limit",
                            "tie_rule")),
    ("Boxes and shutout", ("box_bonus", "box_mode", "boxes_count_toward_target", "shutout", "shutout_bonus",
                           "shutout_requires_all_hands")),
    ("Dealing", ("dealer_rule", "dead_hand_rule")),
    ("Oklahoma", ("oklahoma", "oklahoma_ace", "spade_doubles", "oklahoma_extra_boxes")),
    ("Other table formats", ("hollywood_shift", "jersey_gin_bonus", "jersey_undercut_penalty", "jersey_target",
                             "partnership_target")),
]
NO_BIG_GIN = "none"


def value_in_words(name: str, value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none (scores as gin)" if name == "big_gin_bonus" else "none"
    return CHOICE_WORDS.get(str(value), str(value))


def conventions_in_words(stored: dict[str, Any]) -> str:
    """A game's conventions as the sheet names them: the preset, then what differs from it
    ("classic, gin bonus 25")."""
    changes = overrides_of(stored)
    words = [str(stored.get("preset", "custom"))]
    words += [f"{CONVENTION_LABELS.get(n, n).lower()} {value_in_words(n, v)}" for n, v in changes.items()]
    return ", ".join(words)


# Fields that only some formats (or some other values) read: the printed sheet leaves out what does not apply.
FORMAT_ONLY_FIELDS = {
    "hollywood_shift": {"hollywood"},
    "jersey_gin_bonus": {"jersey"}, "jersey_undercut_penalty": {"jersey"}, "jersey_target": {"jersey"},
    "partnership_target": {"partnership"},
    "target": {"standard", "hollywood", "rotation"},
    "gin_bonus": {"standard", "hollywood", "rotation", "partnership"},
    "undercut_bonus": {"standard", "hollywood", "rotation", "partnership"},
}
ONLY_WHEN = {
    "shutout_bonus": ("shutout", "flat"),
    "oklahoma_ace": ("oklahoma", True), "spade_doubles": ("oklahoma", True), "oklahoma_extra_boxes": ("oklahoma", True),
}


def conventions_on_paper(stored: dict[str, Any], fmt: str) -> list[tuple[str, str]]:
    """Every convention value this game's format reads, as (label, value in words), for the printed
    sheet: "Gin bonus: 20", "Shutout: doubles the game bonus". The stored set is the game's own."""
    out = [("Preset", str(stored.get("preset", "custom")))]
    for _title, names in CONVENTION_GROUPS:
        for name in names:
            if name not in stored or fmt not in FORMAT_ONLY_FIELDS.get(name, {fmt}):
                continue
            if name in ONLY_WHEN and stored.get(ONLY_WHEN[name][0]) != ONLY_WHEN[name][1]:
                continue
            out.append((CONVENTION_LABELS.get(name, name), value_in_words(name, stored[name])))
    return out


def _convention_field(spec: FieldSpec) -> forms.Field:
    label = CONVENTION_LABELS.get(spec.name, spec.name.replace("_", " ").capitalize())
    if spec.kind == "int" and spec.nullable:
        return forms.RegexField(r"^(\d{1,5}|none)$", label=label, required=False, strip=True,
                                help_text=f"{spec.low} to {spec.high}, or none (an 11-card gin scores as gin)",
                                error_messages={"invalid": f"{label}: a number from {spec.low} to {spec.high}, "
                                                          "or none"},
                                widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 5}))
    if spec.kind == "int":
        says = f"{label}: a whole number from {spec.low} to {spec.high}"
        return WholeNumberFormField(label=label, required=False, min_value=spec.low, max_value=spec.high,
                                  help_text=f"{spec.low} to {spec.high}",
                                  error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), says),
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    if spec.kind == "bool":
        choices = [("", "as the preset"), ("yes", "yes"), ("no", "no")]
    else:
        choices = [("", "as the preset")] + [(c, CHOICE_WORDS.get(c, c)) for c in spec.choices]
    return forms.ChoiceField(label=label, required=False, choices=choices,
                             error_messages={"invalid_choice": f"{label}: choose one of the values listed"})


class ConventionsFormMixin:
    """A form's conventions: a preset, then only the fields that differ from it (each blank field keeps
    the preset's value). Used by the new-game form and the new-event form."""

    def add_convention_fields(self) -> None:
        """A field per convention (after the form's own ``preset`` field)."""
        for spec in field_specs():
            self.fields[f"conv_{spec.name}"] = _convention_field(spec)

    def chosen_preset(self) -> str:
        chosen = self["preset"].value()
        return chosen if chosen in PRESETS else "classic"

    def convention_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, str]]]]:
        """The convention fields by topic, each with the chosen preset's value in words."""
        base = PRESETS[self.chosen_preset()].as_dict()
        return [(title, [(self[f"conv_{n}"], value_in_words(n, base[n])) for n in names])
                for title, names in CONVENTION_GROUPS]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith("conv_") and name != "preset"]

    @staticmethod
    def preset_values() -> dict[str, dict[str, str]]:
        """Each preset's value of each field, in words, for the page to show beside the blank fields."""
        return {name: {f: value_in_words(f, v) for f, v in preset.as_dict().items() if f != "preset"}
                for name, preset in PRESETS.items()}

    def conventions(self) -> dict[str, Any]:
        """The preset and the fields the organiser changed, as the engine's convention object."""
        spec: dict[str, Any] = {"preset": self.cleaned_data["preset"]}
        for name in FIELD_NAMES:
            value = self.cleaned_data.get(f"conv_{name}")
            if value in (None, ""):
                continue
            if value in ("yes", "no"):
                value = value == "yes"
            elif name == "big_gin_bonus":
                value = None if value == NO_BIG_GIN else int(value)
            spec[name] = value
        return spec


class GameForm(ConventionsFormMixin, forms.Form):
    """A new game. Conventions: a preset, then only the fields that differ from it; the resolved set is
    stored with the game."""

    format = forms.ChoiceField(choices=Game.Format.choices)
    player_1 = IdChoiceField(queryset=Player.objects.all())
    player_2 = IdChoiceField(queryset=Player.objects.all())
    player_3 = IdChoiceField(queryset=Player.objects.all(), required=False,
                                      help_text="rotation, Jersey and partnership")
    player_4 = IdChoiceField(queryset=Player.objects.all(), required=False,
                                      help_text="partnership: players 1-2 are one team, 3-4 the other")
    preset = forms.ChoiceField(choices=[(p, p) for p in PRESETS], initial="classic", label="Conventions")
    first_dealer = IdChoiceField(queryset=Player.objects.all(), required=False,
                                          help_text="default: player 1")
    table_label = forms.CharField(max_length=40, required=False)
    is_public = forms.BooleanField(required=False, initial=True, label="Anyone may watch")
    requires_confirmation = forms.BooleanField(required=False, initial=True,
                                               label="Each hand is confirmed by the opponent")
    referees = IdsChoiceField(queryset=get_user_model().objects.order_by("username"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_convention_fields()

    def players(self) -> list[Player]:
        return [self.cleaned_data[f"player_{i}"] for i in range(1, 5) if self.cleaned_data.get(f"player_{i}")]
