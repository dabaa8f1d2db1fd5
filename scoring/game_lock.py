"""A game's row locked for the writing transaction, with its hand versions (and seats) read after the lock.

Every write to a game takes this lock first, so two referees at one table can never both record hand
5. What is read with it must be read *after* the lock is granted: a statement that waited for the lock
still sees the database as it was when the statement began (PostgreSQL's READ COMMITTED), so hands
joined into the locking statement could miss the very hand the other writer just added.

On PostgreSQL the lock and the reads still go in one round trip: separate statements in one query
string (client-side parameter binding, Django's default with psycopg 3), each with its own snapshot,
run in order by the server. Elsewhere (SQLite serialises writers; no row locks) they are plain queries.

It must not decide anything about the game: it only loads what the services decide on.
"""

from __future__ import annotations

from django.db import connection

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


def _columns(model, alias: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _instances(model, rows, offset: int = 0) -> list:
    """Model instances from raw rows whose columns start at ``offset`` in the model's field order, each
    value through the field's converters (JSON text to Python), as the ORM itself would do."""
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    converters = [(i, f.get_db_converters(connection)) for i, f in enumerate(fields)]
    converters = [(i, c) for i, c in converters if c]
    found = []
    for row in rows:
        values = list(row[offset:offset + len(fields)])
        for i, field_converters in converters:
            for convert in field_converters:
                values[i] = convert(values[i], None, connection)
        found.append(model.from_db(connection.alias, names, values))
    return found


def _lock_in_one_round_trip(game_id: int, *, seats: bool) -> tuple[Game, list[HandLine]]:
    statements = [
        f"SELECT {_columns(Game, 'g')} FROM {_table(Game)} g WHERE g.id = %(game)s FOR UPDATE",
        f"SELECT {_columns(Hand, 'h')} FROM {_table(Hand)} h WHERE h.game_id = %(game)s "
        "ORDER BY h.number, h.version",
    ]
    if seats:
        statements.append(
            f"SELECT {_columns(Seat, 's')}, {_columns(Player, 'p')} FROM {_table(Seat)} s "
            f"JOIN {_table(Player)} p ON p.id = s.player_id WHERE s.game_id = %(game)s ORDER BY s.position"
        )
    with connection.cursor() as cursor:
        cursor.execute("; ".join(statements), {"game": game_id})
        game_rows = cursor.fetchall()
        cursor.nextset()
        hand_rows = cursor.fetchall()
        seat_rows = []
        if seats:
            cursor.nextset()
            seat_rows = cursor.fetchall()
    if not game_rows:
        raise Game.DoesNotExist(f"no game {game_id}")
    game = _instances(Game, game_rows)[0]
    hands = _instances(Hand, hand_rows)
    for hand in hands:
        hand.game = game  # the hand's game is this one: no query to reach it
    if seats:
        width = len(Seat._meta.concrete_fields)
        seated = _instances(Seat, seat_rows)
        for seat, player in zip(seated, _instances(Player, seat_rows, offset=width), strict=True):
            seat.player = player
            seat.game = game
        _prefetched(game, "seats", seated)
    return game, hand_lines(hands)


def _prefetched(instance, related_name: str, objects: list) -> None:
    """``instance.<related_name>.all()`` answers ``objects`` without a query, as after ``prefetch_related``."""
    queryset = getattr(instance, related_name).all()
    queryset._result_cache = objects
    queryset._prefetch_done = True
    instance._prefetched_objects_cache = {**getattr(instance, "_prefetched_objects_cache", {}),
                                          related_name: queryset}
