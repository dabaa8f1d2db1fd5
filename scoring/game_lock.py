"""A game's row locked for the writing transaction, with its hand versions (and seats) read after the lock.

Every write to a game takes this lock first, so two referees at one table can never both record hand
5. What is read with it must be read *after* the lock is granted: a statement that waited for the lock
still sees the database as it was when the statement began (PostgreSQL's READ COMMITTED), so hands
joined into the locking statement could miss the very hand the other writer just added.

On PostgreSQL the lock and the reads still go in one round trip: separate statements in one query
string (client-side parameter binding, Django's default with psycopg 3), each with its own snapshot,
run in order by the server; the transaction's BEGIN goes in front of them rather than in a round trip of
its own. Elsewhere (SQLite serialises writers; no row locks) they are plain queries.

It must not decide anything about the game: it only loads what the services decide on.
"""

from __future__ import annotations

from functools import cache

from django.db import connection
from psycopg.pq import TransactionStatus

from core import prepared
from core.raw_rows import columns, database, instances, prefetched, statement_cursor, table, width

from .models import Game, Hand, Player, Seat
from .sheets import HandLine, hand_lines


def lock_game(game_id: int, *, seats: bool = False) -> tuple[Game, list[HandLine]]:
    """The game (locked), its hand versions as lines by number, and its seats with their players when
    asked (``game.seats.all()`` then reads them without a query). ``Game.DoesNotExist`` if there is none."""
    if connection.vendor == "postgresql":
        return _lock_in_one_round_trip(game_id, seats=seats)
    games = Game.objects.select_for_update()
    if seats:
        games = games.prefetch_related("seats__player")
    game = games.get(pk=game_id)
    return game, hand_lines(Hand.objects.filter(game_id=game.pk).order_by("number", "version"))


@cache
def _statements(seats: bool, vendor: str) -> tuple[prepared.Statement, ...]:
    """The locking statement and the reads after it, each with its one parameter, the game's id."""
    statements = [
        ("ginscore_game_locked", f"SELECT {columns(Game, 'g')} FROM {table(Game)} g WHERE g.id = $1 FOR UPDATE", 1),
        ("ginscore_game_hands", f"SELECT {columns(Hand, 'h')} FROM {table(Hand)} h WHERE h.game_id = $1 "
                                "ORDER BY h.number, h.version", 1),
    ]
    if seats:
        statements.append(("ginscore_game_seats",
                           f"SELECT {columns(Seat, 's')}, {columns(Player, 'p')} FROM {table(Seat)} s "
                           f"JOIN {table(Player)} p ON p.id = s.player_id WHERE s.game_id = $1 ORDER BY s.position", 1))
    return tuple(statements)


def read_hand_lines(game: Game) -> list[HandLine]:
    """The game's hand versions as lines by number, read without the lock (a reader's, not a writer's): by the
    lock's own statement for them, prepared once per PostgreSQL connection."""
    db = database()
    hands = _statements(False, db.vendor)[1]
    with statement_cursor(db) as cursor:
        cursor.execute(prepared.text(db, [hands]), [game.pk])
        rows = cursor.fetchall()
    return hand_lines(instances(Hand, rows, related={"game": game}))


def _lock_in_one_round_trip(game_id: int, *, seats: bool) -> tuple[Game, list[HandLine]]:
    db = database()
    statements = _statements(seats, db.vendor)
    text, parameters = prepared.text(db, statements), [game_id] * len(statements)
    with statement_cursor(db) as cursor:
        if _opens_the_transaction(db.connection):
            cursor.execute(f"BEGIN; {text}", parameters)
            cursor.nextset()
        else:
            cursor.execute(text, parameters)
        game_rows = cursor.fetchall()
        cursor.nextset()
        hand_rows = cursor.fetchall()
        seat_rows = []
        if seats:
            cursor.nextset()
            seat_rows = cursor.fetchall()
    if not game_rows:
        raise Game.DoesNotExist(f"no game {game_id}")
    game = instances(Game, game_rows)[0]
    # Each hand's game is this one: reached without a query, set as the ORM caches a related object.
    hands = instances(Hand, hand_rows, related={"game": game})
    if seats:
        seated = instances(Seat, seat_rows, related={"game": game})
        for seat, player in zip(seated, instances(Player, seat_rows, offset=width(Seat)), strict=True):
            seat.player = player
        prefetched(game, "seats", seated)
    return game, hand_lines(hands)


def _opens_the_transaction(pg) -> bool:
    """Whether the lock is the first statement of its transaction, which then goes with it: psycopg would
    first send BEGIN alone, a round trip of its own on every write. It is told the transaction is not its
    to open (``autocommit``: psycopg sends statements as they are, and COMMIT or ROLLBACK whenever a
    transaction is open, whoever began it); Django sets it back when its ``atomic`` block ends, committed
    or not. Only a plain BEGIN is folded: a connection asking for an isolation level or a read-only
    transaction keeps psycopg's own."""
    if pg.autocommit or pg.pgconn.transaction_status != TransactionStatus.IDLE or \
            (pg.isolation_level, pg.read_only, pg.deferrable) != (None, None, None):
        return False
    pg.autocommit = True
    return True
