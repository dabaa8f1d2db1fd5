"""Swiss and round-robin rounds: pairing the next round from the stored results (the engine's
``next_round``), a draft round's swaps (with what they break said in words), and publishing.

It must not open bracket matches itself (``brackets`` does, even when a director asks here to "pair")
nor recompute the answer (``answers``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from tournaments.engine.records import default_swiss_rounds
from tournaments.models import AvoidPair, Entry, Event, Match, MatchPlayer, Round
from tournaments.policy import Actor
from tournaments.services.base import refusing
from tournaments.stored_event import EventState, compute_answer, decided_rounds, load_state, results_key, round_results

from ..answers.job import bump
from .base import error, lock_event_to_change
from .brackets import open_bracket
from .checkin import absent_entries
from .games import Opened, create_match, open_games
from .pairing_requests import refuse_never

DID_NOT_CHECK_IN = "did not check in"


@refusing
@transaction.atomic
def pair_next_round(*, actor: Actor, event: Event, publish: bool = True, withdraw_absent: bool = False) -> Opened:
    """Swiss and round robin: pair the next round from the stored results (the engine's
    ``next_round``), each pair at the table the engine numbers, byes as matches without a game.
    ``publish`` (the default) makes the games and referee links at once; otherwise the round is a
    draft a director may swap in before ``publish_round``.

    Elimination: the first call starts the bracket; every call opens each bracket match whose two
    players are known and that is not open yet, at the lowest free tables.

    With check-in, round 1 (or the bracket) pairs only the entries checked in: any other still in is
    named and the pairing refused, unless ``withdraw_absent`` withdraws them in the same step ("did
    not check in")."""
    event = lock_event_to_change(actor, event, "pair rounds")
    if event.status == Event.Status.COMPLETE:
        raise error("event", f"{event.name} is complete")
    if event.check_in and event.status == Event.Status.REGISTRATION:
        _withdraw_absent(event, withdraw=withdraw_absent)
    state = load_state(event)
    live = [e for e in state.entries if e.dropped_after_round is None]
    if event.status == Event.Status.REGISTRATION and len(live) < 2:
        raise error("entries", f"an event needs at least 2 entries still in; {len(live)} given")
    if event.is_elimination:
        opened = open_bracket(actor, event, state)
    else:
        opened = _pair_round(actor, event, state, publish=publish)
    if event.status == Event.Status.REGISTRATION:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    bump(event)
    return opened


def _withdraw_absent(event: Event, *, withdraw: bool) -> None:
    absent = absent_entries(event)
    if not absent:
        return
    names = ", ".join(str(e.player) for e in absent)
    if not withdraw:
        raise error("entries", f"{len(absent)} not checked in: {names}. Check them in, or withdraw them "
                               "(“did not check in”) as round 1 is paired")
    for entry in absent:
        entry.dropped_after_round, entry.drop_reason = 0, DID_NOT_CHECK_IN
    Entry.objects.bulk_update(absent, ["dropped_after_round", "drop_reason"])


def _pair_round(actor: Actor, event: Event, state: EventState, *, publish: bool) -> Opened:
    undecided = [n for n, done in decided_rounds(state).items() if not done]
    if undecided:
        raise error("round", f"round {undecided[0]} is still being played: pair the next round once every "
                              "match in it has a result")
    drafts = [r.number for r in state.rounds if r.status == Round.Status.DRAFT]
    if drafts:
        raise error("round", f"round {drafts[0]} is a draft: publish it first")
    if event.format == Event.Format.SWISS and event.rounds is None:
        event.rounds = default_swiss_rounds(max(len(state.entries), 2))
        event.save(update_fields=["rounds"])
        state.event = event
    answer, _ = compute_answer(state)
    refuse_never(answer)
    upcoming = answer["next_round"]
    last = state.rounds[-1].number if state.rounds else 0
    if answer["complete"] or upcoming is None:
        if answer["complete"]:
            raise error("round", f"every round of {event.name} has been played")
        raise error("round", "a round is still owed results: " + "; ".join(
            " v ".join(p.get("players", [p.get("bye")])) for p in answer["pending"][:5]))
    if upcoming["round"] != last + 1:
        raise error("round", f"round {upcoming['round']} is owed again: a correction reopened it "
                              f"(see the event's warnings)")
    results = round_results(state, upcoming["round"])
    rnd = Round.objects.create(event=event, number=upcoming["round"], status=Round.Status.DRAFT,
                               paired_from_key=results_key(results), paired_from=results, created_by=actor.user)
    ids = state.by_label
    matches = [create_match(event, round=rnd, table=p["table"], players=[ids[n] for n in p["players"]])
               for p in upcoming["pairings"]]
    matches += [create_match(event, round=rnd, table=None, players=[ids[name]]) for name in upcoming["byes"]]
    opened = Opened(rnd, matches)
    if publish:
        opened.tokens = _publish(actor, event, rnd, matches)
    return opened


def _publish(actor: Actor, event: Event, rnd: Round, matches: Sequence[Match]) -> dict[int, str]:
    tokens: dict[int, str] = {}
    open_games(actor, event, [m for m in matches if not m.is_bye], tokens)
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    return tokens


@refusing
@transaction.atomic
def publish_round(*, actor: Actor, round: Round) -> Opened:
    """Make a draft round's games and referee links: its pairings are final from now on."""
    event = lock_event_to_change(actor, round.event, "publish rounds")
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.DRAFT:
        raise error("round", f"round {rnd.number} is already published")
    matches = list(Match.objects.filter(round=rnd, reset_at__isnull=True).prefetch_related(
        Prefetch("players", queryset=MatchPlayer.objects.order_by("side"))).order_by("id"))
    for match in matches:
        match.round = rnd  # the round as it is now: published once ``_publish`` returns
    tokens = _publish(actor, event, rnd, matches)
    bump(event)
    return Opened(rnd, matches, tokens)



def _round_entries(rnd: Round) -> tuple[dict[int, Match], dict[int, int]]:
    places = MatchPlayer.objects.filter(match__round=rnd, match__reset_at__isnull=True).select_related("match")
    match_of = {p.entry_id: p.match for p in places}
    side_of = {p.entry_id: p.side for p in places}
    return match_of, side_of


@refusing
def swap_warnings(*, round: Round, first: Entry, second: Entry) -> list[str]:
    """What swapping ``first`` and ``second`` in a draft Swiss round would break: rematches, the bye rule, pairs
    to avoid (same club is left to the pairing)."""
    match_of, _ = _round_entries(round)
    problems: list[str] = []
    for entry in (first, second):
        if entry.pk not in match_of:
            raise error("entry", f"{entry.player} is not paired in round {round.number}")
    a_match, b_match = match_of[first.pk], match_of[second.pk]
    if a_match.pk == b_match.pk:
        raise error("entry", f"{first.player} and {second.player} already play each other")
    new_groups = []
    for match, leaving, arriving in ((a_match, first.pk, second.pk), (b_match, second.pk, first.pk)):
        others = [e for e, m in match_of.items() if m.pk == match.pk and e != leaving]
        new_groups.append((match, arriving, others))
    earlier = MatchPlayer.objects.filter(match__event=round.event, match__reset_at__isnull=True,
                                         round__number__lt=round.number)
    met: dict[int, set[int]] = {}
    byes: set[int] = set()
    by_match: dict[int, list[int]] = {}
    for place in earlier.select_related("match"):
        if place.match.is_bye:
            byes.add(place.entry_id)
        by_match.setdefault(place.match_id, []).append(place.entry_id)
    for pair in by_match.values():
        if len(pair) == 2:
            met.setdefault(pair[0], set()).add(pair[1])
            met.setdefault(pair[1], set()).add(pair[0])
    names = {e.pk: str(e.player) for e in Entry.objects.filter(event=round.event).select_related("player")}
    kept_apart = {frozenset((a, b)): strength for a, b, strength in
                  AvoidPair.objects.filter(event=round.event).values_list("first_id", "second_id", "strength")}
    for match, arriving, others in new_groups:
        if match.is_bye:
            if arriving in byes:
                without = [e for e in match_of if e not in byes]
                if without:
                    problems.append(f"breaks the bye rule: {names[arriving]} already had a bye, and "
                                    f"{names[without[0]]} has not: "
                                    "the bye goes to an entry without one first")
        else:
            for other in others:
                if other in met.get(arriving, set()):
                    problems.append(f"makes a rematch: {names[arriving]} and {names[other]} have already played "
                                    "each other")
                strength = kept_apart.get(frozenset((arriving, other)))
                if strength is not None:
                    problems.append(f"pairs {names[arriving]} with {names[other]}, a pair to "
                                    f"{'never pair' if strength == AvoidPair.Strength.NEVER else 'avoid'}")
    return problems


@refusing
@transaction.atomic
def swap_entries(*, actor: Actor, round: Round, first: Entry, second: Entry, confirm: bool = False) -> list[str]:
    """Swap two entries between matches (or a match and the bye) of a draft Swiss round.

    When the swap makes a rematch or breaks the bye rule, it is refused unless ``confirm`` is true;
    either way the returned list says plainly what it breaks (empty: nothing)."""
    event = lock_event_to_change(actor, round.event, "swap pairings")
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if event.format != Event.Format.SWISS:
        raise error("round", "only a Swiss round's pairings may be changed by hand")
    if rnd.status != Round.Status.DRAFT:
        raise error("round", f"round {rnd.number} is published: its games are made; swap before publishing")
    if first.event_id != event.pk or second.event_id != event.pk:
        raise error("entry", "both entries must be in this event")
    warnings = swap_warnings(round=rnd, first=first, second=second)
    if warnings and not confirm:
        raise error("confirm", "this swap " + "; ".join(warnings) + ". Confirm to swap anyway")
    match_of, side_of = _round_entries(rnd)
    a, b = match_of[first.pk], match_of[second.pk]
    MatchPlayer.objects.filter(round=rnd, entry__in=[first.pk, second.pk]).delete()
    MatchPlayer.objects.bulk_create([
        MatchPlayer(match=b, round=rnd, entry=first, side=side_of[second.pk]),
        MatchPlayer(match=a, round=rnd, entry=second, side=side_of[first.pk]),
    ])
    bump(event)
    return warnings


