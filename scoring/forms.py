"""Web forms: turn what a referee taps on a phone into the score-sheet contract's hand (and back).

No rules here: the engine refuses bad hands and the services refuse what a role may not do; their
messages are attached to the field they name.
"""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.forms.fields import InvalidJSONInput

from .api.parsers import depth_exceeds
from .engine import PRESETS, SheetError
from .models import Game, Player

RESULTS = [("knock", "Knock"), ("gin", "Gin"), ("big_gin", "Big gin"), ("dead", "Dead hand")]
WEB_ENTRY_FORMATS = {"standard", "hollywood", "rotation", "jersey"}


def attach_errors(form: forms.Form, error: SheetError, aliases: dict[str, str] | None = None) -> None:
    """Put the engine's or a service's problems on the fields they name (or on the form)."""
    aliases = aliases or {}
    for problem in error.problems:
        field = problem.field.split(".")[0].split("[")[0] if problem.field else None
        field = aliases.get(field, field) if field else None
        prefix = f"Hand {problem.hand}: " if problem.hand else ""
        if field in form.fields:
            form.add_error(field, prefix + problem.message)
        else:
            where = f"{problem.field}: " if problem.field else ""
            form.add_error(None, prefix + where + problem.message)


class HandForm(forms.Form):
    """One hand as the referee enters it: counts, or the cards (a card picker fills the card fields)."""

    result = forms.ChoiceField(choices=RESULTS, widget=forms.RadioSelect)
    knocker = forms.ChoiceField(required=False, widget=forms.RadioSelect)
    knocker_deadwood = forms.IntegerField(required=False, min_value=0, max_value=98,
                                          widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    opponent_deadwood = forms.IntegerField(required=False, min_value=0, max_value=98,
                                           widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    upcard = forms.CharField(required=False, max_length=4, help_text="the deal's first upcard, like 7S")
    knocker_cards = forms.CharField(required=False, widget=forms.HiddenInput)
    opponent_cards = forms.CharField(required=False, widget=forms.HiddenInput)
    # One key per rendered form: a double tap or a resubmitted page records the hand once.
    once = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        names = list(game.player_names)
        self.fields["knocker"].choices = [(n, n) for n in names]
        if not game.conventions.get("oklahoma"):
            del self.fields["upcard"]
        if game.format == Game.Format.JERSEY:
            del self.fields["opponent_deadwood"], self.fields["knocker_cards"], self.fields["opponent_cards"]
            for name in names:
                self.fields[f"deadwood_{name}"] = forms.IntegerField(
                    required=False, min_value=0, max_value=98, label=f"{name}'s deadwood (if not the knocker)",
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )

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
        for name in ("knocker_cards", "opponent_cards"):
            if name in hand:
                initial[name] = " ".join(hand[name])
        for name, value in hand.get("deadwood", {}).items():
            initial[f"deadwood_{name}"] = value
        return initial


class AmendForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.TextInput(attrs={"placeholder": "why"}))


class ConfirmForm(forms.Form):
    player = forms.ChoiceField(label="Who is accepting?")
    pin = forms.CharField(label="PIN", max_length=8, widget=forms.PasswordInput(
        attrs={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}))

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(n, n) for n in names]


class PlayerForm(forms.Form):
    display_name = forms.CharField(max_length=60)
    club = forms.CharField(max_length=80, required=False)
    email = forms.EmailField(required=False)
    pin = forms.RegexField(r"^[0-9]{4,8}$", required=False, help_text="4 to 8 digits the player types to accept a hand",
                           error_messages={"invalid": "a PIN is 4 to 8 digits (0-9)"})


class FlatJSONField(forms.JSONField):
    """JSON of at most two levels (an object of fields); deeper nesting is refused, never a crash."""

    def to_python(self, value):
        try:
            data = super().to_python(value)
        except RecursionError:
            data = None
            deep = True
        else:
            deep = depth_exceeds(data, 2)
        if deep:
            raise forms.ValidationError("give one flat object of fields, like {\"gin_bonus\": 25}")
        return data

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except RecursionError:
            return InvalidJSONInput(data)


class GameForm(forms.Form):
    format = forms.ChoiceField(choices=Game.Format.choices)
    player_1 = forms.ModelChoiceField(queryset=Player.objects.all())
    player_2 = forms.ModelChoiceField(queryset=Player.objects.all())
    player_3 = forms.ModelChoiceField(queryset=Player.objects.all(), required=False,
                                      help_text="rotation, Jersey and partnership")
    player_4 = forms.ModelChoiceField(queryset=Player.objects.all(), required=False,
                                      help_text="partnership: players 1-2 are one team, 3-4 the other")
    preset = forms.ChoiceField(choices=[(p, p) for p in PRESETS], initial="classic")
    overrides = FlatJSONField(required=False, max_length=4000,
                              help_text='any convention fields, like {"gin_bonus": 25}')
    first_dealer = forms.ModelChoiceField(queryset=Player.objects.all(), required=False,
                                          help_text="default: player 1")
    table_label = forms.CharField(max_length=40, required=False)
    is_public = forms.BooleanField(required=False, initial=True, label="Anyone may watch")
    requires_confirmation = forms.BooleanField(required=False, initial=True,
                                               label="Each hand is confirmed by the opponent")
    referees = forms.ModelMultipleChoiceField(queryset=get_user_model().objects.order_by("username"), required=False)

    def players(self) -> list[Player]:
        return [self.cleaned_data[f"player_{i}"] for i in range(1, 5) if self.cleaned_data.get(f"player_{i}")]

    def conventions(self) -> dict[str, Any]:
        overrides = self.cleaned_data.get("overrides") or {}
        if not isinstance(overrides, dict):
            raise SheetError.one(None, "overrides", "must be an object of convention fields")
        return {"preset": self.cleaned_data["preset"], **overrides}


class LoginThrottleMixin:
    """Password guesses on the web (sign-in page, admin) count against the same shared limit per
    address as ``POST /api/v1/auth/token/`` (``LoginThrottle``)."""

    def clean(self):
        from .api.throttles import LoginThrottle

        throttle = LoginThrottle()
        if self.request is not None and not throttle.allow_request(self.request, None):
            raise forms.ValidationError(
                f"Too many sign-in attempts from this address: try again in {math.ceil(throttle.wait())} seconds.",
                code="throttled",
            )
        return super().clean()


class SignInForm(LoginThrottleMixin, AuthenticationForm):
    pass


class AdminSignInForm(LoginThrottleMixin, AdminAuthenticationForm):
    pass
