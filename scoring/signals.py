"""What the scoring app tells other apps, without knowing them: a game's settled result changed.

``game_result_changed`` is sent by ``scoring.services`` inside the transaction that changes a game's
``settled_result`` (a game completing with every hand confirmed, a correction or void that changes its
winner or margin or reopens it, an abandon or reopen), with ``game``, ``before`` and ``after``. It is
for keeping what other apps derived from results in step (the tournaments app's cached standings);
a receiver runs in the writer's transaction, so it must be quick, must not write to the game, and
must not fail for a game it does not know. Nothing in ``scoring`` listens to it.
"""

from django.dispatch import Signal

game_result_changed = Signal()
