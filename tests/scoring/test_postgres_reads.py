"""What the record path's PostgreSQL shortcuts read and write is what Django would: timestamps read by
``fromisoformat`` (Django's loader for anything else), and statements prepared once per connection
(surviving a rolled-back transaction, started afresh on a new connection), a write's transaction opened
in the lock's own round trip (a real transaction: the row held to the commit, everything after the lock
rolled back with it), and a hand written to the indexes reads use only."""

import tempfile
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from django.db import DataError, connection, transaction
from psycopg.pq import Format

from core import prepared, raw_rows
from scoring import services
from scoring.game_lock import lock_game
from scoring.models import Game, Hand

from ..factories import as_actor, game, knock, organiser

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's own reading and PREPARE"),
]


def _read(sql: str):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


@pytest.mark.parametrize(("text", "expected"), [
    ("2026-11-27 01:04:04.38958+00", datetime(2026, 11, 27, 1, 4, 4, 389580, tzinfo=UTC)),
    ("2026-11-27 01:04:04+00", datetime(2026, 11, 27, 1, 4, 4, tzinfo=UTC)),
    ("2026-11-27 06:34:04.5+05:30", datetime(2026, 11, 27, 1, 4, 4, 500000, tzinfo=UTC)),
])
def test_timestamps_are_read_as_djangos_own_loader_reads_them(text, expected):
    value = _read(f"SELECT '{text}'::timestamptz")
    assert value == expected
    assert value.tzinfo is UTC
    loader = connection.connection.adapters.get_loader(1184, Format.TEXT)
    assert loader.iso_first
    djangos = loader.__mro__[1]  # the loader Django put on the connection
    raw = _read(f"SELECT '{text}'::timestamptz::text").encode()
    assert djangos(1184, connection.connection).load(raw) == value


def test_a_time_the_iso_reader_does_not_take_goes_to_djangos_loader():
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL TIME ZONE 'Asia/Kolkata'")  # the server writes +05:30 now
        cursor.execute("SELECT '2026-11-27 01:04:04+00'::timestamptz")
        value = cursor.fetchone()[0]
    assert value.utcoffset() == timedelta(0)  # Django's loader: the wall time under Django's zone
    with connection.cursor() as cursor:
        cursor.execute("SELECT '0044-03-15 12:00:00+00 BC'::timestamptz")
        with pytest.raises(DataError):
            cursor.fetchone()  # Python has no year 44 BC: Django's loader says so, as before


@pytest.mark.django_db(transaction=True)
def test_the_record_path_prepares_its_statements_once_per_connection_and_a_rollback_keeps_them():
    org = organiser()
    g = game(requires_confirmation=False, by=org)
    services.record_hand(actor=as_actor(org), game=g, data=knock("Ann", 3, 9))
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'ginscore_%%' ORDER BY name")
        names = [row[0] for row in cursor.fetchall()]
    assert "ginscore_game_locked" in names
    assert "ginscore_game_hands" in names
    assert any(name.startswith("ginscore_scoring_hand_then_scoring_game_") for name in names)

    connection.close()  # a new connection holds no statement until it needs one
    with pytest.raises(RuntimeError):
        _lock_write_then_refuse(g.pk)  # prepares the lock's statements in a transaction that is rolled back
    game_, lines = lock_game(g.pk)  # ... and they are still there, and known to be
    assert [line.number for line in lines] == [1]
    assert game_.hand_count == 1
    services.record_hand(actor=as_actor(org), game=Game.objects.get(pk=g.pk), data=knock("Bob", 2, 30))
    assert Hand.objects.filter(game=g).count() == 2
    assert Game.objects.get(pk=g.pk).summary["counted_hands"] == 2


def test_with_preparing_off_the_same_statements_go_as_plain_sql(settings):
    settings.DB_PREPARED_STATEMENTS = False
    statement = raw_rows._update_statement(Game, ("hand_count",), connection.vendor)
    assert prepared.text(connection, [statement]) == 'UPDATE "scoring_game" SET "hand_count" = %s WHERE "id" = %s'
    org = organiser()
    g = game(requires_confirmation=False, by=org)
    services.record_hand(actor=as_actor(org), game=g, data=knock("Ann", 3, 9))
    assert Game.objects.get(pk=g.pk).hand_count == 1


