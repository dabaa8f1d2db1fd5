"""What the scoring app tells other apps, without knowing them: a game's settled result changed, a hand confirmed.

``game_result_changed`` is sent by ``scoring.services`` inside the transaction that changes a game's
``settled_result`` (a game completing with every hand confirmed, a correction or void that changes its
winner or margin or reopens it, an abandon or reopen), with ``game``, ``before`` and ``after``. It is
for keeping what other apps derived from results in step (the tournaments app's cached standings);
a receiver runs in the writer's transaction, so it must be quick, must not write to the game, and
must not fail for a game it does not know. Nothing in ``scoring`` listens to it.

``hand_confirmed`` is sent once the transaction that confirmed a hand's version (accepted by a player or a
second official, or confirmed as it was recorded in a game that needs no confirmation) has committed, with
``game_id``, ``number`` and ``version``: for telling the world (``notifications``), never for keeping data.
"""

from django.dispatch import Signal

game_result_changed = Signal()
hand_confirmed = Signal()


def hand_confirmed_on_commit(*, game_id: int, number: int, version: int) -> None:
    """Send ``hand_confirmed`` once the current transaction commits."""
    from django.db import transaction

    def send_hand_confirmed_after_commit() -> None:
        hand_confirmed.send(sender=None, game_id=game_id, number=number, version=version)

    transaction.on_commit(send_hand_confirmed_after_commit, robust=True)
