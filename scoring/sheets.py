"""Stored hands to the engine and back: which version of each hand counts, and the scored sheet.

The sheet counts, for each hand number in order, its latest *confirmed* version (a void removes the
hand); a hand with no confirmed version yet is pending, and the counted sheet stops before it.
Everything numeric comes from ``scoring.engine``; this module only chooses the versions, builds the
score-sheet request and maps the engine's hand numbers back to the stored ones. No queries here:
callers pass the game with its seats and hands already loaded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import SheetError, score_sheet
from .engine.acceptance import likely_accepters, players_of, winning_side
from .engine.errors import Problem
from .engine.readback import describe_hand
from .engine.time_limit import settle_at_time
from .models import Game, Hand

# A real game has well under 200 hands; the cap keeps one game (or one calculator request) from
# costing seconds of engine time and hundreds of megabytes.
MAX_HANDS = 500


def score_bounded_sheet(request: object) -> dict[str, Any]:
    """The stateless calculator (API and command line): ``score_sheet`` for at most ``MAX_HANDS`` hands."""
    hands = request.get("hands") if isinstance(request, dict) else None
    if isinstance(hands, list) and len(hands) > MAX_HANDS:
        raise SheetError.one(None, "hands", f"a sheet has at most {MAX_HANDS} hands; {len(hands)} given")
    return score_sheet(request)


def sheet_request(game: Game, hands: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The score-sheet contract request for this game with these hands (contract form)."""
    names = list(game.player_names)
    request: dict[str, Any] = {
        "format": game.format,
        "conventions": game.conventions,
        "first_dealer": game.first_dealer_name,
        "hands": list(hands),
    }
    if game.format == Game.Format.PARTNERSHIP:
        request["teams"] = [names[:2], names[2:]]
    else:
        request["players"] = names
    return request


@dataclass
class HandLine:
    """One hand number of a stored game: its versions, which one counts and which is current."""

    number: int
    versions: list[Hand] = field(default_factory=list)

    @property
    def current(self) -> Hand:
        latest = self.versions[-1]  # a new version is made current, so the current one is the latest
        return latest if latest.is_current else next(v for v in self.versions if v.is_current)

    @property
    def counted(self) -> Hand | None:
        confirmed = [v for v in self.versions if v.is_confirmed]
        return confirmed[-1] if confirmed else None

    @property
    def pending(self) -> Hand | None:
        """The current version when it still awaits confirmation."""
        current = self.current
        return None if current.is_confirmed else current


def next_hand_confirmed(lines: Sequence[HandLine], number: int) -> bool:
    """Whether the hand after ``number`` counts already (a referee's window to amend ``number`` is over)."""
    return any(line.number == number + 1 and line.counted is not None for line in lines)


def hand_lines(hands: Iterable[Hand]) -> list[HandLine]:
    lines: dict[int, HandLine] = {}
    for hand in sorted(hands, key=lambda h: (h.number, h.version)):
        lines.setdefault(hand.number, HandLine(hand.number)).versions.append(hand)
    return [lines[n] for n in sorted(lines)]


# Engine messages that name another hand by its place in the request ("complete after hand 3").
_HAND_IN_MESSAGE = re.compile(r"\b(after hand) (\d+)\b")


def _readdress(error: SheetError, numbers: Sequence[int]) -> SheetError:
    """Engine problems name the n-th hand sent; referees know hands by their stored numbers (a void
    keeps its number but is not sent), in the problem's ``hand`` and in its words alike."""

    def stored(position: int) -> int:
        return numbers[position - 1] if 1 <= position <= len(numbers) else position

    def words(message: str) -> str:
        return _HAND_IN_MESSAGE.sub(lambda m: f"{m.group(1)} {stored(int(m.group(2)))}", message)

    return SheetError(
        Problem(stored(p.hand) if p.hand is not None else None, p.field, words(p.message)) for p in error.problems
    )


def score_versions(game: Game, chosen: Sequence[Hand]) -> dict[str, Any]:
    """Score the given versions (voids skipped) and give the answer with stored hand numbers."""
    live = [v for v in chosen if v.action != Hand.Action.VOID]
    numbers = [v.number for v in live]
    try:
        answer = score_sheet(sheet_request(game, [v.data for v in live]))
    except SheetError as exc:
        raise _readdress(exc, numbers) from None
    for item, version in zip(answer["hands"], live, strict=True):
        item["sheet_position"] = item["number"]
        item["number"] = version.number
        item["version"] = version.version
    return answer


