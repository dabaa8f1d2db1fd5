"""The table's pages: entering a hand (a partnership: a deal) on the referee's phone with the engine's
preview, accepting it, correcting or voiding it. They parse the form, call one service and render;
who plays and what a hand scores is the engine's to say."""

from __future__ import annotations

import json
import secrets
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from core.reading import text_id
from core.refusals import Refusal

from .. import policy, selectors, services
from ..actors import actor_for
from ..engine import SheetError
from ..forms import (
    AcceptNowForm,
    AmendForm,
    ConfirmForm,
    DealForm,
    HandForm,
    _in_words,
    attach_errors,
)
from ..models import Game, Hand
from ..sheets import (
    hand_lines,
    next_hand_confirmed,
    seating,
    versions_in_words,
)
from .common import REFUSED_TAG, allowed, require_official, visible_game
from .sheet import sheet_context
from .table_time import time_box


def _hand_said(game: Game, number: int) -> str:
    """Hand ``number`` as it stands now, in words (for "hand 4 is already recorded: ...")."""
    lines = hand_lines(game.hands.all())
    return versions_in_words(game, lines).get(
        next(((line.number, line.current.version) for line in lines if line.number == number), (0, 0)), "")


def _entry_form(game: Game, number: int, data=None, initial: dict[str, Any] | None = None) -> HandForm | DealForm:
    """The form for hand ``number`` (the next, or one being corrected), seated as the engine says: a
    partnership deal's two tables, or one hand offering only the players who can knock it."""
    seats = seating(game, hand_lines(game.hands.all()), number)
    if game.format == Game.Format.PARTNERSHIP and seats.tables:
        return DealForm(data, game=game, tables=seats.tables, dealers=seats.table_dealers, initial=initial)
    form = HandForm(data, game=game, knockers=seats.knockers, initial=initial)
    form.seating = seats
    return form


def enter_hand(request, pk: int):
    """The referee's phone page: enter the next hand (a partnership: the next deal, both tables), see
    what it scores, and have the side it goes against read it back and accept it with their PIN in
    the same tap (or later, on the accept card)."""
    game = visible_game(request, pk)
    actor = actor_for(request)
    if actor.user is None and actor.link is None:
        return redirect_to_login(request.get_full_path())
    require_official(request, game)
    next_number = game.hand_count + 1
    # A form sent again (a double tap, Back) is read as seated for the hand it was made for, so that it
    # reaches the service, which records nothing and names the hand already there.
    made_for = text_id(request.POST.get("number"))
    seated_for = made_for if made_for is not None and 1 <= made_for <= next_number else next_number
    form = _entry_form(game, seated_for, request.POST or None,
                       initial={"once": secrets.token_urlsafe(16), "number": next_number})
    accept = AcceptNowForm(request.POST or None, names=list(game.player_names))
    if request.method == "POST" and all([form.is_valid(), accept.is_valid()]):
        unit = "Deal" if isinstance(form, DealForm) else "Hand"
        hand = {"actor": actor, "game": game, "data": form.hand(), "once_key": form.cleaned_data["once"] or None,
                "number": form.cleaned_data["number"]}
        try:
            if accept.accepting:
                services.record_and_accept_hand(**hand, player_name=accept.cleaned_data["accept_player"],
                                                pin=accept.cleaned_data["accept_pin"])
            else:
                services.record_hand(**hand)
        except services.AlreadyRecorded as exc:
            fresh = visible_game(request, pk)
            said = _hand_said(fresh, exc.number)
            messages.error(request, f"Nothing recorded: {exc.problems[0].message}. {unit} {exc.number}: {said}.")
            return redirect("scoring:enter_hand", pk=pk)
        except services.NotAccepted as exc:
            messages.error(request, f"{unit} {exc.hand.number} recorded, not accepted yet: {exc.reason}.",
                           extra_tags=f"{REFUSED_TAG}{exc.hand.number}")
            return redirect(reverse("scoring:enter_hand", args=[pk]) + f"#accept-{exc.hand.number}")
        except policy.NotAllowed as exc:
            form.add_error(None, str(exc))
        except Refusal as exc:
            attach_errors(form, exc)
        else:
            who = f" and accepted by {accept.cleaned_data['accept_player']}" if accept.accepting else ""
            messages.success(request, f"{unit} {next_number} recorded{who}.")
            return redirect("scoring:enter_hand", pk=pk)
    context = sheet_context(request, game)
    accept_now = game.requires_confirmation and allowed(policy.require_may_try_confirming, actor, game)
    context.update({**time_box(game, pending=bool(context.get("pending"))),
                    "form": form, "next_number": next_number, "is_deal": isinstance(form, DealForm),
                    "seats": getattr(form, "seating", None), "form_errors": _error_list(form) + _error_list(accept),
                    "accept_now": accept_now, "accept_form": accept,
                    "offline_pin_players": json.dumps(_pin_holders(game) if accept_now else [])})
    response = render(request, "scoring/enter_hand.html", context)
    # A page brought back by the Back button is fetched again, so it shows the sheet as it is now.
    response["Cache-Control"] = "no-store"
    return response


