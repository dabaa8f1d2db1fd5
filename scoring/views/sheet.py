"""The score sheet page (and its self-refreshing part) and the history page: the paper pad's rows from
the engine's answer, the accept cards, the chart, the Hollywood pad and what the printed sheet adds.
Every number shown is one of the engine's; nothing is scored here."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.messages import get_messages
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from .. import policy, selectors
from ..actors import actor_for
from ..forms import (
    ConfirmForm,
    conventions_in_words,
    conventions_on_paper,
)
from ..models import Game, Hand
from ..sheets import (
    HandLine,
    PendingHand,
    hand_lines,
    next_hand_confirmed,
    pending_hands,
    seating,
    versions_in_words,
)
from .common import REFUSED_TAG, allowed, visible_game

CHART_WIDTH, CHART_HEIGHT = 600, 220
CHART_COLOURS = ["#1f6f4a", "#a4262c", "#1b4f9c", "#8a5a00"]


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

def _accept_options(actor, game: Game, pending: PendingHand, locks: dict[int, Any]) -> dict[str, Any]:
    """How this hand can be accepted from this page: the players who may accept it and have a PIN (the
    one it costs most first; not one whose PIN is locked now, said instead), and a button for the signed-in
    player or second official, if any."""
    accepters = frozenset(pending.accepters)
    if not allowed(policy.require_may_try_confirming, actor, game):
        return {"pin_players": [], "direct": None, "no_pin": []}
    seated = {game.player_names[seat.position]: seat.player for seat in game.seats.all()}
    pin_players, no_pin, locked = [], [], []
    for name in pending.accepters:
        player = seated.get(name)
        if player is None or not allowed(policy.require_may_accept, name, player, pending.hand, accepters):
            continue
        if player.confirm_pin and player.pk in locks:
            at = timezone.localtime(locks[player.pk] + timedelta(seconds=59))
            locked.append(f"{name}'s PIN is locked after too many wrong tries: try again at {at:%H:%M}")
            continue
        (pin_players if player.confirm_pin else no_pin).append(name)
    direct = None
    if allowed(policy.require_can_confirm, actor, game, pending.hand, accepters=accepters):
        me = policy.seated_player(actor, game)
        direct = f"Accept as {policy.seat_name(game, me)}" if me is not None else "Confirm as second official"
    form = ConfirmForm(names=pin_players) if pin_players else None
    return {"pin_players": pin_players, "direct": direct, "no_pin": no_pin, "form": form, "locked": locked}

TARGET_FIELD = {Game.Format.JERSEY: "jersey_target", Game.Format.PARTNERSHIP: "partnership_target"}


def _headline(game: Game, sheet: dict[str, Any], columns: list[str]) -> dict[str, Any]:
    """What the top of the table's pages says. While the game is played: each side's score toward the
    target (the running totals the engine measures against it, boxes only where the club counts them),
    for a Hollywood match each open game's; once the sheet is settled: who won, by how much. Every
    number is the engine's."""
    target = game.conventions.get(TARGET_FIELD.get(game.format, "target"))
    last = sheet["hands"][-1] if sheet["hands"] else None
    if sheet["complete"]:
        winner = sheet["winner"]
        if isinstance(winner, int) and "teams" in sheet:
            winner = columns[winner]
        margins = sheet.get("margins")
        return {"settled": True, "winner": winner, "margin": sheet.get("margin"), "plural": "teams" in sheet,
                "margins": list(margins.items()) if margins else None, "at_time": sheet.get("at_time")}
    if game.format == Game.Format.HOLLYWOOD:
        games = []
        for index, played in enumerate(sheet["games"]):
            totals = last["game_totals"][index] if last else {}
            games.append({"number": played["number"], "winner": played["winner"],
                          "scores": [(name, totals.get(name, 0)) for name in columns]})
        return {"settled": False, "target": target, "games": games}
    if last is None:
        scores = [(name, 0) for name in columns]
    elif isinstance(last["totals"], list):  # a partnership: the teams' running totals
        scores = list(zip(columns, last["totals"], strict=True))
    else:
        scores = [(name, last["totals"][name]) for name in columns]
    return {"settled": False, "target": target, "scores": scores}


def _next_steps(game: Game, actor) -> list[tuple[str, str]]:
    """Where a finished (or frozen) game leads: back to the match and the event it was played for, or
    for a club game a new game of the same players (organisers) and the games list."""
    if game.origin_url:
        steps = [(f"Back to the match ({game.table_label or 'its page'})", game.origin_match_url)] \
            if game.origin_match_url else []
        return [*steps, (game.origin_label, game.origin_url)]
    steps = []
    if actor.is_organiser:
        seats = "&".join(f"player_{seat.position + 1}={seat.player_id}" for seat in game.seats.all())
        steps.append(("New game, same players", f"{reverse('scoring:new_game')}?{seats}"))
    return [*steps, ("All games", reverse("scoring:game_list"))]


