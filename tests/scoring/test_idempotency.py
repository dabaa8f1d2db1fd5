"""Idempotency-Key, exactly: the answer stored in the request's own transaction, every copy gets the first
answer, a failed request leaves nothing behind (its retry runs at once), answers stored compactly and
kept 24 hours."""

import json
import zlib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone

from core.models import OnceKey
from scoring import services
from scoring.models import Hand, PinFailure

from ..factories import as_actor, game, knock, user
from .test_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    ref = user("referee")
    g = game(referees=[ref], conventions={"preset": "classic", "target": 10000})
    return g, ref, client_for(ref)


def post_hand(api, g, key, data=None):
    return api.post(f"/api/v1/games/{g.pk}/hands/", data or knock("Ann", 6, 19), format="json",
                    HTTP_IDEMPOTENCY_KEY=key)


def test_a_copy_sent_again_runs_nothing_twice_its_own_writes_are_rolled_back_and_it_gets_the_first_answer(table):
    g, _ref, api = table
    first = post_hand(api, g, "k1")
    again = post_hand(api, g, "k1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game=g).count() == 1
    assert OnceKey.objects.filter(key="k1").count() == 1


def test_a_claim_without_an_answer_left_by_an_earlier_release_is_taken_over_at_once(table):
    g, ref, api = table
    OnceKey.objects.create(kind="api", actor=f"user:{ref.pk}", key="k2", method="POST", path="/", fingerprint="x")
    assert post_hand(api, g, "k2").status_code == 201
    assert OnceKey.objects.get(key="k2").status_code == 201


def test_a_request_cut_off_by_a_database_outage_leaves_no_claim_and_its_retry_succeeds_at_once(table, monkeypatch):
    g, _ref, api = table
    real = services.record_hand

    def outage(**kwargs):
        real(**kwargs)  # the hand was written in the transaction, then the connection went away
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "record_hand", outage)
    cut = post_hand(api, g, "k-outage")
    assert (cut.status_code, cut["Retry-After"]) == (503, "5")
    assert not OnceKey.objects.filter(key="k-outage").exists()
    assert Hand.objects.filter(game=g).count() == 0
    monkeypatch.undo()
    retried = post_hand(api, g, "k-outage")
    assert retried.status_code == 201
    assert "Idempotent-Replayed" not in retried
    assert Hand.objects.filter(game=g).count() == 1


def test_an_answer_older_than_24_hours_is_not_replayed(table):
    g, _ref, api = table
    post_hand(api, g, "k3")
    OnceKey.objects.filter(key="k3").update(created_at=timezone.now() - timedelta(hours=24, minutes=1))
    again = post_hand(api, g, "k3")
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again
    assert Hand.objects.filter(game=g).count() == 2


def test_a_refused_request_is_answered_the_same_way_on_retry_and_its_key_is_kept(table):
    g, _ref, api = table
    bad = knock("Ann", 12, 19)
    first = post_hand(api, g, "k4", bad)
    again = post_hand(api, g, "k4", bad)
    assert first.status_code == again.status_code == 400
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"


def test_a_request_that_crashes_releases_its_key(table, monkeypatch):
    g, _ref, api = table
    api.raise_request_exception = False

    def boom(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "record_hand", boom)
    assert post_hand(api, g, "k5").status_code == 500
    assert not OnceKey.objects.filter(key="k5").exists()
    monkeypatch.undo()
    assert post_hand(api, g, "k5").status_code == 201


def test_answers_are_stored_compressed(table):
    g, _ref, api = table
    raw = 0
    for i in range(60):
        answer = post_hand(api, g, f"hand-{i}", knock("Ann" if i % 2 else "Bob", 2, 9))
        assert answer.status_code == 201, answer.json()
        raw += len(json.dumps(answer.json()))
    stored = sum(len(bytes(r.answer)) for r in OnceKey.objects.all())
    assert stored * 8 < raw
    last = OnceKey.objects.get(key="hand-59")
    assert json.loads(zlib.decompress(bytes(last.answer)))["hand"]["number"] == 60


def test_cleanup_deletes_records_older_than_24_hours():
    old = timezone.now() - timedelta(hours=25)
    OnceKey.objects.create(kind="api", actor="a", key="old", method="POST", path="/", fingerprint="", created_at=old)
    OnceKey.objects.create(kind="api", actor="a", key="new", method="POST", path="/", fingerprint="")
    g = game()
    ann = g.seats.get(position=0).player
    PinFailure.objects.create(player=ann, actor="x")
    PinFailure.objects.create(player=ann, actor="x")
    PinFailure.objects.filter(pk=PinFailure.objects.first().pk).update(failed_at=old)
    out = StringIO()
    call_command("cleanup_expired", stdout=out)
    assert list(OnceKey.objects.values_list("key", flat=True)) == ["new"]
    assert PinFailure.objects.count() == 1
    assert "Deleted 1 idempotency records and 1 wrong-PIN records" in out.getvalue()


def test_a_key_is_kept_per_actor(table):
    g, ref, api = table
    other = user("other-ref")
    g.referees.add(other)
    post_hand(api, g, "shared")
    assert post_hand(client_for(other), g, "shared", knock("Bob", 2, 9)).status_code == 201
    assert Hand.objects.filter(game=g).count() == 2
    services.confirm_hand(actor=as_actor(ref), game=g, number=1, player_name="Bob", pin="2222")
