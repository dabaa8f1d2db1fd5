"""Reads: which games an actor may see, and games loaded with what their pages and answers need.

Every list costs a constant number of queries however many rows it shows (seats and players come
prefetched; list totals come from the game's stored summary, not from scoring each game).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q, QuerySet, Sum
from django.utils import timezone

from core import raw_rows
from core.text import folded

from . import policy
from .engine.acceptance import likely_accepters
from .engine.readback import describe_hand
from .game_lock import read_hand_lines
from .models import Game, Hand, PinFailure, Player, RefereeLink, Seat
from .pins import PIN_LOCKOUT, locked_until
from .player_records import registered
from .policy import Actor
from .sheets import HandLine, counted_sheet, hand_lines, pending_hands, validate_current

User = get_user_model()


def visible_games(actor: Actor, *, pk: int | None = None) -> QuerySet[Game]:
    """The games ``policy.can_read`` lets this actor read (an event's games as the event says); with ``pk``,
    that one only. A table's working link reading its own game (``policy.readable_games_filter`` always lets
    it) skips the filter: its subqueries, compiled for the game and each prefetch, were most of a table's
    first read at a round's release (issue 35)."""
    games = Game.objects.all() if pk is None else Game.objects.filter(pk=pk)
    visible = None if pk is not None and _own_table(actor, pk) else policy.readable_games_filter(actor)
    if visible is None:
        return games
    return games.filter(pk__in=Game.objects.filter(visible).values("pk"))


def _own_table(actor: Actor, pk: int) -> bool:
    """Whether the actor is game ``pk``'s own working table link."""
    return actor.link is not None and actor.link.is_active and actor.link.game_id == pk


def games_by_origin(games: QuerySet[Game]) -> dict[str, int]:
    """How many of ``games`` are the club's own ("club") and how many a tournament made ("events"): one query."""
    counted = games.aggregate(club=Count("pk", filter=Q(origin_label="")),
                              events=Count("pk", filter=~Q(origin_label="")))
    return {"club": counted["club"] or 0, "events": counted["events"] or 0}


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    return games.select_related("first_dealer", "created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    )


def with_hands(games: QuerySet[Game]) -> QuerySet[Game]:
    return with_seats(games).prefetch_related(
        Prefetch(
            "hands",
            queryset=Hand.objects.select_related(
                "entered_by", "entered_via", "confirmed_by", "confirmed_by_player", "confirmed_via"
            ).order_by("number", "version"),
        ),
        "referees",
    )


def game_for_sheet(actor: Actor, pk: int) -> Game:
    """One visible game with its seats and every hand version (raises Game.DoesNotExist)."""
    return with_hands(visible_games(actor, pk=pk)).get()


def game_to_answer(actor: Actor, pk: int) -> tuple[Game, list[HandLine]]:
    """One visible game as the API's answer reads it: its row with who created it, and its hand versions
    as lines (raises Game.DoesNotExist). The answer names no one per hand and shows no seats, so neither
    is read. A table's own link reads the game row its authentication read in this request: at a round's
    release every table reads its game at once, and the compiled prefetches of ``game_for_sheet`` were most
    of that read's time (issue 35)."""
    if _own_table(actor, pk) and RefereeLink.game.is_cached(actor.link):
        game = actor.link.game
        if game.created_by_id is not None:
            db = raw_rows.database()
            with db.cursor() as cursor:
                cursor.execute(_one_user(db.vendor), [game.created_by_id])
                game.created_by = next(iter(raw_rows.instances(User, cursor.fetchall())), None)
    else:
        game = visible_games(actor, pk=pk).select_related("created_by").get()
    return game, read_hand_lines(game)


@cache
def _one_user(vendor: str) -> str:
    return f"SELECT {raw_rows.columns(User, 'u')} FROM {raw_rows.table(User)} u WHERE u.id = %s"


def scored_sheet(game: Game) -> dict[str, Any]:
    """The engine's answer for the game's counted hands, with pending and void hands listed."""
    return counted_sheet(game, hand_lines(game.hands.all()))


def awaiting_acceptance(game_ids: list[int]) -> dict[int, list[tuple[int, list[str]]]]:
    """For each of these games with hands awaiting acceptance: (hand number, who may accept it, likely
    first) per such hand. Two queries however many games (their hands read once)."""
    games = Game.objects.filter(pk__in=game_ids, summary__pending_hands__gt=0).prefetch_related("hands", "seats")
    return {g.pk: [(p.number, p.accepters) for p in pending_hands(g, hand_lines(g.hands.all()))] for g in games}


def players(search: str = "") -> QuerySet[Player]:
    """Every player, or those whose name holds ``search`` with case and accents set aside ("petur" finds
    "Pétur"). The names are compared here, not by the database: neither SQLite nor PostgreSQL folds
    accents without an extension, and a club's few thousand names take milliseconds."""
    found = Player.objects.all()
    wanted = folded(search.strip())
    if wanted:
        ids = [pk for pk, name in Player.objects.values_list("pk", "display_name") if wanted in folded(name)]
        found = found.filter(pk__in=ids)
    return found


def merge_readback(player: Player) -> str:
    """What merging ``player`` into another moves, in words: "3 games, 41 hands, 2 event entries" (its
    games, their hands as the sheets count them, then what other apps keep about it). One query, and one
    per app that keeps rows about players."""
    counted = Game.objects.filter(seats__player=player).aggregate(games=Count("pk", distinct=True),
                                                                  hands=Sum("hand_count"))
    counts = [(counted["games"] or 0, "game", "games"), (counted["hands"] or 0, "hand", "hands")]
    for records in registered():
        counts += records.describe(player.pk)
    return ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in counts)


