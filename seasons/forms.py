"""The season form (organisers): its fields in words; the values are checked together by the service."""

from __future__ import annotations

import re

from django import forms

from core.reading import WholeNumberFormField

from .models import Season
from .services import MAX_POINTS

POINTS_LIST = re.compile(r"[0-9]{1,4}(\s*,\s*[0-9]{1,4})*")


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=80)
    starts_on = forms.DateField(label="First day", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label="Last day", widget=forms.DateInput(attrs={"type": "date"}))
    counts = forms.ChoiceField(label="What counts", choices=Season.Counts.choices, initial=Season.Counts.BOTH)
    placement_points = forms.CharField(label="Points for 1st, 2nd, 3rd, ...", initial="10, 7, 5, 4, 3, 2",
                                       help_text="numbers separated by commas, never rising")
    finisher_points = WholeNumberFormField(label="Points for every other finisher", min_value=0,
                                           max_value=MAX_POINTS, initial=1)
    night_points = WholeNumberFormField(label="Points per club night", min_value=0, max_value=MAX_POINTS, initial=1)
    best_nights = WholeNumberFormField(label="Club nights that count (best N)", min_value=1, max_value=366,
                                       required=False, help_text="leave it empty to count every night")

    def clean_placement_points(self) -> list[int]:
        text = self.cleaned_data["placement_points"].strip()
        if not POINTS_LIST.fullmatch(text):
            raise forms.ValidationError("type the points as numbers separated by commas, such as 10, 7, 5, 4")
        return [int(p) for p in text.split(",")]

    @classmethod
    def initial_of(cls, season: Season) -> dict:
        return {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on,
                "counts": season.counts, "placement_points": ", ".join(map(str, season.placement_points)),
                "finisher_points": season.finisher_points, "night_points": season.night_points,
                "best_nights": season.best_nights}
