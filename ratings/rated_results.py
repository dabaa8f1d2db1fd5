"""What counts as one rated result, read from the stored games and events as the engine's ``Result`` values.

Only public results count. The ratings are public (the list, each player's page, chart and history, the
API), and a rating moves with every result it counts: a private game or event would show through them
(who played, how often, when, and who won). So ratings are computed from public results only, as a
season's ladder is; a private event does not exist for the ratings, on every path. An event or game made
public (or private) later moves the ratings then (``tournaments.signals.event_visibility_changed``).

- A club game (not a tournament match's game) that is complete with every hand confirmed: two players
  (standard, Hollywood) as two sides, the winner first or equal ranks when it was settled level; a
  partnership as two teams of two; a three-player game (rotation, Jersey) as three sides ranked by
  their final totals (equal totals, equal ranks). Abandoned and in-progress games do not count.
- A decided tournament match, once (not once per game of a best of 3): its two entries' players, the
  winner first, a draw as equal ranks. A bye never counts, nor a forfeit (nobody played). A director's
  adjusted result counts when the match was played (a hand recorded in one of its games): it is the
  match's result as the director ruled it; an adjusted result of a match never begun is a no-show, like
  a forfeit. A match's result is what ``tournaments.stored_event`` says it is, nothing is decided here.
- When: the moment the result was played, the first entry of its last hand (``Hand.entered_at`` of
  version 1): a correction months later changes the result, not where it stands in time. A match
  played without hands (an adjusted result) stands at the director's result.

Constant queries for the club games; a few per event for the matches. It never writes.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Max

from ratings.engine import Result
from scoring.models import Game, Hand, Seat, settled_result_of
from tournaments.models import Event, Match, MatchGame, MatchResult
from tournaments.stored_event import load_state

TWO_SIDES = ("standard", "hollywood")
THREE_SIDES = ("rotation", "jersey")


def finished_results() -> list[Result]:
    """Every result that counts, in no particular order (the engine orders them)."""
    return [*club_results(), *match_results()]


def _last_hand_times(game_ids) -> dict[int, object]:
    return dict(Hand.objects.filter(game_id__in=game_ids, version=1).values("game_id")
                .annotate(last=Max("entered_at")).values_list("game_id", "last"))


def club_results() -> list[Result]:
    """The club's finished games as results: three queries, however many games."""
    games = (Game.objects.filter(status=Game.Status.COMPLETE, is_public=True)
             .exclude(pk__in=MatchGame.objects.values("game_id")))
    rows = list(games.values_list("pk", "format", "player_names", "summary"))
    seats: dict[int, list[tuple[int, int, int | None]]] = {}
    for game_id, position, player_id, team in (Seat.objects.filter(game__in=games)
                                                .values_list("game_id", "position", "player_id", "team")):
        seats.setdefault(game_id, []).append((position, player_id, team))
    when = _last_hand_times(games.values("pk"))
    out = []
    for pk, format, names, summary in rows:
        if pk not in when:
            continue
        result = game_result(format, names, summary or {}, sorted(seats.get(pk, [])))
        if result is not None:
            sides, ranks = result
            out.append(Result(when[pk], ("game", pk), sides, ranks))
    return out


def game_result(format: str, names: list[str], summary: dict,
                seats: list[tuple[int, int, int | None]]) -> tuple[tuple, tuple] | None:
    """(sides, ranks) of a complete game from its summary and its seats (position, player id, team) in order;
    None when it has no result to rate (pending hands, a winner its sheet does not name)."""
    if not summary.get("complete") or summary.get("pending_hands"):
        return None
    players = [player for _, player, _ in seats]
    if len(players) != len(names):
        return None
    winner = summary.get("winner")
    if format in THREE_SIDES:
        totals = summary.get("totals") or {}
        if any(name not in totals for name in names):
            return None
        scores = [totals[name] for name in names]
        ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        return tuple((p,) for p in players), ranks
    if format == "partnership":
        teams: dict[int, list[int]] = {}
        for position, player, team in seats:
            teams.setdefault(team if team is not None else position // 2, []).append(player)
        sides = (tuple(teams.get(0, ())), tuple(teams.get(1, ())))
        team_names = (" & ".join(names[:2]), " & ".join(names[2:]))
        if len(sides[0]) != 2 or len(sides[1]) != 2:
            return None
    elif format in TWO_SIDES:
        sides = ((players[0],), (players[1],))
        team_names = (names[0], names[1])
    else:
        return None
    if winner is None:
        return sides, (1, 1)
    if winner not in team_names or settled_result_of("complete", summary) is None:
        return None
    return sides, (1, 2) if winner == team_names[0] else (2, 1)


def match_results(events: Iterable[Event] | None = None) -> list[Result]:
    """Every decided match of every public event (or of the public ones of ``events``) that counts: the
    event's own reading of its results (``tournaments.stored_event.load_state``, six queries an event), and two
    queries for the times."""
    events = [e for e in (events if events is not None else Event.objects.order_by("pk")) if e.is_public]
    decided: list[tuple[int, tuple, tuple, list[int]]] = []
    for event in events:
        if not Match.objects.filter(event=event, is_bye=False).exists():
            continue
        state = load_state(event)
        player_of = {e.pk: e.player_id for e in state.entries}
        for m in state.live_matches:
            if m.is_bye or len(m.sides) != 2:
                continue
            outcome = state.outcome(m)
            if not outcome.decided or outcome.forfeit or outcome.source not in ("games", "adjusted"):
                continue
            if outcome.source == "adjusted" and not outcome.started:
                continue
            sides = ((player_of[m.sides[0]],), (player_of[m.sides[1]],))
            if outcome.winner is None:
                ranks = (1, 1)
            else:
                ranks = (1, 2) if outcome.winner == m.sides[0] else (2, 1)
            decided.append((m.pk, sides, ranks, []))
    if not decided:
        return []
    ids = [pk for pk, *_ in decided]
    games_of: dict[int, list[int]] = {}
    for match_id, game_id in MatchGame.objects.filter(match_id__in=ids).values_list("match_id", "game_id"):
        games_of.setdefault(match_id, []).append(game_id)
    hand_times = _last_hand_times(MatchGame.objects.filter(match_id__in=ids).values("game_id"))
    director_times = dict(MatchResult.objects.filter(match_id__in=ids).values("match_id")
                          .annotate(last=Max("entered_at")).values_list("match_id", "last"))
    out = []
    for pk, sides, ranks, _ in decided:
        times = [hand_times[g] for g in games_of.get(pk, []) if g in hand_times]
        at = max(times) if times else director_times.get(pk)
        if at is not None:
            out.append(Result(at, ("match", pk), sides, ranks))
    return out
