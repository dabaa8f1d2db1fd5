"""The club's pages around the games: home, the score calculator, the games list, new players and
games, abandoning and reopening a game, referee links, and the health check. They parse the request,
call one service (or a selector) and render; no scoring rules here."""

from __future__ import annotations

import json
import math
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from core.refusals import Refusal

from .. import policy, selectors, services
from ..actors import (
    SESSION_LINK,
    TooManyWrongTokens,
    actor_for,
    count_wrong_token,
    link_for_token,
    refuse_if_guessing,
)
from ..engine import PRESETS, SheetError, resolve_conventions
from ..engine.readback import describe_hand
from ..forms import (
    CalculatorForm,
    GameForm,
    HandForm,
    attach_errors,
)
from ..models import Game, RefereeLink
from ..player_forms import PlayerForm
from ..sheets import (
    score_bounded_sheet,
)
from ..tables import GameTable, TournamentGameTable
from .common import visible_game

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


def _calculator_rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    names = list(answer["players"])
    return [{"number": h["number"], "dealer": h["dealer"], "said": describe_hand(h),
             "totals": [h["totals"][n] for n in names]} for h in answer["hands"]]


@ensure_csrf_cookie
def calculator(request):
    """The score calculator as a form of hands (the entry page's own fields and card picker), scored by
    the engine on every step; the sheet as JSON is there for programmers. Nothing is stored."""
    setup = CalculatorForm(request.POST or None)
    hands: list[dict[str, Any]] = []
    answer, hand_form, problem = None, None, None
    if setup.is_valid():
        hands = setup.cleaned_data["hands"]
        names = setup.names()
        conventions = resolve_conventions(setup.cleaned_data["preset"]).as_dict()
        table = Game(format=setup.cleaned_data["format"], conventions=conventions, player_names=names)
        action = request.POST.get("action", "")
        if action == "undo":
            hands = hands[:-1]
        hand_form = HandForm(request.POST if action == "add" else None, game=table)
        try:
            if action == "add" and hand_form.is_valid():
                try:
                    answer = score_bounded_sheet(setup.request([*hands, hand_form.hand()]))
                except SheetError as exc:
                    attach_errors(hand_form, exc)
                else:
                    hands = [*hands, hand_form.hand()]
                    hand_form = HandForm(game=table)
            if answer is None:
                answer = score_bounded_sheet(setup.request(hands))
        except SheetError as exc:
            problem = "; ".join(p.message for p in exc.problems)
    elif request.method == "GET":
        setup = CalculatorForm(initial={"hands": "[]"})
        table = Game(format="standard", conventions=resolve_conventions("classic").as_dict(),
                     player_names=["Ann", "Bob"])
        hand_form = HandForm(game=table)
        answer = score_bounded_sheet({"conventions": "classic", "players": ["Ann", "Bob"], "hands": []})
    sheet = setup.request(hands) if setup.is_bound and setup.is_valid() else EXAMPLE_SHEET
    return render(request, "scoring/calculator.html", {
        "setup": setup, "form": hand_form, "answer": answer, "problem": problem,
        "rows": _calculator_rows(answer) if answer else [],
        "hands_json": json.dumps(hands), "example": json.dumps(sheet, indent=2),
        "answer_json": json.dumps(answer, indent=2) if answer else "",
        "presets": sorted(PRESETS),
    })

GAME_LISTS = {"club": "Club games", "events": "Tournament tables"}


def game_list(request):
    """The games, club games apart from the tables tournaments made (those under their event)."""
    actor = actor_for(request)
    visible = selectors.visible_games(actor)
    status = request.GET.get("status")
    if status in Game.Status.values:
        visible = visible.filter(status=status)
    counts = selectors.games_by_origin(visible)
    show = request.GET.get("show")
    if show not in GAME_LISTS:  # the club's own games first, unless it has none and tournaments do
        show = "events" if counts["events"] and not counts["club"] else "club"
    games = selectors.with_seats(visible.filter(origin_label="") if show == "club"
                                 else visible.exclude(origin_label=""))
    table = (GameTable if show == "club" else TournamentGameTable)(games)
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    lists = [(key, label, counts[key]) for key, label in GAME_LISTS.items()]
    return render(request, "scoring/game_list.html", {
        "table": table, "status": status, "statuses": Game.Status.choices, "actor": actor, "show": show,
        "lists": lists, "list_query": f"show={show}&"})


