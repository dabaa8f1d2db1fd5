"""The players' forms (organisers and the directors who set PINs): a new player, a player's name, club, email
and rating, a PIN, and merging a duplicate into the player to keep; and the sign-in forms, whose password
guesses count against the same shared limit as the API's."""

from __future__ import annotations

import math

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from core.reading import WholeNumberFormField, text_id


class PlayerForm(forms.Form):
    display_name = forms.CharField(max_length=60)
    club = forms.CharField(max_length=80, required=False)
    email = forms.EmailField(required=False)
    pin = forms.RegexField(r"^[0-9]{4,8}$", required=False, label="PIN",
                           help_text="4 to 8 digits the player types to accept a hand",
                           widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off",
                                                         "maxlength": "8"}),
                           error_messages={"invalid": "a PIN is 4 to 8 digits (0-9)"})


class PlayerEditForm(forms.Form):
    display_name = forms.CharField(max_length=60, label="Name")
    club = forms.CharField(max_length=80, required=False)
    email = forms.EmailField(required=False, help_text="seen by organisers only")
    rating = WholeNumberFormField(required=False, min_value=-(2**31 - 1), max_value=2**31 - 1,
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                                  help_text="the club's rating, if it keeps one: events seed by it (empty: none)")


class PinForm(forms.Form):
    # A text box with a numeric keypad: the browser's own pattern check would answer in its words, not ours.
    pin = forms.RegexField(r"^[0-9]{4,8}$", label="New PIN",
                           help_text="4 to 8 digits the player types to accept a hand",
                           error_messages={"invalid": "a PIN is 4 to 8 digits (0-9)"},
                           widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))


class PlayerIdSelect(forms.ChoiceField):
    """A player chosen from a list that shows only some players (similar names, or those a search found):
    any id is a valid choice, read as a whole number; whether it is a player is the service's to say."""

    def valid_value(self, value):
        return text_id(str(value)) is not None

    def clean(self, value):
        value = super().clean(value)
        return text_id(value) if value else None


class MergeForm(forms.Form):
    """A duplicate player merged into the player to keep: who, and a tick that says the organiser checked."""

    into = PlayerIdSelect(label="The player to keep", error_messages={
        "required": "Choose the player to keep", "invalid_choice": "Choose the player to keep from the list"})
    confirm = forms.BooleanField(label="They are the same person: merge them (this cannot be undone)",
                                 error_messages={"required": "Tick the box to say they are the same person"})

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["into"].choices = [("", "Choose the player to keep"), *choices]


# Each convention field as an organiser reads it (RULES.md's meaning), in the engine's field order.
class LoginThrottleMixin:
    """Password guesses on the web (sign-in page, admin) count against the same shared limit per
    address as ``POST /api/v1/auth/token/`` (``LoginThrottle``)."""

    def clean(self):
        from .throttles import LoginThrottle

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
