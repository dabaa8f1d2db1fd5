"""Many referees' phones writing to one game at once: no duplicate and no missing hand numbers.

Needs real concurrent transactions, so it runs on PostgreSQL (CI's second run); SQLite serialises
whole-database writes and is skipped.
"""

import contextlib
import threading

import pytest
from django.db import connection, connections

from scoring import services
from scoring.engine import SheetError
from scoring.models import Game, Hand
from scoring.policy import NotAllowed

from ..factories import as_actor, game, knock, user

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
                    with contextlib.suppress(SheetError, NotAllowed):
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
