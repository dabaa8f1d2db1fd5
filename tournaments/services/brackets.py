"""Single and double elimination brackets: opening every match whose two players are known (by a
director, or by itself once a result made it ready), at the lowest free tables, and resetting the open
matches a correction has given the wrong players.

It must not decide who plays whom: the engine's bracket does; this module only opens and resets.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from core.refusals import Refusal
from scoring import services as scoring
from tournaments.engine import EventError
from tournaments.models import Event, Match
from tournaments.policy import Actor
from tournaments.services.base import refusing
from tournaments.stored_event import EventState, compute_answer, load_state, with_match_details

from ..answers.job import bump
from .base import error, lock_event_to_change, reason_text
from .games import Opened, create_match, open_games
from .pairing_requests import refuse_never


def _free_tables(state: EventState) -> list[int]:
    busy = {m.table for m in state.live_matches if m.bracket_id and m.table and not state.outcome(m).decided}
    return [t for t in range(1, len(state.entries) + 2) if t not in busy]


def open_bracket(actor: Actor, event: Event, state: EventState, *, links: bool = True) -> Opened:
    answer, warnings = compute_answer(state)
    refuse_never(answer)
    stale = [w for w in warnings if w["kind"] == "bracket_players_changed"]
    if stale:
        raise error("bracket", stale[0]["message"])
    if answer["complete"]:
        raise error("bracket", f"every match of {event.name} has been played")
    open_ids = {m.bracket_id for m in state.live_matches if m.bracket_id}
    rows = {r["id"]: r for r in answer["bracket"]}
    ready = [rows[p["match"]] for p in answer["pending"] if p["match"] not in open_ids]
    if not ready:
        waiting = sorted(open_ids - {m.bracket_id for m in state.live_matches
                                     if m.bracket_id and state.outcome(m).decided})
        raise error("bracket", "no bracket match is ready to open: waiting for "
                                + (", ".join(waiting) if waiting else "results"))
    tables = iter(_free_tables(state))
    winners_of = _bracket_winners(answer)
    opened = Opened(None)
    ids = state.by_label
    for row in ready:
        pending = next(p for p in answer["pending"] if p["match"] == row["id"])
        sources = {s.get("winner_of") or s.get("loser_of"): winners_of.get(s.get("winner_of") or s.get("loser_of"))
                   for s in row.get("from", []) if s.get("winner_of") or s.get("loser_of")}
        m = create_match(event, round=None, table=next(tables), players=[ids[n] for n in pending["players"]],
                          bracket_id=row["id"], opened_from={k: ids.get(v) for k, v in sources.items()})
        opened.matches.append(m)
    open_games(actor, event, opened.matches, opened.tokens, links=links)
    return opened


def _bracket_winners(answer: dict[str, Any]) -> dict[str, str | None]:
    return {r["id"]: r["winner"] for r in answer.get("bracket", [])}


@refusing
@transaction.atomic
def reset_dependent_bracket_matches(*, actor: Actor, event: Event, reason: str = "") -> Opened:
    """Reset every open bracket match without a result whose players the bracket no longer puts there
    (an earlier result changed): its games are abandoned and links revoked, the match is kept marked
    reset, and the right matches are opened in its place."""
    event = lock_event_to_change(actor, event, "reset bracket matches")
    if not event.is_elimination:
        raise error("event", "only a bracket has matches to reset")
    reason = reason_text(reason, required=False) or "the players of this match changed after a correction"
    state = load_state(event)
    _, warnings = compute_answer(state)
    resettable = {w["match_pk"] for w in warnings if w["kind"] == "bracket_players_changed" and w["resettable"]}
    if not resettable:
        raise error("bracket", "no open bracket match waits on a changed result")
    reset = []
    for m in with_match_details(Match.objects.filter(pk__in=resettable, event=event), links=True):
        for mg in m.match_games.all():
            for link in mg.game.referee_links.all():
                scoring.revoke_referee_link_unchecked(link=link)
            scoring.abandon_game_unchecked(actor=actor, game=mg.game, reason=f"bracket match reset: {reason}",
                                           frozen_as="Closed: its bracket match was reset")
        m.reset_at = timezone.now()
        m.reset_reason = reason
        m.save(update_fields=["reset_at", "reset_reason"])
        reset.append(m)
    state = load_state(event)
    try:
        opened = open_bracket(actor, event, state)
    except (EventError, Refusal):
        opened = Opened(None)  # the right matches wait for results still owed
    opened.reset = reset
    bump(event)
    return opened



@refusing
@transaction.atomic
def open_ready_bracket_matches(*, event_id: int) -> Opened | None:
    """Open every bracket match whose two players a result has just made known, at the lowest free
    tables, without waiting for a director: its game is made and it shows on the pairings page and on
    the referees' "my tables". No referee link is made here (its token could be shown to nobody): its
    card is not printed yet, so the event page counts it among the table cards to print, and a director's
    "Cards to print" sheet makes its link (``cards.print_table_cards``). Nothing is opened while a correction has left
    an open match with the wrong players (the event page names it; a director resets it). The system
    does this, not a person: ``created_by`` of its games is the event's creator."""
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None or not event.is_elimination or event.status != Event.Status.RUNNING:
        return None
    try:
        opened = open_bracket(Actor(user=event.created_by, address="opened automatically"), event,
                               load_state(event), links=False)
    except (EventError, Refusal):
        return None  # nothing is ready, or a stale match waits for a director
    bump(event)
    return opened

