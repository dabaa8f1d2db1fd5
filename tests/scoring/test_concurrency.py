"""Many referees' phones writing to one game at once: no duplicate and no missing hand numbers.

Needs real concurrent transactions, so it runs on PostgreSQL (CI's second run); SQLite serialises
whole-database writes and is skipped.
"""

import contextlib
import json
import threading

import pytest
from django.db import connection, connections

from core.refusals import Refusal
from scoring import services
from scoring.models import Game, Hand, PinFailure, Player
from scoring.policy import NotAllowed

from ..factories import as_actor, game, knock, organiser, user

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks"),
]

THREADS = 8
HANDS_EACH = 6


def test_concurrent_records_and_confirmations_leave_no_duplicate_or_missing_hand_number():
    referees = [user(f"phone{i}") for i in range(THREADS)]
    g = game(referees=referees, conventions={"preset": "classic", "target": 10000})
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def phone(ref):
        try:
            start.wait()
            actor = as_actor(ref)
            for _ in range(HANDS_EACH):
                services.record_hand(actor=actor, game=Game.objects.get(pk=g.pk), data=knock("Ann", 2, 9))
                # other phones' hands may be waiting too: confirm whatever is pending
                for pending in Hand.objects.filter(game=g, confirmed_at__isnull=True, is_current=True):
                    # another phone may have confirmed it in the meantime
                    with contextlib.suppress(Refusal):
                        services.confirm_hand(actor=actor, game=Game.objects.get(pk=g.pk), number=pending.number,
                                              player_name="Bob", pin="2222")
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(r,)) for r in referees]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    numbers = sorted(Hand.objects.filter(game=g, version=1).values_list("number", flat=True))
    assert numbers == list(range(1, THREADS * HANDS_EACH + 1))
    for h in Hand.objects.filter(game=g, confirmed_at__isnull=True):
        services.confirm_hand(actor=as_actor(referees[0]), game=Game.objects.get(pk=g.pk), number=h.number,
                              player_name="Bob", pin="2222")
    g.refresh_from_db()
    assert g.summary["counted_hands"] == THREADS * HANDS_EACH
    assert g.summary["totals"]["Ann"] == 7 * THREADS * HANDS_EACH + 20 * THREADS * HANDS_EACH


def run_together(count, work):
    """Run ``work(i)`` in ``count`` threads released at once; return their results in order."""
    results: list = [None] * count
    start = threading.Barrier(count)

    def one(i):
        try:
            start.wait()
            results[i] = work(i)
        except BaseException as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def test_every_copy_of_a_confirm_sent_at_once_with_one_key_gets_the_first_answer():
    from .test_api import client_for

    ref = user("keyref")
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    url = f"/api/v1/games/{g.pk}/hands/1/confirm/"
    clients = [client_for(ref) for _ in range(16)]

    def confirm(i):
        answer = clients[i].post(url, {"player": "Bob", "pin": "2222"}, format="json",
                                 HTTP_IDEMPOTENCY_KEY="one-confirm")
        return answer.status_code, answer.json()

    answers = run_together(16, confirm)
    # each copy waits for the first to commit, then is given its answer: no 409, no second confirmation
    assert {code for code, _ in answers} == {200}, answers
    bodies = {json.dumps(body, sort_keys=True) for code, body in answers}
    assert len(bodies) == 1
    assert Hand.objects.get(game=g).confirmed_by_player.display_name == "Bob"
    # and once the first has finished, every retry gets its answer
    code, body = confirm(0)
    assert (code, json.dumps(body, sort_keys=True)) == (200, bodies.pop())


def test_concurrent_wrong_pins_are_counted_one_by_one_and_lock_after_five():
    ref = user("guesser")
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))

    def guess(i):
        try:
            services.confirm_hand(actor=as_actor(ref), game=Game.objects.get(pk=g.pk), number=1,
                                  player_name="Bob", pin=f"{9000 + i}")
        except NotAllowed as exc:
            return type(exc).__name__

    results = run_together(12, guess)
    assert PinFailure.objects.filter(player__display_name="Bob").count() == 5
    assert sorted(results).count("PinLocked") == 12 - 4


def test_two_players_created_with_one_name_at_the_same_moment_give_one_player_and_a_clear_400():
    from .test_api import client_for

    clients = [client_for(organiser()) for _ in range(8)]
    results = run_together(8, lambda i: clients[i].post("/api/v1/players/", {"display_name": "Twin"},
                                                         format="json").status_code)
    assert sorted(results) == [201] + [400] * 7
    assert Player.objects.filter(display_name="Twin").count() == 1


def test_the_shared_cache_counts_every_increment_from_concurrent_connections():
    """Throttle counters: 8 connections (as 8 workers would) adding 25 each count exactly 200."""
    from django.core.cache import cache

    cache.set("concurrency-counter", 0, 60)
    run_together(8, lambda i: [cache.incr("concurrency-counter") for _ in range(25)])
    assert cache.get("concurrency-counter") == 200


def test_rate_counters_count_every_hit_from_concurrent_connections_in_one_statement_each():
    """The database's rate counters (no Redis): 8 connections hitting one key 25 times each count 200."""
    from core import rate_limits

    counts = run_together(8, lambda i: [rate_limits.hit("concurrency-key", 10**8).count for _ in range(25)])
    assert sorted(c for each in counts for c in each) == list(range(1, 201))


def test_copies_of_one_phones_hand_sent_at_once_record_it_once():
    """The phone's outbox sent a hand, its answer was slow, and a second tab sent it too: every copy under
    the game's lock finds the first one's hand by the phone's id."""
    ref = user("phone")
    g = game(referees=[ref])

    def copy(i):
        try:
            hand, _ = services.record_hand(actor=as_actor(ref), game=Game.objects.get(pk=g.pk),
                                           data=knock("Ann", 6, 19), phone_id="one-hand", number=1)
            return hand.number
        except services.SentBefore as sent:
            return ("sent before", sent.hand.number)

    results = run_together(6, copy)
    assert sorted(results, key=str) == [("sent before", 1)] * 5 + [1]
    assert Hand.objects.filter(game=g).count() == 1
