"""Table cards still to print: the tables being played whose card was never printed (a bracket match
that opened by itself when a result made its players known has no link yet) get their links made, to be
shown once on the "Cards to print" sheet (or in the API's answer), and are marked printed.

It must not open, pair or decide matches, nor touch a table whose card was printed: a lost card is one
match's new link (``games.issue_table_links``).
"""

from __future__ import annotations

from django.db import transaction

from scoring.models import Game
from tournaments.models import Event, Match, MatchGame, Round
from tournaments.policy import Actor
from tournaments.services.base import refusing
from tournaments.stored_event import load_state

from .base import error, lock_event_to_change
from .games import Opened, renew_table_links


@refusing
@transaction.atomic
def print_table_cards(*, actor: Actor, event: Event, started_too: bool = False) -> Opened:
    """New referee links for every table still being played whose card was never printed, their cards
    marked printed; returns those matches and their tokens ({game id: token}), which exist only now.

    A table already started whose link works (made elsewhere) keeps it unless ``started_too``, so no
    referee is sent to the sign-in page in the middle of a game; it stays on the list meanwhile."""
    event = lock_event_to_change(actor, event, "print table cards")
    state = load_state(event)
    unprinted = set(Match.objects.filter(event=event, card_printed_at__isnull=True, reset_at__isnull=True,
                                         is_bye=False, match_games__game__status=Game.Status.IN_PROGRESS)
                    .exclude(round__status=Round.Status.DRAFT).values_list("pk", flat=True))
    to_print = [m.pk for m in state.live_matches if m.pk in unprinted and not state.outcome(m).decided]
    if not to_print:
        raise error("cards", "every table still being played has its card printed: there is none to print")
    tokens = renew_table_links(actor, to_print, keep_started=not started_too)
    if not tokens:
        raise error("started_too", "the tables left are already playing with a working link: tick “also the "
                                   "tables already playing” to replace theirs (their referees then need the "
                                   "new card)")
    printed = MatchGame.objects.filter(game_id__in=list(tokens)).values("match_id")
    matches = list(Match.objects.filter(pk__in=printed).select_related("round").order_by("pk"))
    return Opened(None, matches, tokens)
