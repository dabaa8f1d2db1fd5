"""The raw-row reader the hot paths authenticate with: one statement, the same objects the ORM would give."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction

from core import raw_rows
from scoring import services
from scoring.models import ApiToken, Game, Hand, Player, RefereeLink, Seat, token_digest

from ..factories import as_actor, game, knock, organiser

pytestmark = pytest.mark.django_db


def _game_with_one_hand():
    """An organiser, a game of theirs, and its one recorded hand (a knock, confirmed at once)."""
    org = organiser()
    g = game(by=org)
    services.record_hand(actor=as_actor(org), game=g, data=knock("Ann", 3, 9))
    return org, g, Hand.objects.get(game=g)


def test_one_joined_reads_a_row_and_its_related_object_in_one_statement(django_assert_num_queries):
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    with django_assert_num_queries(1):
        found = raw_rows.one_joined(RefereeLink, "game", "a.id = %s", [link.pk])
        assert found.game.pk == g.pk
        assert found.game.status == g.status
        assert found.game.conventions == g.conventions
    assert found == RefereeLink.objects.get(pk=link.pk)
    assert found.expires_at == RefereeLink.objects.get(pk=link.pk).expires_at


def test_one_joined_answers_none_when_no_row_matches():
    assert raw_rows.one_joined(ApiToken, "user", "a.digest = %s", [token_digest("nobody")]) is None


def test_rows_read_raw_are_the_objects_the_orm_gives_field_for_field():
    org, g, _ = _game_with_one_hand()
    link = services.create_referee_link(actor=as_actor(org), game=g)
    for model, pk in ((Game, g.pk), (Hand, Hand.objects.get(game=g).pk), (RefereeLink, link.pk),
                      (Seat, g.seats.first().pk), (Player, g.seats.first().player_id)):
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {raw_rows.columns(model, 'x')} FROM {raw_rows.table(model)} x WHERE x.id = %s",
                           [pk])
            (raw,) = raw_rows.instances(model, cursor.fetchall())
        orm = model.objects.get(pk=pk)
        names = [f.attname for f in model._meta.concrete_fields]
        assert [getattr(raw, n) for n in names] == [getattr(orm, n) for n in names], model
        assert (raw._state.adding, raw._state.db) == (False, "default")
        assert raw.get_deferred_fields() == set()
    raw.display_name = "Ann B."
    raw.save(update_fields=["display_name"])  # an object read raw is saved as any other
    assert Player.objects.get(pk=raw.pk).display_name == "Ann B."


@pytest.mark.parametrize("document", [
    {"result": "knock", "knocker": "Ann", "knocker_deadwood": 3, "opponent_deadwood": 9},
    {"note": "Þórður \"the box\" \\ 😀 \u2028", "nested": [1.5, None, True, {"a": [], "b": {}}], "n": -7},
    {"big": 2**70},  # past 64 bits: orjson refuses it, the standard encoder writes it
    {1: "an integer key"},  # the standard encoder writes it as "1"
    [1, "two", {"three": 3}],
])
def test_a_json_document_written_raw_is_stored_as_the_orm_stores_it(document):
    _, _, raw_hand = _game_with_one_hand()
    orm_hand = Hand.objects.get(pk=raw_hand.pk)
    raw_hand.data, orm_hand.data = document, document
    raw_rows.update(raw_hand, ["data"])
    raw_text = _stored_text(raw_hand.pk)
    orm_hand.save(update_fields=["data"])
    assert raw_text == _stored_text(orm_hand.pk)
    assert Hand.objects.get(pk=raw_hand.pk).data == Hand.objects.get(pk=orm_hand.pk).data


def _stored_text(pk):
    with connection.cursor() as cursor:
        cursor.execute("SELECT data FROM scoring_hand WHERE id = %s", [pk])
        return cursor.fetchone()[0]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_json_document_holding_a_float_that_is_not_finite_is_refused_as_the_orm_refuses_it(value):
    _, _, hand = _game_with_one_hand()
    hand.data = {"note": None, "deep": [{"x": value}]}  # a null beside it: orjson would write both null
    with pytest.raises(DatabaseError) as orm, transaction.atomic():
        hand.save(update_fields=["data"])
    with pytest.raises(type(orm.value)), transaction.atomic():
        raw_rows.update(hand, ["data"])
    assert Hand.objects.get(pk=hand.pk).data["result"] == "knock"  # nothing stored by either


postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="the kept cursor is PostgreSQL's")


@postgres_only
def test_the_statements_of_every_hand_share_one_cursor_per_connection_and_a_new_connection_gets_its_own():
    org, g, _ = _game_with_one_hand()
    kept = connection._ginscore_statement_cursor
    services.record_hand(actor=as_actor(org), game=g, data=knock("Ann", 3, 9))
    assert connection._ginscore_statement_cursor is kept
    with raw_rows.statement_cursor(raw_rows.database()) as cursor:
        assert cursor is kept
    assert Hand.objects.filter(game=g).count() == 2


@postgres_only
def test_a_kept_cursor_that_was_closed_is_replaced():
    with raw_rows.statement_cursor(raw_rows.database()) as cursor:
        cursor.execute("SELECT 1")
        old = cursor
    old.close()
    with raw_rows.statement_cursor(raw_rows.database()) as cursor:
        assert cursor is not old
        cursor.execute("SELECT 2")
        assert cursor.fetchone() == (2,)


@postgres_only
def test_a_statement_failing_on_the_kept_cursor_raises_djangos_error_and_the_transaction_is_then_refused():
    from django.db import IntegrityError
    from django.db.transaction import TransactionManagementError

    _, _, hand = _game_with_one_hand()
    hand.number = 0  # the database's check refuses it
    with transaction.atomic():
        with pytest.raises(IntegrityError), transaction.atomic():
            raw_rows.update(hand, ["number"])
        hand.number = 1
        raw_rows.update(hand, ["number"])  # the inner block rolled back: the transaction goes on
    raw_rows.update(hand, ["reason"])  # prepared: what follows runs on the kept cursor alone
    with transaction.atomic():
        transaction.set_rollback(True)  # as after an error let out of an inner block
        with pytest.raises(TransactionManagementError):
            raw_rows.update(hand, ["reason"])
    assert Hand.objects.get(pk=hand.pk).number == 1


@postgres_only
def test_statements_are_counted_by_djangos_cursor_while_queries_are_logged(django_assert_num_queries):
    org = organiser()
    g = game(by=org)
    raw_rows.update(g, ["updated_at"])  # prepared on this connection: the next is one statement
    with django_assert_num_queries(1) as captured:
        raw_rows.update(g, ["updated_at"])
    assert "ginscore_update_scoring_game_" in captured.captured_queries[0]["sql"]


def _every_concrete_field():
    from django.apps import apps

    for app in ("scoring", "tournaments"):
        for model in apps.get_app_config(app).get_models():
            yield from model._meta.concrete_fields


_PLAIN_VALUES = [None, 0, 7, -3, 2**40, "", "x", "7", True, False,
                 datetime.datetime(2026, 11, 27, 12, 0, 0, 5, tzinfo=datetime.UTC),
                 datetime.datetime(2026, 11, 27, 13, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))]


def test_every_fields_plain_values_are_bound_as_get_db_prep_save_binds_them():
    db = raw_rows.database()
    checked = 0
    for field in _every_concrete_field():
        for value in _PLAIN_VALUES:
            try:
                expected = field.get_db_prep_save(value, db)
            except (TypeError, ValueError, AttributeError, ValidationError):
                continue
            bound = raw_rows._saved(db, field, value)
            assert (type(bound), repr(bound)) == (type(expected), repr(expected)), (field, value)
            checked += 1
    assert checked > 500
    assert raw_rows._plain_conversion(Hand._meta.get_field("game"), db.vendor) == (int, "BigAutoField", True)
    assert raw_rows._plain_conversion(Hand._meta.get_field("previous_slot"), db.vendor) == (str, "CharField", False)
    assert raw_rows._plain_conversion(Hand._meta.get_field("data"), db.vendor) is None


def _attributes(instance) -> dict:
    return {name: value for name, value in vars(instance).items() if name != "_state"}


def test_new_makes_the_instance_the_models_own_constructor_makes():
    org = organiser()
    g = game(by=org)
    link = services.create_referee_link(actor=as_actor(org), game=g)
    when = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.UTC)
    for user, via in ((org, None), (None, link)):
        plain = {"number": 3, "version": 1, "action": Hand.Action.ENTRY, "data": {"result": "knock", "x": [1]},
                 "reason": "", "entered_from": "192.0.2.1", "entered_at": when, "slot": f"{g.pk}:3",
                 "previous_slot_id": f"{g.pk}:2"}
        made = Hand(game=g, entered_by=user, entered_via=via, **plain)
        fast = raw_rows.new(Hand, {"game": g, "entered_by": user, "entered_via": via}, **plain)
        assert _attributes(fast) == _attributes(made)
        assert list(vars(fast)) == list(vars(made))  # the same attributes, in the same order
        assert fast._state.fields_cache == made._state.fields_cache
        assert fast._state.adding is made._state.adding is True
        assert (fast.game, fast.entered_by, fast.entered_via) == (g, user, via)
    fast_game, made_game = _attributes(raw_rows.new(Game)), _attributes(Game())
    assert list(fast_game) == list(made_game)
    assert fast_game.pop("scores_changed_at") <= made_game.pop("scores_changed_at")  # its default: now
    assert fast_game == made_game
    assert raw_rows.new(Hand).data is not raw_rows.new(Hand).data  # a callable default: a new one each time


def test_new_refuses_a_field_the_model_has_not():
    with pytest.raises(TypeError, match="Hand has no field game, numbr"):
        raw_rows.new(Hand, numbr=3, game=None)


def _stored_rows(model, pks):
    names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    return [[getattr(row, n) for n in names] for row in model.objects.filter(pk__in=pks).order_by("pk")]


def test_many_rows_inserted_at_once_are_stored_as_bulk_create_stores_them_and_get_their_keys_in_order():
    org = organiser()
    g = game(by=org)
    expiry = datetime.datetime(2026, 11, 30, 0, 0, 0, 123456, tzinfo=datetime.UTC)

    def links(label):
        return [RefereeLink(game=g, token_digest=token_digest(f"{label}{i}"), label=f"Table {i} “é” \\ \"x\"",
                            created_by=org, expires_at=expiry, revoked_at=expiry if i == 2 else None)
                for i in range(3)]

    fast, orm = links("fast"), links("orm")
    raw_rows.insert_many(fast)
    RefereeLink.objects.bulk_create(orm)
    assert [link.pk for link in fast] == sorted(link.pk for link in fast)
    assert [(link._state.adding, link._state.db) for link in fast] == [(False, "default")] * 3
    fast_rows = _stored_rows(RefereeLink, [x.pk for x in fast])
    orm_rows = _stored_rows(RefereeLink, [x.pk for x in orm])
    assert [r[1] for r in fast_rows] == [token_digest(f"fast{i}") for i in range(3)]  # each row under its own key
    assert [r[:1] + r[2:4] + r[5:] for r in fast_rows] == [r[:1] + r[2:4] + r[5:] for r in orm_rows]
    assert all(r[4] is not None for r in fast_rows)  # created_at: auto_now_add, set as a save sets it


@pytest.mark.parametrize("summary", [
    {"totals": {"Ann": 0, "Bob": 0}, "nested": [1.5, None, True, {"a": [], "b": {}}],
     "note": "Þórður \"the box\" \\ 😀"},
    {"big": 2**70},  # past 64 bits: the ORM's way
    {1: "an integer key"},  # the standard encoder writes it as "1": the ORM's way
])
def test_a_games_json_fields_inserted_at_once_read_back_as_the_orms(summary):
    org = organiser()
    players = [Player.objects.create(display_name=n) for n in ("Ann", "Bob")]

    def made():
        return Game(format="standard", conventions={"target": 100, "box": 25}, player_names=["Ann", "Bob"],
                    first_dealer=players[0], first_dealer_name="Ann", created_by=org, summary=summary)

    fast, orm = [made(), made()], [made(), made()]
    raw_rows.insert_many(fast)
    Game.objects.bulk_create(orm)
    skip = {"created_at", "updated_at", "scores_changed_at"}
    names = [f.attname for f in Game._meta.concrete_fields if f.attname not in skip | {"id"}]
    for a, b in zip(Game.objects.filter(pk__in=[g.pk for g in fast]).order_by("pk"),
                    Game.objects.filter(pk__in=[g.pk for g in orm]).order_by("pk"), strict=True):
        assert [getattr(a, n) for n in names] == [getattr(b, n) for n in names]


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_a_float_that_is_not_finite_among_many_rows_is_refused_as_the_orm_refuses_it(value):
    org = organiser()
    player = Player.objects.create(display_name="Ann")
    before = Game.objects.count()
    games = [Game(format="standard", conventions={}, player_names=["Ann"], first_dealer=player,
                  first_dealer_name="Ann", created_by=org, summary={"x": value, "y": None})]
    with pytest.raises(DatabaseError), transaction.atomic():
        raw_rows.insert_many(games)
    assert Game.objects.count() == before


def test_insert_many_takes_instances_of_one_model_only():
    org = organiser()
    g = game(by=org)
    with pytest.raises(TypeError):
        raw_rows.insert_many([RefereeLink(game=g, token_digest="x", created_by=org, expires_at=g.created_at),
                              Seat(game=g, player=g.seats.first().player, position=9)])


def test_values_python_takes_for_equal_but_json_does_not_are_each_stored_as_their_own():
    org = organiser()
    player = Player.objects.create(display_name="Ann")
    summaries = [{"x": 1}, {"x": True}, {"x": 1.0}, {"x": 1}]
    games = [Game(format="standard", conventions={"target": 100}, player_names=["Ann"], first_dealer=player,
                  first_dealer_name="Ann", created_by=org, summary=summary) for summary in summaries]
    raw_rows.insert_many(games)
    stored = [Game.objects.get(pk=g.pk).summary for g in games]
    assert [(type(s["x"]), s["x"]) for s in stored] == [(int, 1), (bool, True), (float, 1.0), (int, 1)]
    assert [Game.objects.get(pk=g.pk).conventions for g in games] == [{"target": 100}] * 4  # one value, every row
