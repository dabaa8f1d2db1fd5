"""One-time keys (``core.once``): a key is claimed once per kind and actor, in the caller's transaction (a
rollback frees it), an expired claim is taken afresh; and the upgrade that moved them to ``core`` keeps the
keys still live, with what a hand form recorded read into typed columns."""

import datetime
import decimal
import json
from datetime import timedelta

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django.utils.translation import gettext_lazy

from core import once
from core.models import OnceKey

pytestmark = pytest.mark.django_db


def test_a_key_is_claimed_once_per_kind_and_actor_and_says_what_its_first_use_made():
    assert once.claim(once.Kind.HAND_FORM, actor="user:1", key="k", object_id=7, number=3) is None
    again = once.claim(once.Kind.HAND_FORM, actor="user:1", key="k", object_id=7, number=4)
    assert (again.object_id, again.number) == (7, 3)
    assert once.claim(once.Kind.HAND_FORM, actor="user:2", key="k") is None  # another actor's key
    assert once.claim(once.Kind.DIRECTOR_FORM, actor="user:1", key="k") is None  # another kind's


def test_a_claim_rolled_back_with_its_write_leaves_the_key_free():
    def claim_then_fail():
        with transaction.atomic():
            assert once.claim(once.Kind.DIRECTOR_FORM, actor="user:1", key="k") is None
            raise RuntimeError("the write failed")

    with pytest.raises(RuntimeError):
        claim_then_fail()
    assert once.claim(once.Kind.DIRECTOR_FORM, actor="user:1", key="k") is None


def test_an_expired_claim_is_taken_afresh_and_cleanup_forgets_it():
    once.claim(once.Kind.HAND_FORM, actor="a", key="old", object_id=1, number=1)
    OnceKey.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert once.claim(once.Kind.HAND_FORM, actor="a", key="old", object_id=2, number=5) is None
    assert OnceKey.objects.get(key="old").number == 5
    OnceKey.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert once.forget_expired() == 1


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_moves_the_live_keys_of_all_three_kinds_with_typed_columns():
    executor = MigrationExecutor(connection)
    before = [("scoring", "0015_hand_slots_without_pattern_indexes"), ("core", "0001_once_keys_and_rate_counters")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("scoring", "IdempotencyRecord")
    now = timezone.now()
    old.objects.create(actor="user:1", key="api-1", method="POST", path="/api/v1/games/7/hands/",
                       fingerprint="f1", status_code=201, answer=b"x", created_at=now)
    old.objects.create(actor="user:1", key="form:abc", method="POST", path="game:7/hand:3", fingerprint="f2",
                       status_code=201, created_at=now)
    old.objects.create(actor="user:2", key="event-form:xyz", method="POST", path="tournaments form",
                       fingerprint="", status_code=200, created_at=now)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    rows = sorted(OnceKey.objects.values_list("kind", "actor", "key", "path", "status_code", "object_id", "number"))
    assert rows == [
        ("api", "user:1", "api-1", "/api/v1/games/7/hands/", 201, None, None),
        ("director_form", "user:2", "xyz", "", None, None, None),
        ("hand_form", "user:1", "abc", "", None, 7, 3),
    ]


@pytest.mark.parametrize("body", [
    {"at": datetime.datetime(2026, 11, 28, 19, 0, 0, 123456, tzinfo=datetime.UTC), "name": "Þórður 😀",
     "money": decimal.Decimal("1.50"), "later": gettext_lazy("Round"), "rows": [{"n": 1, "x": None}]},
    {"big": 2**70},  # past 64 bits: the standard encoder writes it
])
def test_a_stored_answer_reads_back_as_the_standard_encoder_wrote_it(body):
    record = OnceKey(answer=once.compress(body))
    assert once.answer_of(record) == json.loads(json.dumps(body, cls=DjangoJSONEncoder))