MERGE_CHOICES = 50


def merge_candidates(player: Player, search: str = "", also: int | None = None) -> list[tuple[int, str]]:
    """The players ``player`` may be merged into, for the merge form's list: (id, "Ann Lee, Riverside"),
    those whose name holds ``search`` (case and accents aside), or without one those whose name shares a
    word with its own, the same name first, and the player ``also`` (the one chosen). At most
    ``MERGE_CHOICES``; one query (names compared here, as ``players`` does)."""
    own = set(folded(player.display_name).split())
    wanted = folded(search.strip())
    ranked = []
    for pk, name, club in Player.objects.exclude(pk=player.pk).values_list("pk", "display_name", "club"):
        words = set(folded(name).split())
        if wanted and wanted in folded(name):
            ranked.append((0, name.casefold(), pk, name, club))
        elif not wanted and own & words:
            ranked.append((-len(own & words) - 10 * (words == own), name.casefold(), pk, name, club))
        elif pk == also:
            ranked.append((1, "", pk, name, club))
    ranked.sort()
    return [(pk, f"{name}, {club or 'no club'}") for _, _, pk, name, club in ranked[:MERGE_CHOICES]]


def preview_hand(game: Game, data: dict[str, Any], number: int | None = None) -> dict[str, Any]:
    """What the engine would make of ``data`` as the game's next hand (or as a correction of hand
    ``number``), without saving anything, read back in words.

    Raises the engine's ``SheetError`` exactly as recording (or correcting) it would.
    """
    lines = hand_lines(game.hands.all())
    known = {line.number for line in lines}
    if number is None or number not in known:
        number = len(lines) + 1
    draft = Hand(game=game, number=number, version=1, action=Hand.Action.ENTRY, data=data)
    answer = validate_current(game, lines, {number: draft})
    scored = next((item for item in answer["hands"] if item["number"] == number), None)
    teams = [game.player_names[:2], game.player_names[2:]] if game.format == Game.Format.PARTNERSHIP else None
    preview = {"hand": scored, "said": describe_hand(scored, teams) if scored else "",
               "complete": answer["complete"], "winner": answer["winner"],
               # who would accept it: the side it goes against, the one it costs most first
               "accepters": likely_accepters(scored, teams) if scored else []}
    if teams and scored:  # a deal: what each team scores from it, as the engine aggregates the tables
        preview["team_points"] = [{"team": " & ".join(team), "points": points, "scores": i == scored["scoring_team"]}
                                  for i, (team, points) in enumerate(zip(teams, scored["team_points"], strict=True))]
    return preview


def pin_locks(player_ids) -> dict[int, datetime]:
    """{player id: until when their PIN is locked} for those locked now (too many wrong PINs lately): one query.
    A page offers no PIN box that would only say "try again at 21:40"."""
    recent: dict[int, list[datetime]] = {}
    for player_id, failed_at in (PinFailure.objects.filter(player_id__in=list(player_ids),
                                                           failed_at__gt=timezone.now() - PIN_LOCKOUT)
                                 .order_by("player_id", "-failed_at").values_list("player_id", "failed_at")):
        recent.setdefault(player_id, []).append(failed_at)
    return {pk: until for pk, times in recent.items() if (until := locked_until(times)) is not None}