def validate_current(
    game: Game, lines: Sequence[HandLine], replace: dict[int, Hand] | None = None
) -> dict[str, Any]:
    """Refuse, with the engine's own words, a change that would leave the current hands unscoreable.

    Returns the engine's answer for the current hands with the change.
    """
    replace = replace or {}
    chosen = [replace.get(line.number, line.current) for line in lines]
    known = {line.number for line in lines}
    chosen += [v for n, v in sorted(replace.items()) if n not in known]
    return score_versions(game, chosen)


def _scored_as(game: Game, lines: Sequence[HandLine], number: int, version: Hand) -> dict[str, Any] | None:
    """The engine's answer for ``version`` as hand ``number`` after the current earlier hands."""
    chosen = [line.current for line in lines if line.number < number] + [version]
    answer = score_versions(game, chosen)
    return next((item for item in answer["hands"] if item["number"] == number), None)


@dataclass(frozen=True)
class Seating:
    """Who plays a hand, as the engine decides it from the hands before: the players who may knock
    (rotation: not the dealer, who sits out), a partnership deal's two tables and their dealers."""

    knockers: list[str]
    dealer: str | None = None
    sitting_out: str | None = None
    tables: list[list[str]] | None = None  # partnership: [[team 1 player, team 2 player], [...]]
    table_dealers: list[str] | None = None
    game_over: bool = False  # the hands before already end the game: there is no such hand


def seating(game: Game, lines: Sequence[HandLine], number: int) -> Seating:
    """Who plays hand ``number`` (the next hand, or one being corrected): the engine's ``next_players``
    / ``next_tables`` after the current versions of the hands before it (pending ones included: the
    table plays on while they await acceptance). Nothing is decided here; a sheet the engine refuses
    (it never should be stored) leaves every player offered, for the engine to judge the hand."""
    names = list(game.player_names)
    before = [line.current for line in lines if line.number < number]
    try:
        answer = score_versions(game, before)
    except SheetError:
        return Seating(knockers=names)
    if answer["complete"]:
        return Seating(knockers=names, game_over=True)
    if game.format == Game.Format.PARTNERSHIP:
        tables = answer["next_tables"]
        return Seating(knockers=names, tables=tables, table_dealers=answer["next_dealers"])
    dealer = answer.get("next_dealer")
    if game.format == Game.Format.ROTATION:
        return Seating(knockers=list(answer["next_players"]), dealer=dealer, sitting_out=dealer)
    if game.format == Game.Format.JERSEY:  # all three play every hand
        return Seating(knockers=list(answer["next_players"]), dealer=dealer)
    return Seating(knockers=names, dealer=dealer)


def _teams(game: Game) -> list[list[str]] | None:
    return [game.player_names[:2], game.player_names[2:]] if game.format == Game.Format.PARTNERSHIP else None


@dataclass
class PendingHand:
    """A hand awaiting acceptance as the people at the table see it: what it scores, read back in the
    engine's numbers, and who may accept it (the player it costs most first)."""

    number: int
    version: int
    action: str
    reason: str
    said: str
    accepters: list[str]
    hand: Hand
    options: dict[str, Any] = field(default_factory=dict)  # how the page lets this actor accept it


def _acceptance(game: Game, lines: Sequence[HandLine], line: HandLine) -> tuple[list[str], str]:
    """Who may accept the pending version of ``line`` (likely first), and the hand in words.

    An entry or a correction goes against its losing side; a void takes the hand away from whoever
    won the version it replaces. A hand that pays nobody may be accepted by anyone who played it.
    """
    teams = _teams(game)
    everyone = list(game.player_names)
    pending = line.pending
    if pending.action != Hand.Action.VOID:
        scored = _scored_as(game, lines, line.number, pending)
        if scored is None:
            return everyone, "a hand after the end of the game"
        return likely_accepters(scored, teams), describe_hand(scored, teams)
    replaced = next((v for v in reversed(line.versions) if v is not pending and v.action != Hand.Action.VOID), None)
    scored = _scored_as(game, lines, line.number, replaced) if replaced is not None else None
    if scored is None:
        return everyone, "Void: nothing to take away"
    side = winning_side(scored, teams) or players_of(scored)
    order = [n for n in everyone if n in side]
    return order, f"Void: takes away hand {line.number} ({describe_hand(scored, teams)})"


def accepters(game: Game, lines: Sequence[HandLine], line: HandLine) -> frozenset[str]:
    """Who may accept the pending version of ``line``: the side it goes against."""
    return frozenset(_acceptance(game, lines, line)[0])


def pending_hands(game: Game, lines: Sequence[HandLine]) -> list[PendingHand]:
    """Every hand awaiting confirmation, read back, with who may accept it, for the phone and the sheet."""
    out = []
    for line in lines:
        if line.pending is None:
            continue
        who, said = _acceptance(game, lines, line)
        p = line.pending
        out.append(PendingHand(line.number, p.version, p.action, p.reason, said, who, p))
    return out