def _pin_holders(game: Game) -> list[str]:
    """The players of the game who have a PIN, by their names on its sheet: offered on the entry page when
    the phone has no network to ask who a hand goes against (the server checks it when the hand is sent).
    The game's seats are read with it already."""
    return [game.player_names[seat.position] for seat in game.seats.all() if seat.player.confirm_pin]


def _error_list(form: forms.Form) -> list[dict[str, str]]:
    """Each error with the field's name on the page (a deal's table fields carry their prefix) and its
    label; a table's error about no field of it says which table. Unbound forms have none."""
    if not form.is_bound:
        return []
    found = form.all_errors() if isinstance(form, DealForm) else [(form, n, e) for n, e in form.errors.items()]
    out = []
    for owner, name, errors in found:
        message = " ".join(errors)
        if name not in owner.fields and owner.prefix:
            message = f"Table {owner.table_number}: {message}"
        out.append({"field": owner.add_prefix(name) if name in owner.fields else "",
                    "label": str(owner.fields[name].label) if name in owner.fields else "", "message": message})
    return out


@require_POST
def preview_hand(request, pk: int):
    """What the engine would score for the hand on the entry (or correction) form (JSON), saving nothing.
    Errors come with the field's label and a message in words, as the form would show them."""
    game = visible_game(request, pk)
    correcting = text_id(request.GET.get("correct"))
    number = correcting if correcting is not None and 0 < correcting <= game.hand_count else None
    form = _entry_form(game, number or game.hand_count + 1, request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": _error_list(form)}, status=400)
    try:
        preview = selectors.preview_hand(game, form.hand(), number)
    except SheetError as exc:
        attach_errors(form, exc)
        return JsonResponse({"errors": _error_list(form)}, status=400)
    if number is None:
        preview["accept"] = _accept_now(actor_for(request), game, preview.get("accepters", []))
    return JsonResponse(preview)


def _accept_now(actor, game: Game, accepters: list[str]) -> dict[str, list[str]]:
    """Who may accept the previewed hand with a PIN on this phone as it is recorded: the players it goes
    against who have a PIN (the one it costs most first), never the one entering it. Only an official
    of the game learns who has a PIN (the accept card's rule); anyone else is told nobody."""
    if not game.requires_confirmation or not allowed(policy.require_may_try_confirming, actor, game) \
            or not policy.is_official(actor, game):
        return {"pin_players": []}
    draft = Hand(game=game, number=game.hand_count + 1, entered_by=actor.user)
    seated = {game.player_names[seat.position]: seat.player for seat in game.seats.all()}
    return {"pin_players": [name for name in accepters if name in seated and seated[name].confirm_pin
                            and allowed(policy.require_may_accept, name, seated[name], draft, frozenset(accepters))]}


@require_POST
def confirm_hand(request, pk: int, number: int):
    game = visible_game(request, pk)
    names = list(game.player_names)
    form = ConfirmForm(request.POST, names=names)
    with_pin = "pin" in request.POST or "player" in request.POST
    unit = "Deal" if game.format == Game.Format.PARTNERSHIP else "Hand"
    try:
        if with_pin:
            if not form.is_valid():
                problems = "; ".join(e for errors in form.errors.values() for e in errors)
                raise Refusal.one("pin", problems)
            services.confirm_hand(actor=actor_for(request), game=game, number=number,
                                  player_name=form.cleaned_data["player"], pin=form.cleaned_data["pin"])
        else:
            services.confirm_hand(actor=actor_for(request), game=game, number=number)
    except policy.NotAllowed as exc:
        messages.error(request, f"{unit} {number} not confirmed: {exc}.", extra_tags=f"{REFUSED_TAG}{number}")
    except Refusal as exc:
        messages.error(request, f"{unit} {number} not confirmed: {'; '.join(p.message for p in exc.problems)}.",
                       extra_tags=f"{REFUSED_TAG}{number}")
    else:
        messages.success(request, f"{unit} {number} confirmed.")
        return redirect(_safe_next(request, reverse("scoring:game_detail", args=[pk])))
    # Back to the accept card, its PIN box ready for another try.
    return redirect(_safe_next(request, reverse("scoring:game_detail", args=[pk])) + f"#accept-{number}")


def _safe_next(request, default: str) -> str:
    """The form's ``next`` when it is a page of this site; never another host or a javascript: URL."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return default


def correct_hand(request, pk: int, number: int):
    game = visible_game(request, pk)
    require_official(request, game)
    lines = hand_lines(game.hands.all())
    line = next((line for line in lines if line.number == number), None)
    if line is None:
        raise Http404("no such hand")
    current = line.current
    if not allowed(policy.require_can_amend, actor_for(request), game, number,
                    next_hand_confirmed(lines, number), "correct"):
        raise PermissionDenied(f"hand {number + 1} is already confirmed: only an organiser may correct hand "
                               f"{number} now")
    form_class = DealForm if game.format == Game.Format.PARTNERSHIP else HandForm
    form = _entry_form(game, number, request.POST or None, initial=form_class.initial_from(current.data))
    amend = AmendForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and amend.is_valid():
        try:
            services.correct_hand(actor=actor_for(request), game=game, number=number, data=form.hand(),
                                  reason=amend.cleaned_data["reason"])
        except policy.NotAllowed as exc:
            form.add_error(None, str(exc))
        except Refusal as exc:
            others = [p for p in exc.problems if p.field != "reason"]
            if others:
                attach_errors(form, Refusal(others))
            for problem in exc.problems:
                if problem.field == "reason":
                    amend.add_error("reason", _in_words("The reason", problem.message))
        else:
            messages.success(request, f"Hand {number} corrected; later hands rescored.")
            return redirect("scoring:game_detail", pk=pk)
    said = versions_in_words(game, lines)[(number, current.version)]
    return render(request, "scoring/correct_hand.html", {
        "game": game, "title": game.players_title, "number": number, "form": form, "amend_form": amend,
        "current": current, "said": said, "pending": current.confirmed_at is None,
        "form_errors": _error_list(form) + _error_list(amend)})


@require_POST
def void_hand(request, pk: int, number: int):
    game = visible_game(request, pk)
    form = AmendForm(request.POST)
    try:
        if not form.is_valid():
            raise Refusal.one("reason", "say why you void this hand")
        services.void_hand(actor=actor_for(request), game=game, number=number, reason=form.cleaned_data["reason"])
    except Refusal as exc:
        messages.error(request, f"Hand {number} not voided: {exc}")
    else:
        messages.success(request, f"Hand {number} voided; later hands rescored.")
    return redirect("scoring:game_detail", pk=pk)

