"""What the tournaments app tells other apps, without knowing them: a director's result changed a match's.

``match_result_changed`` is sent by ``tournaments.services`` inside the transaction that records a
director's forfeit or adjusted result, or clears one, with ``match``. It is for keeping what other apps
derive from results in step (players' ratings); a receiver runs in the writer's transaction, so it must
be quick and must not write to the match. Results that come from the games are told by ``scoring``'s
``game_result_changed``.

``answer_refreshed`` is sent, with ``event``, by the job that stored a new answer for the event (outside
any write's transaction): a running bracket opens the matches a new result made ready.

``event_visibility_changed`` is sent, with ``event``, inside the transaction that makes an event public or
private: what other apps derive from public results only (ratings) follows.

``registration_changed`` is sent after the commit of a sign-up made, promoted or withdrawn (see below).
"""

from django.dispatch import Signal

match_result_changed = Signal()
event_visibility_changed = Signal()
answer_refreshed = Signal()

registration_changed = Signal()
"""Sent once the transaction that made, promoted (from the waitlist, by itself or by a director) or withdrew a
sign-up has committed, with ``registration`` and ``what`` ("created", "promoted", "withdrawn"); "created" also
with ``token``, the player's own link's token (the only moment it exists in clear)."""


def send_on_commit(signal: Signal, **kwargs) -> None:
    """Send ``signal`` once the current transaction commits (never if it rolls back)."""
    from django.db import transaction

    def send_signal_after_commit() -> None:
        signal.send(sender=None, **kwargs)

    transaction.on_commit(send_signal_after_commit, robust=True)