def test_a_hand_is_written_to_five_indexes_none_of_them_for_like_queries():
    """Five, and a sixth only for a hand sent from a table's outbox (partial: where it has a phone id)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'scoring_hand' "
                       "ORDER BY indexname")
        found = dict(cursor.fetchall())
    assert sorted(found) == ["hand_one_current_version_per_number", "hand_phone_id_once_per_game",
                             "hand_unique_version", "scoring_hand_pkey", "scoring_hand_previous_slot_id_key",
                             "scoring_hand_slot_key"]
    assert found["hand_phone_id_once_per_game"].endswith("WHERE (phone_id IS NOT NULL)")


def _other_connection_can_lock(game_id: int) -> bool:
    """Whether a second session could lock the game's row now (it cannot while a transaction holds it)."""
    with psycopg.connect(_conninfo(), autocommit=True) as other:
        try:
            other.execute("SELECT 1 FROM scoring_game WHERE id = %s FOR UPDATE NOWAIT", [game_id])
        except psycopg.errors.LockNotAvailable:
            return False
        return True


def _conninfo() -> str:
    params = dict(connection.get_connection_params())
    params.pop("cursor_factory", None), params.pop("context", None), params.pop("prepare_threshold", None)
    return psycopg.conninfo.make_conninfo(**{k: v for k, v in params.items() if isinstance(v, str | int)})


def _queries_sent(pg, action) -> list[str]:
    """The simple-protocol queries ``action`` sends to the server, as libpq traces them."""
    with tempfile.TemporaryFile("w+") as trace:
        pg.pgconn.trace(trace.fileno())
        pg.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            action()
        finally:
            pg.pgconn.untrace()
        trace.seek(0)
        return [line.split("\t", 3)[3].strip() for line in trace if line.startswith("F\t") and "\tQuery\t" in line]


@pytest.mark.django_db(transaction=True)
def test_the_lock_opens_its_transaction_in_the_locks_round_trip_and_holds_the_row_until_the_commit():
    org = organiser()
    g = game(requires_confirmation=False, by=org)
    lock_game(g.pk)  # its statements prepared on this connection
    connection.ensure_connection()
    pg = connection.connection
    with transaction.atomic():
        (sent,) = _queries_sent(pg, lambda: lock_game(g.pk))  # one query string: BEGIN went with the lock
        assert sent.startswith('"BEGIN; EXECUTE ginscore_game_locked(')
        assert pg.pgconn.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        assert not _other_connection_can_lock(g.pk)  # a real transaction block: the row stays locked
        Game.objects.filter(pk=g.pk).update(table_label="Table 9")
        assert not _other_connection_can_lock(g.pk)
    assert pg.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE  # committed
    assert pg.autocommit  # as Django leaves a connection between atomic blocks
    assert _other_connection_can_lock(g.pk)
    assert Game.objects.get(pk=g.pk).table_label == "Table 9"


@pytest.mark.django_db(transaction=True)
def test_what_follows_the_lock_is_rolled_back_with_it_when_the_write_is_refused():
    org = organiser()
    g = game(requires_confirmation=False, by=org)
    with pytest.raises(RuntimeError):
        _lock_write_then_refuse(g.pk)
    assert Game.objects.filter(pk=g.pk, table_label="never").count() == 0
    assert Game.objects.get(pk=g.pk).is_public
    services.record_hand(actor=as_actor(org), game=Game.objects.get(pk=g.pk), data=knock("Ann", 3, 9))
    services.record_hand(actor=as_actor(org), game=Game.objects.get(pk=g.pk), data=knock("Bob", 2, 30))
    assert Game.objects.get(pk=g.pk).summary["counted_hands"] == 2


@transaction.atomic
def _lock_write_then_refuse(game_id):
    lock_game(game_id)
    Game.objects.filter(pk=game_id).update(table_label="never")
    with transaction.atomic():  # a savepoint inside the folded BEGIN's block
        Game.objects.filter(pk=game_id).update(is_public=False)
    raise RuntimeError("refused after the lock")


@pytest.mark.django_db(transaction=True)
def test_a_lock_inside_a_transaction_already_open_adds_no_begin():
    org = organiser()
    g = game(requires_confirmation=False, by=org)
    with transaction.atomic():
        Game.objects.filter(pk=g.pk).update(table_label="first")  # psycopg opened the transaction
        assert not connection.connection.autocommit
        lock_game(g.pk)  # no BEGIN of ours: PostgreSQL would warn of a transaction already in progress
        assert not connection.connection.autocommit
    assert Game.objects.get(pk=g.pk).table_label == "first"


@pytest.mark.django_db(transaction=True)
def test_an_isolation_level_asked_for_keeps_psycopgs_own_begin():
    org = organiser()
    g = game(requires_confirmation=False, by=org)
    connection.ensure_connection()
    connection.connection.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    try:
        with transaction.atomic():
            lock_game(g.pk)
            assert not connection.connection.autocommit
            with connection.cursor() as cursor:
                cursor.execute("SHOW transaction_isolation")
                assert cursor.fetchone()[0] == "repeatable read"
    finally:
        connection.close()