def _frozen_because(game: Game) -> str:
    """Why a frozen game stopped, as said when it was frozen (one query, only for a frozen game)."""
    if game.status != Game.Status.ABANDONED:
        return ""
    last = game.status_changes.filter(status=Game.Status.ABANDONED).order_by("-changed_at", "-pk").first()
    return last.reason if last is not None else ""


def sheet_context(request, game: Game) -> dict[str, Any]:
    actor = actor_for(request)
    lines = hand_lines(game.hands.all())
    sheet = selectors.scored_sheet(game)
    columns = _columns(game, sheet)
    pending = {p.number: p for p in pending_hands(game, lines)}
    rows = _rows(sheet, columns, lines, pending)
    standings = sheet["teams"] if "teams" in sheet else [sheet["players"][n] for n in sheet["players"]]
    is_official = policy.is_official(actor, game)
    # Why the last try to accept a hand was refused ("that is not Hana's PIN (4 more tries)") is said on its
    # card, where the page has scrolled to and the PIN box waits, rather than at the top, out of view.
    refused = {m.extra_tags.removeprefix(REFUSED_TAG): m.message for m in get_messages(request)
               if m.extra_tags.startswith(REFUSED_TAG)}
    locks = selectors.pin_locks(seat.player_id for seat in game.seats.all()) if pending else {}
    for p in pending.values():
        p.options = _accept_options(actor, game, p, locks) if game.status != Game.Status.ABANDONED else {}
        if str(p.number) in refused and (p.options.get("form") or p.options.get("direct") or p.options.get("locked")):
            p.options["refused"] = refused[str(p.number)]
    amendable = set()
    if is_official and game.status != Game.Status.ABANDONED:
        amendable = {line.number for line in lines if allowed(
            policy.require_can_amend, actor, game, line.number, next_hand_confirmed(lines, line.number), "correct")}
    return {
        "game": game,
        "sheet": sheet,
        # Who deals the next hand to record, as the entry page says it: after every hand, pending ones included
        # (the sheet's own next dealer counts accepted hands only).
        "next_dealer": (seating(game, lines, len(lines) + 1).dealer if pending else sheet.get("next_dealer"))
        if game.status == Game.Status.IN_PROGRESS else None,
        "columns": columns,
        "rows": rows,
        "pending": list(pending.values()),
        # the hands this user can do something about here (a PIN box, a button): only those get a card
        "acceptable": [p for p in pending.values()
                       if p.options.get("form") or p.options.get("direct") or p.options.get("locked")],
        "standings": list(zip(columns, standings, strict=True)),
        "chart": _chart(columns, rows),
        "chart_size": (CHART_WIDTH, CHART_HEIGHT),
        "is_official": is_official,
        "said_on_cards": {f"{REFUSED_TAG}{p.number}" for p in pending.values() if "refused" in p.options},
        "is_organiser": actor.is_organiser,
        "may_undo_time": game.time_between_hands and policy.may_direct(actor, game),
        "can_enter": is_official,
        "amendable": sorted(amendable),
        "last_hand": lines[-1].number if lines and lines[-1].number in amendable else None,
        "names": list(game.player_names),
        "title": game.players_title,
        "conventions_words": conventions_in_words(game.conventions),
        "pad": _hollywood_pad(sheet, list(sheet["players"])) if game.format == Game.Format.HOLLYWOOD else None,
        "paper": _on_paper(game),
        "headline": _headline(game, sheet, columns),
        "next_steps": _next_steps(game, actor) if game.status != Game.Status.IN_PROGRESS else [],
        "frozen_because": _frozen_because(game),
    }


def game_detail(request, pk: int):
    game = visible_game(request, pk)
    return render(request, "scoring/game_detail.html", sheet_context(request, game))


def game_sheet_fragment(request, pk: int):
    """The score sheet alone, for the page's self-refresh while a game is in progress."""
    game = visible_game(request, pk)
    response = render(request, "scoring/_sheet.html", sheet_context(request, game))
    response["X-Game-Updated"] = game.updated_at.isoformat()
    return response


def game_history(request, pk: int):
    game = visible_game(request, pk)
    lines = hand_lines(game.hands.all())
    said = versions_in_words(game, lines)
    versions = [{"hand": v, "said": said[(v.number, v.version)]} for line in lines for v in line.versions]
    return render(request, "scoring/game_history.html", {
        "game": game, "title": game.players_title, "versions": versions,
        "personal_data": policy.sees_personal_data(actor_for(request))})

