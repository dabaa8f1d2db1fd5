"""Web pages: parse the request, call one service (or a selector), render. No scoring rules here."""

from __future__ import annotations

import json
import secrets
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from . import policy, selectors, services
from .api.auth import SESSION_LINK, actor_for, link_for_token
from .engine import PRESETS, SheetError, resolve_conventions
from .engine.readback import describe_hand
from .forms import (
    AmendForm,
    CalculatorForm,
    ConfirmForm,
    DealForm,
    GameForm,
    HandForm,
    PlayerForm,
    _in_words,
    attach_errors,
    conventions_in_words,
    conventions_on_paper,
)
from .models import Game, Hand, RefereeLink
from .reading import text_id
from .sheets import (
    HandLine,
    PendingHand,
    hand_lines,
    next_hand_confirmed,
    pending_hands,
    score_bounded_sheet,
    seating,
    versions_in_words,
)
from .tables import GameTable

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
CHART_WIDTH, CHART_HEIGHT = 600, 220
CHART_COLOURS = ["#1f6f4a", "#a4262c", "#1b4f9c", "#8a5a00"]


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


def _visible_game(request, pk: int) -> Game:
    try:
        return selectors.game_for_sheet(actor_for(request), pk)
    except Game.DoesNotExist:
        raise Http404("no such game, or it is not public") from None


def game_list(request):
    actor = actor_for(request)
    games = selectors.with_seats(selectors.visible_games(actor))
    status = request.GET.get("status")
    if status in Game.Status.values:
        games = games.filter(status=status)
    table = GameTable(games)
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    return render(request, "scoring/game_list.html", {"table": table, "status": status,
                                                       "statuses": Game.Status.choices, "actor": actor})


def _columns(game: Game, sheet: dict[str, Any]) -> list[str]:
    if "teams" in sheet:
        return [" & ".join(t["players"]) for t in sheet["teams"]]
    return list(sheet["players"])


def _scored_row(hand: dict[str, Any], sheet: dict[str, Any], columns: list[str]) -> dict[str, Any]:
    if "tables" in hand:  # partnership deal
        totals = hand["totals"]
        winner = None if hand["scoring_team"] is None else columns[hand["scoring_team"]]
        points = max(hand["team_points"])
        outcome = ", ".join(t["outcome"] for t in hand["tables"])
        dealer = " / ".join(t["dealer"] for t in hand["tables"])
    else:
        totals = [hand["totals"][name] for name in sheet["players"]]
        winner, points, outcome, dealer = hand["winner"], hand["points"], hand["outcome"], hand["dealer"]
    return {"number": hand["number"], "dealer": dealer, "outcome": outcome.replace("_", " "),
            "winner": winner, "points": points, "boxes": hand.get("boxes", 0), "totals": totals,
            "games": hand.get("games"), "penalty": hand.get("penalty"), "kind": "scored"}


def _rows(sheet: dict[str, Any], columns: list[str], lines: list[HandLine],
          pending: dict[int, PendingHand]) -> list[dict[str, Any]]:
    """The paper score-pad rows in hand-number order: each counted hand with its running totals, a void
    in its place with its reason, a corrected hand marked; then the hands still awaiting acceptance."""
    scored = {hand["number"]: hand for hand in sheet["hands"]}
    rows = []
    for position, line in enumerate(lines):
        counted = line.counted if position < sheet["counted_hands"] else None
        if counted is None:
            if line.number in pending:
                rows.append({"number": line.number, "kind": "pending", "pending": pending[line.number]})
            else:
                rows.append({"number": line.number, "kind": "waiting"})
            continue
        if counted.action == Hand.Action.VOID:
            row = {"number": line.number, "kind": "void", "reason": counted.reason}
        else:
            row = _scored_row(scored[line.number], sheet, columns)
        row["corrected"] = counted.version > 1
        row["pending"] = pending.get(line.number)
        rows.append(row)
    return rows


