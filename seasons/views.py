"""Web pages of the seasons app: the seasons, a season's ladder, a player's season, and the organisers'
season form (new and change). Views parse the form, call one service or selector, render; no points rules."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render

from core.refusals import Refusal
from scoring import policy
from scoring.actors import actor_for
from scoring.engine import SheetError
from scoring.forms import attach_errors
from scoring.models import Player

from . import selectors, services
from .forms import SeasonForm
from .models import Season


def _season(pk: int) -> Season:
    try:
        return selectors.seasons().get(pk=pk)
    except Season.DoesNotExist:
        raise Http404("No such season") from None


def _require_organiser(request, what: str) -> None:
    try:
        policy.require_organiser(actor_for(request), what)
    except policy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None


def season_list(request):
    return render(request, "seasons/season_list.html", {
        "seasons": list(selectors.seasons()), "may_create": actor_for(request).is_organiser})


def ladder(request, pk: int):
    season = _season(pk)
    return render(request, "seasons/ladder.html", {
        "season": season, "rows": selectors.season_ladder(season), "may_change": actor_for(request).is_organiser,
        "table": selectors.points_table(season)})


def player_season(request, pk: int, player_id: int):
    season = _season(pk)
    try:
        found = selectors.player_season(season, player_id)
    except Player.DoesNotExist:
        raise Http404("No such player") from None
    return render(request, "seasons/player.html", {"season": season, "found": found})


def _read(form: SeasonForm) -> bool:
    """Whether the form could be read whole. When it could not (a date that is no date), the values it did read
    are still checked, so every problem is named at once, not one per try."""
    if form.is_valid():
        return True
    readable = {f: v for f, v in form.cleaned_data.items() if f not in form.errors}
    problems = [p for p in services.season_problems(readable) if p.field.split(".")[0] not in form.errors]
    if problems:
        attach_errors(form, SheetError(problems))
    return False


@login_required
def new_season(request):
    _require_organiser(request, "create seasons")
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and _read(form):
        try:
            season = services.create_season(actor=actor_for(request), **form.cleaned_data)
        except Refusal as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, f"{season.name} created.")
            return redirect("seasons:ladder", pk=season.pk)
    return render(request, "seasons/season_form.html", {"form": form, "title": "New season"})


@login_required
def change_season(request, pk: int):
    _require_organiser(request, "change seasons")
    season = _season(pk)
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_of(season))
    if request.method == "POST" and _read(form):
        try:
            services.update_season(actor=actor_for(request), season=season, changes=form.cleaned_data)
        except Refusal as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, f"{form.cleaned_data['name'].strip()} changed.")
            return redirect("seasons:ladder", pk=season.pk)
    return render(request, "seasons/season_form.html", {"form": form, "title": f"Change {season.name}",
                                                        "season": season})
