"""A tournament table's time on its entry page: the round's clock, what the table does at time, and the
referee's "end the game at time now". The part is refreshed by ``live.js`` (``GET /games/<id>/clock/``), so
a director's pause, resume or extra time, and time itself, reach the phone without a reload.

It reads the clock another app runs (``game_clocks``) and says it in words; it decides nothing at time
(``services.end_game_at_time`` does).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from core.conditional import live_response, not_modified
from core.refusals import Refusal

from .. import game_clocks, policy, services
from ..actors import actor_for
from ..models import Game
from .common import require_official, visible_game


def time_box(game: Game, *, pending: bool) -> dict[str, Any]:
    """The entry page's time part: ``clock`` (None when nothing times the game, or not yet), ``time_note``
    (what the table does now, in words) and ``may_end_at_time`` (time is up, no hand in play or waiting);
    ``timed`` when the game belongs to an app that may run a clock (its part is then followed)."""
    timed = game.status == Game.Status.IN_PROGRESS and bool(game.origin_url)
    clock = game_clocks.game_clock(game.pk) if timed else None
    box = {"timed": timed, "clock": clock, "time_note": time_note(game, clock),
           "may_end_at_time": bool(clock) and clock["status"] == "time" and clock.get("rule") == "finish_hand"
           and game.time_hand is None and not pending}
    return {**box, "time_version": _version(box)}


def time_note(game: Game, clock: dict[str, Any] | None) -> str:
    """What the table does now its round is at time, in words (empty before time)."""
    if game.status != Game.Status.IN_PROGRESS:
        return ""
    if game.time_hand is not None:
        level = ("level: play goes on hand by hand until one side leads" if game.time_level == "play_on"
                 else "level: a draw")
        if game.time_between_hands:  # in progress after it: level, playing on
            return (f"Time was called {game.time_called_words()}: the sides were level, so play goes on hand by "
                    "hand until one side leads; that side wins by the difference.")
        during = f"during hand {game.time_hand}" if game.time_hand else "between hands"
        return (f"Time was called {during}: the game ends once that hand is accepted; the side ahead wins by the "
                f"difference ({level}).")
    if clock is None or clock["status"] != "time":
        return ""
    if clock.get("rule") == "director":
        return "Time: this table waits for the director's result."
    return "Time: finish this hand and record it; the game then ends, the side ahead winning by the difference."


def _version(box: dict[str, Any]) -> str:
    """What the part shows, short of the seconds counted down on the phone: the clock's state and end (or
    the time left while paused), the note and the button."""
    clock = box["clock"] or {}
    paused_left = clock.get("remaining_seconds") if clock.get("status") == "paused" else None
    said = repr((clock.get("status"), str(clock.get("ends_at")), paused_left, clock.get("label"),
                 box["time_note"], box["may_end_at_time"], box["timed"]))
    return hashlib.blake2s(said.encode(), digest_size=8).hexdigest()


@require_GET
def table_clock(request, pk: int):
    """The entry page's time part alone (who may read the game may read it): answered 304 while the phone
    holds what it would show."""
    game = visible_game(request, pk)
    box = time_box(game, pending=bool((game.summary or {}).get("pending_hands")))
    version = box["time_version"]
    etag = f'W/"clock-{version}"'
    if (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    html = render_to_string("scoring/_table_time.html", {**box, "game": game}, request=request)
    return live_response(HttpResponse(html), version, etag=etag)


@require_POST
def end_at_time(request, pk: int):
    """Time is up and no hand is in play: the referee ends the game at time."""
    game = visible_game(request, pk)
    actor = actor_for(request)
    if actor.user is None and actor.link is None:
        return redirect_to_login(request.get_full_path())
    require_official(request, game)
    try:
        services.end_game_at_time(actor=actor, game=game)
    except policy.NotAllowed as exc:
        messages.error(request, f"Nothing changed: {exc}.")
    except Refusal as exc:
        messages.error(request, f"Nothing changed: {exc.problems[0].message}.")
    else:
        if Game.objects.filter(pk=pk, status=Game.Status.IN_PROGRESS).exists():  # level in a bracket: play on
            messages.success(request, "Time is called: the sides are level, so play goes on until one side leads.")
        else:
            messages.success(request, "The game ended at time.")
    return redirect("scoring:enter_hand", pk=pk)


@require_POST
def undo_end_at_time(request, pk: int):
    """A director takes back "end the game at time now" tapped while the table was still playing a hand."""
    game = visible_game(request, pk)
    actor = actor_for(request)
    if actor.user is None:
        return redirect_to_login(request.get_full_path())
    try:
        services.undo_end_at_time(actor=actor, game=game, reason=request.POST.get("reason", ""))
    except policy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except Refusal as exc:
        messages.error(request, f"Nothing changed: {exc.problems[0].message}.")
    else:
        messages.success(request, "Time called on this table is taken back: the game is in progress again, and "
                                  "the hand being played ends it once recorded.")
    return redirect("scoring:game_detail", pk=pk)
