"""Web pages: parse the request, call one service or the engine, render. No scoring rules here."""

import json

from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from .engine import PRESETS

EXAMPLE_SHEET = {
    "format": "standard",
    "conventions": "classic",
    "players": ["Ann", "Bob"],
    "first_dealer": "Ann",
    "hands": [
        {"result": "knock", "knocker": "Ann", "knocker_deadwood": 6, "opponent_deadwood": 19},
        {"result": "gin", "knocker": "Bob", "opponent_deadwood": 31},
        {"result": "big_gin", "knocker": "Bob", "opponent_deadwood": 12},
        {"result": "dead"},
    ],
}


def home(request):
    return render(request, "home.html", {"presets": sorted(PRESETS)})


@ensure_csrf_cookie
def calculator(request):
    return render(
        request,
        "scoring/calculator.html",
        {"example": json.dumps(EXAMPLE_SHEET, indent=2), "presets": sorted(PRESETS)},
    )