def _chart(columns: list[str], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Polylines of running totals, hand by hand, scaled into the chart's box."""
    rows = [r for r in rows if r["kind"] == "scored"]
    if not rows:
        return []
    high = max([1] + [max(r["totals"]) for r in rows])
    low = min([0] + [min(r["totals"]) for r in rows])
    step = CHART_WIDTH / max(1, len(rows))
    lines = []
    for i, name in enumerate(columns):
        points = [(0, 0)] + [((k + 1) * step, r["totals"][i]) for k, r in enumerate(rows)]
        scaled = " ".join(
            f"{x:.1f},{CHART_HEIGHT - (y - low) / (high - low) * (CHART_HEIGHT - 10) - 5:.1f}" for x, y in points
        )
        lines.append({"name": name, "points": scaled, "colour": CHART_COLOURS[i % len(CHART_COLOURS)]})
    return lines


def _hollywood_pad(sheet: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The Hollywood sheet as the paper pad: a column pair per game, each hand's win written as the
    winner's new running total in every game it was credited to, a rule under the hand that closed a
    game, then each game's settlement and the match net. Every number is one of the engine's answer."""
    games = sheet["games"]
    rows = []
    for hand in sheet["hands"]:
        cells = []
        for index, game in enumerate(games):
            credited = game["number"] in hand["games"]
            closes = game["closed_after_hand"] == hand["sheet_position"]
            closed = game["closed_after_hand"] is not None and hand["sheet_position"] > game["closed_after_hand"]
            for name in names:
                won = credited and hand["winner"] == name
                cells.append({"game": game["number"], "player": name, "won": won, "closes": closes,
                              "starts_pair": name == names[0],
                              "closed": closed, "value": hand["game_totals"][index][name] if won else None})
        rows.append({"number": hand["number"], "winner": hand["winner"], "points": hand["points"],
                     "outcome": hand["outcome"].replace("_", " "), "cells": cells})
    settled = [{"number": g["number"], "complete": g["complete"], "winner": g["winner"], "margin": g["margin"],
                "standings": [(name, g["players"][name]) for name in names]} for g in games]
    return {"names": names, "games": settled, "rows": rows, "complete": sheet["complete"],
            "winner": sheet["winner"], "margin": sheet["margin"], "net": [(n, sheet["net"][n]) for n in names],
            "any_closed": any(g["complete"] for g in games)}


def _on_paper(game: Game) -> dict[str, Any]:
    """What the printed sheet carries beside the scores: the date, the table, the club(s) of the
    players, every convention value in words and who signs it (the two sides, or a referee and the
    players of a three-player game)."""
    clubs = list(dict.fromkeys(seat.player.club for seat in game.seats.all() if seat.player.club))
    names = list(game.player_names)
    if game.format == Game.Format.PARTNERSHIP:
        signers = [" & ".join(names[:2]), " & ".join(names[2:])]
    elif len(names) == 2:
        signers = names
    else:
        signers = ["Referee", " / ".join(names)]
    return {"date": timezone.localtime(game.created_at), "clubs": clubs,
            "conventions": conventions_on_paper(game.conventions, game.format), "signers": signers}


def _allowed(check, *args, **kwargs) -> bool:
    """Whether a ``policy`` rule lets this through: pages show only the buttons a user may use."""
    try:
        check(*args, **kwargs)
    except (policy.NotAllowed, Game.DoesNotExist):
        return False
    return True


def _accept_options(actor, game: Game, pending: PendingHand) -> dict[str, Any]:
    """How this hand can be accepted from this page: the players who may accept it and have a PIN (the
    one it costs most first), and a button for the signed-in player or second official, if any."""
    accepters = frozenset(pending.accepters)
    if not _allowed(policy.require_may_try_confirming, actor, game):
        return {"pin_players": [], "direct": None, "no_pin": []}
    seated = {game.player_names[seat.position]: seat.player for seat in game.seats.all()}
    pin_players, no_pin = [], []
    for name in pending.accepters:
        player = seated.get(name)
        if player is None or not _allowed(policy.require_may_accept, name, player, pending.hand, accepters):
            continue
        (pin_players if player.confirm_pin else no_pin).append(name)
    direct = None
    if _allowed(policy.require_can_confirm, actor, game, pending.hand, accepters=accepters):
        me = policy.seated_player(actor, game)
        direct = f"Accept as {policy.seat_name(game, me)}" if me is not None else "Confirm as second official"
    form = ConfirmForm(names=pin_players, initial={"player": pin_players[0]}) if pin_players else None
    return {"pin_players": pin_players, "direct": direct, "no_pin": no_pin, "form": form}


def _title(game: Game) -> str:
    """Players as the table sees them: "Ann v Bob", teams "Ann & Cleo v Bob & Dev"."""
    return game.players_title


def _sheet_context(request, game: Game) -> dict[str, Any]:
    actor = actor_for(request)
    lines = hand_lines(game.hands.all())
    sheet = selectors.scored_sheet(game)
    columns = _columns(game, sheet)
    pending = {p.number: p for p in pending_hands(game, lines)}
    rows = _rows(sheet, columns, lines, pending)
    standings = sheet["teams"] if "teams" in sheet else [sheet["players"][n] for n in sheet["players"]]
    is_official = policy.is_official(actor, game)
    for p in pending.values():
        p.options = _accept_options(actor, game, p) if game.status != Game.Status.ABANDONED else {}
    amendable = set()
    if is_official and game.status != Game.Status.ABANDONED:
        amendable = {line.number for line in lines if _allowed(
            policy.require_can_amend, actor, game, line.number, next_hand_confirmed(lines, line.number), "correct")}
    return {
        "game": game,
        "sheet": sheet,
        "columns": columns,
        "rows": rows,
        "pending": list(pending.values()),
        "standings": list(zip(columns, standings, strict=True)),
        "chart": _chart(columns, rows),
        "chart_size": (CHART_WIDTH, CHART_HEIGHT),
        "is_official": is_official,
        "is_organiser": actor.is_organiser,
        "can_enter": is_official,
        "amendable": sorted(amendable),
        "last_hand": lines[-1].number if lines and lines[-1].number in amendable else None,
        "names": list(game.player_names),
        "title": _title(game),
        "conventions_words": conventions_in_words(game.conventions),
        "pad": _hollywood_pad(sheet, list(sheet["players"])) if game.format == Game.Format.HOLLYWOOD else None,
        "paper": _on_paper(game),
    }


def game_detail(request, pk: int):
    game = _visible_game(request, pk)
    return render(request, "scoring/game_detail.html", _sheet_context(request, game))


def game_sheet_fragment(request, pk: int):
    """The score sheet alone, for the page's self-refresh while a game is in progress."""
    game = _visible_game(request, pk)
    response = render(request, "scoring/_sheet.html", _sheet_context(request, game))
    response["X-Game-Updated"] = game.updated_at.isoformat()
    return response


def game_history(request, pk: int):
    game = _visible_game(request, pk)
    lines = hand_lines(game.hands.all())
    said = versions_in_words(game, lines)
    versions = [{"hand": v, "said": said[(v.number, v.version)]} for line in lines for v in line.versions]
    return render(request, "scoring/game_history.html", {
        "game": game, "title": _title(game), "versions": versions,
        "personal_data": policy.sees_personal_data(actor_for(request))})


def _require_official(request, game: Game):
    if not policy.is_official(actor_for(request), game):
        raise PermissionDenied("only an organiser or this game's referee may record hands in it")


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
    what it scores, have the other side accept it."""
    game = _visible_game(request, pk)
    actor = actor_for(request)
    if actor.user is None and actor.link is None:
        return redirect_to_login(request.get_full_path())
    _require_official(request, game)
    next_number = game.hand_count + 1
    # A form sent again (a double tap, Back) is read as seated for the hand it was made for, so that it
    # reaches the service, which records nothing and names the hand already there.
    made_for = text_id(request.POST.get("number"))
    seated_for = made_for if made_for is not None and 1 <= made_for <= next_number else next_number
    form = _entry_form(game, seated_for, request.POST or None,
                       initial={"once": secrets.token_urlsafe(16), "number": next_number})
    if request.method == "POST" and form.is_valid():
        try:
            services.record_hand(actor=actor, game=game, data=form.hand(),
                                 once_key=form.cleaned_data["once"] or None, number=form.cleaned_data["number"])
        except services.AlreadyRecorded as exc:
            fresh = _visible_game(request, pk)
            said = _hand_said(fresh, exc.number)
            messages.error(request, f"Nothing recorded: {exc.problems[0].message}. Hand {exc.number}: {said}.")
            return redirect("scoring:enter_hand", pk=pk)
        except SheetError as exc:
            attach_errors(form, exc)
        except policy.NotAllowed as exc:
            form.add_error(None, str(exc))
        else:
            what = "Deal" if isinstance(form, DealForm) else "Hand"
            messages.success(request, f"{what} {next_number} recorded.")
            return redirect("scoring:enter_hand", pk=pk)
    context = _sheet_context(request, game)
    context.update({"form": form, "next_number": next_number, "is_deal": isinstance(form, DealForm),
                    "seats": getattr(form, "seating", None)})
    response = render(request, "scoring/enter_hand.html", context)
    # A page brought back by the Back button is fetched again, so it shows the sheet as it is now.
    response["Cache-Control"] = "no-store"
    return response


def _error_list(form: HandForm | DealForm) -> list[dict[str, str]]:
    """Each error with the field's name on the page (a deal's table fields carry their prefix) and its
    label; a table's error about no field of it says which table."""
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
    game = _visible_game(request, pk)
    correcting = text_id(request.GET.get("correct"))
    number = correcting if correcting is not None and 0 < correcting <= game.hand_count else None
    form = _entry_form(game, number or game.hand_count + 1, request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": _error_list(form)}, status=400)
    try:
        return JsonResponse(selectors.preview_hand(game, form.hand(), number))
    except SheetError as exc:
        attach_errors(form, exc)
        return JsonResponse({"errors": _error_list(form)}, status=400)


@require_POST
def confirm_hand(request, pk: int, number: int):
    game = _visible_game(request, pk)
    names = list(game.player_names)
    form = ConfirmForm(request.POST, names=names)
    with_pin = "pin" in request.POST or "player" in request.POST
    unit = "Deal" if game.format == Game.Format.PARTNERSHIP else "Hand"
    try:
        if with_pin:
            if not form.is_valid():
                problems = "; ".join(e for errors in form.errors.values() for e in errors)
                raise SheetError.one(number, "pin", problems)
            services.confirm_hand(actor=actor_for(request), game=game, number=number,
                                  player_name=form.cleaned_data["player"], pin=form.cleaned_data["pin"])
        else:
            services.confirm_hand(actor=actor_for(request), game=game, number=number)
    except SheetError as exc:
        messages.error(request, f"{unit} {number} not confirmed: {'; '.join(p.message for p in exc.problems)}.")
    except policy.NotAllowed as exc:
        messages.error(request, f"{unit} {number} not confirmed: {exc}.")
    else:
        messages.success(request, f"{unit} {number} confirmed.")
    return redirect(_safe_next(request, reverse("scoring:game_detail", args=[pk])))


def _safe_next(request, default: str) -> str:
    """The form's ``next`` when it is a page of this site; never another host or a javascript: URL."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return default


def correct_hand(request, pk: int, number: int):
    game = _visible_game(request, pk)
    _require_official(request, game)
    lines = hand_lines(game.hands.all())
    line = next((line for line in lines if line.number == number), None)
    if line is None:
        raise Http404("no such hand")
    current = line.current
    if not _allowed(policy.require_can_amend, actor_for(request), game, number,
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
        except SheetError as exc:
            others = [p for p in exc.problems if p.field != "reason"]
            if others:
                attach_errors(form, SheetError(others))
            for problem in exc.problems:
                if problem.field == "reason":
                    amend.add_error("reason", _in_words("The reason", problem.message))
        except policy.NotAllowed as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Hand {number} corrected; later hands rescored.")
            return redirect("scoring:game_detail", pk=pk)
    said = versions_in_words(game, lines)[(number, current.version)]
    return render(request, "scoring/correct_hand.html", {
        "game": game, "title": _title(game), "number": number, "form": form, "amend_form": amend,
        "current": current, "said": said, "pending": current.confirmed_at is None})


@require_POST
def void_hand(request, pk: int, number: int):
    game = _visible_game(request, pk)
    form = AmendForm(request.POST)
    try:
        if not form.is_valid():
            raise SheetError.one(number, "reason", "say why you void this hand")
        services.void_hand(actor=actor_for(request), game=game, number=number, reason=form.cleaned_data["reason"])
    except (SheetError, policy.NotAllowed) as exc:
        messages.error(request, f"Hand {number} not voided: {exc}")
    else:
        messages.success(request, f"Hand {number} voided; later hands rescored.")
    return redirect("scoring:game_detail", pk=pk)


@ensure_csrf_cookie
def referee_link(request):
    """A referee link opened on a phone. The token travels in the URL's fragment (``/r/#<token>``),
    which browsers never send, and reaches the server only in this page's POST: it stays out of
    access logs. The session then remembers the link by its id."""
    if request.method == "POST":
        link = link_for_token(request.POST.get("token", "").strip())
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
    game = _visible_game(request, pk)
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
        except (policy.NotAllowed, SheetError, RefereeLink.DoesNotExist, ValueError) as exc:
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
        except SheetError as exc:
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
        except SheetError as exc:
            attach_errors(form, exc, aliases={"players": "player_1"})
        except policy.NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        else:
            messages.success(request, "Game created.")
            return redirect("scoring:game_detail", pk=game.pk)
    return render(request, "scoring/new_game.html", {"form": form, "title": "New game",
                                                     "presets": form.preset_values()})


@require_POST
def abandon_game(request, pk: int):
    game = _visible_game(request, pk)
    try:
        services.abandon_game(actor=actor_for(request), game=game, reason=request.POST.get("reason", ""))
    except policy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except SheetError as exc:
        messages.error(request, f"Game not abandoned: {exc}")
    return redirect("scoring:game_detail", pk=pk)


@require_POST
def reopen_game(request, pk: int):
    game = _visible_game(request, pk)
    try:
        services.reopen_game(actor=actor_for(request), game=game, reason=request.POST.get("reason", ""))
    except policy.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except SheetError as exc:
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