def _recorded_in_words(data: dict[str, Any]) -> str:
    """A stored version the engine can no longer place (earlier hands changed since): its fields, in words."""
    if not data:
        return "nothing recorded"
    if data.get("result") == "dead":
        return "Dead hand (as recorded)"
    parts = [f"{data.get('result', '?').replace('_', ' ')} by {data.get('knocker', '?')}"]
    if "knocker_deadwood" in data:
        parts.append(f"knocker's deadwood {data['knocker_deadwood']}")
    if "opponent_deadwood" in data:
        parts.append(f"opponent's deadwood {data['opponent_deadwood']}")
    for name, count in (data.get("deadwood") or {}).items():
        parts.append(f"{name}'s deadwood {count}")
    return ", ".join(parts).capitalize() + " (as recorded)"


def versions_in_words(game: Game, lines: Sequence[HandLine]) -> dict[tuple[int, int], str]:
    """Every stored version of every hand read back in words, keyed by (number, version): current
    versions as the current sheet scores them (one engine run), older ones where they stood."""
    teams = _teams(game)
    said: dict[tuple[int, int], str] = {}
    current = score_versions(game, [line.current for line in lines]) if lines else {"hands": []}
    for item in current["hands"]:
        said[(item["number"], item["version"])] = describe_hand(item, teams)
    for line in lines:
        for version in line.versions:
            key = (line.number, version.version)
            if key in said:
                continue
            if version.action == Hand.Action.VOID:
                said[key] = f"Void: {version.reason}" if version.reason else "Void"
                continue
            try:
                scored = _scored_as(game, lines, line.number, version)
            except SheetError:
                scored = None
            said[key] = describe_hand(scored, teams) if scored else _recorded_in_words(version.data)
    return said


def counted_sheet(
    game: Game, lines: Sequence[HandLine], already_scored: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The official sheet: confirmed versions up to the first hand still awaiting its first confirmation.

    Adds ``pending`` (hands entered or amended and awaiting confirmation) and ``voided`` numbers.
    ``already_scored`` is the answer for exactly these versions, when the caller has it.
    """
    chosen: list[Hand] = []
    for line in lines:
        counted = line.counted
        if counted is None:
            break
        chosen.append(counted)
    answer = already_scored if already_scored is not None else score_versions(game, chosen)
    answer["pending"] = [
        {"number": line.number, "version": line.pending.version, "action": line.pending.action,
         "data": line.pending.data, "reason": line.pending.reason}
        for line in lines
        if line.pending is not None
    ]
    answer["voided"] = [v.number for v in chosen if v.action == Hand.Action.VOID]
    answer["counted_hands"] = len(chosen)
    return with_time(game, answer)


def with_time(game: Game, answer: dict[str, Any]) -> dict[str, Any]:
    """The counted sheet of a game time was called on, ended as ``scoring.engine.time_limit`` settles it
    (unless the target was reached first): ``at_time`` says after which hand and why; the winner and
    margin are the engine's. A game not stopped at time is left as it is."""
    if game.time_hand is None or answer["complete"] or "players" not in answer:
        return answer
    names = list(game.player_names)
    at = settle_at_time(names, [row["totals"] for row in answer["hands"]], time_hand=game.time_hand,
                        level=game.time_level)
    answer["at_time"] = None if at is None else at.as_dict()
    if at is not None:
        answer.update(complete=True, winner=at.winner, margin=at.margin, next_dealer=None)
    return answer


def summary_of(answer: dict[str, Any]) -> dict[str, Any]:
    """The few numbers a game list shows, kept on the game row so lists need not score anything."""
    if "teams" in answer:
        totals = {" & ".join(t["players"]): t["total"] for t in answer["teams"]}
    else:
        totals = {name: standing["total"] for name, standing in answer["players"].items()}
    winner = answer["winner"]
    if isinstance(winner, int) and "teams" in answer:
        winner = " & ".join(answer["teams"][winner]["players"])
    # The score toward the target, as the table's headline shows it while the game is played: the last counted
    # hand's running totals (boxes only where the club counts them toward it), not the grand totals.
    last = answer["hands"][-1]["totals"] if answer.get("hands") else None
    toward = last if isinstance(last, dict) and all(isinstance(v, int) for v in last.values()) else None
    return {
        "totals": totals,
        "toward": toward if toward is not None else (dict.fromkeys(totals, 0) if not answer.get("hands")
                                                      else totals),
        "complete": answer["complete"],
        "winner": winner,
        "margin": answer.get("margin"),
        "next_dealer": answer.get("next_dealer"),
        "counted_hands": answer["counted_hands"],
        "pending_hands": len(answer["pending"]),
        **({"at_time": answer["at_time"]} if answer.get("at_time") else {}),
    }