@ensure_csrf_cookie
def referee_link(request):
    """A referee link opened on a phone. The token travels in the URL's fragment (``/r/#<token>``),
    which browsers never send, and reaches the server only in this page's POST: it stays out of
    access logs. The session then remembers the link by its id."""
    if request.method == "POST":
        try:
            refuse_if_guessing(request)
            link = link_for_token(request.POST.get("token", "").strip())
            if link is None:
                count_wrong_token(request)
        except TooManyWrongTokens as refused:
            error = (f"Too many unknown links were opened from this address: try again in "
                     f"{math.ceil(refused.wait)} seconds.")
            response = render(request, "scoring/referee_link.html", {"error": error}, status=429)
            response["Retry-After"] = str(math.ceil(refused.wait))
            return response
        if link is not None:
            request.session.cycle_key()
            request.session[SESSION_LINK] = link.pk
            return redirect("scoring:enter_hand", pk=link.game_id)
        error = "This referee link is unknown, expired or was revoked: ask the organiser for a new one."
        return render(request, "scoring/referee_link.html", {"error": error}, status=404)
    return render(request, "scoring/referee_link.html", {})


def _link_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("scoring:referee_link")) + "#" + token


@login_required
def referee_links(request, pk: int):
    game = visible_game(request, pk)
    actor = actor_for(request)
    if not actor.is_organiser:
        raise PermissionDenied("only an organiser manages referee links")
    if request.method == "POST":
        try:
            if "revoke" in request.POST or "extend" in request.POST:
                link = RefereeLink.objects.get(pk=request.POST.get("revoke") or request.POST["extend"], game=game)
                if "revoke" in request.POST:
                    services.revoke_referee_link(actor=actor, link=link)
                    messages.success(request, "Link revoked: it no longer works.")
                else:
                    link = services.extend_referee_link(actor=actor, link=link)
                    messages.success(request, f"Link extended: it works until {link.expires_at:%d %b %H:%M}.")
            else:
                link = services.create_referee_link(actor=actor, game=game, label=request.POST.get("label", ""))
                # Shown once, on the next page: only the token's digest is kept.
                request.session["new_referee_link"] = [link.pk, link.token]
                messages.success(request, "New referee link created: print or copy it now, it is shown only once.")
        except (Refusal, RefereeLink.DoesNotExist, ValueError) as exc:
            messages.error(request, str(exc))
        return redirect("scoring:referee_links", pk=pk)
    new_pk, new_token = request.session.pop("new_referee_link", [None, None])
    links = []
    for link in game.referee_links.all():
        url = _link_url(request, new_token) if link.pk == new_pk else ""
        qr = segno.make(url, error="m").svg_inline(scale=4) if url and link.is_active else ""
        links.append({"link": link, "url": url, "qr": qr})
    return render(request, "scoring/referee_links.html", {"game": game, "links": links})

def _require_organiser(request, what: str) -> None:
    """Forms only an organiser may send are not even shown to anyone else (no form to be refused at the end)."""
    try:
        policy.require_organiser(actor_for(request), what)
    except policy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None


@login_required
def new_player(request):
    _require_organiser(request, "add players")
    form = PlayerForm(request.POST or None)
    existing = None
    if request.method == "POST" and form.is_valid():
        try:
            player = services.create_player(actor=actor_for(request), **form.cleaned_data)
        except services.NameTaken as exc:
            attach_errors(form, exc)
            existing = exc.player
        except Refusal as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, f"{player} added.")
            return redirect("scoring:new_player")
    return render(request, "scoring/new_player.html", {"form": form, "title": "New player", "existing": existing})


@login_required
def new_game(request):
    _require_organiser(request, "create games")
    initial = {f"player_{i}": request.GET[f"player_{i}"] for i in range(1, 5) if request.GET.get(f"player_{i}")}
    form = GameForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                actor=actor_for(request), format=form.cleaned_data["format"], players=form.players(),
                conventions=form.conventions(), first_dealer=form.cleaned_data.get("first_dealer"),
                table_label=form.cleaned_data["table_label"], is_public=form.cleaned_data["is_public"],
                requires_confirmation=form.cleaned_data["requires_confirmation"],
                referees=list(form.cleaned_data["referees"]),
            )
        except policy.NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        except Refusal as exc:
            attach_errors(form, exc, aliases={"players": "player_1"})
        else:
            messages.success(request, "Game created.")
            return redirect("scoring:game_detail", pk=game.pk)
    return render(request, "scoring/new_game.html", {"form": form, "title": "New game",
                                                     "presets": form.preset_values()})


@require_POST
def abandon_game(request, pk: int):
    game = visible_game(request, pk)
    try:
        services.abandon_game(actor=actor_for(request), game=game, reason=request.POST.get("reason", ""))
    except policy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except Refusal as exc:
        messages.error(request, f"Game not abandoned: {exc}")
    return redirect("scoring:game_detail", pk=pk)


@require_POST
def reopen_game(request, pk: int):
    game = visible_game(request, pk)
    try:
        services.reopen_game(actor=actor_for(request), game=game, reason=request.POST.get("reason", ""))
    except policy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except Refusal as exc:
        messages.error(request, f"Game not reopened: {exc}")
    else:
        messages.success(request, "Game reopened.")
    return redirect("scoring:game_detail", pk=pk)

def healthz(request):
    """For load balancers: 200 only when the database answers."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return HttpResponse("database unavailable", content_type="text/plain", status=503)
    return HttpResponse("ok", content_type="text/plain")
