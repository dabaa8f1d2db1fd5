"""What happened in an event, told once: after its answer was refreshed (``tournaments.signals.answer_refreshed``,
outside any write's transaction) the event as it now stands is compared with what was already told (``Told``):
a round published, a round complete, a match decided (again if a correction changed its winner or margin), the
standings of a new results version (at most one message per version), the event finished. A sign-up made,
promoted or withdrawn is told by ``registration_changed``, with its emails.

Telling twice is prevented by ``Told``'s unique row, claimed in the same transaction as the messages it owes.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse

from tournaments import selectors as event_selectors
from tournaments.models import Event, MatchGame, Registration, Round
from tournaments.stored_event import results_fingerprint

from .. import payloads
from ..models import Subscription, Told
from . import emails
from .deliveries import publish


def _first_time(event: Event, what: str) -> bool:
    """Claim ``what`` for this event: True the first time only."""
    try:
        with transaction.atomic():
            Told.objects.create(event=event, what=what[:60])
        return True
    except IntegrityError:
        return False


def _anyone_listening(event: Event) -> bool:
    return Subscription.objects.filter(Q(event=event) | Q(event__isnull=True), active=True).exists()


@transaction.atomic
def tell_event(*, event_id: int) -> list[str]:
    """Owe a message for everything new in the event since it was last told; returns what was told."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or event.status == Event.Status.CANCELLED:
        return []
    if not _anyone_listening(event):
        return []  # nothing recorded: what happened before a subscription is made is not told to it (``since``)
    told = set(Told.objects.filter(event=event).values_list("what", flat=True))
    version = results_fingerprint(event)
    rows = event_selectors.matches(event)
    rounds = list(Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT).order_by("number"))
    said: list[str] = []

    def tell(what: str, type_: str, data, since=None) -> None:
        if what in told or not _first_time(event, what):
            return
        said.append(what)
        publish(type_, data(), event=event, since=since)

    by_round: dict[int, list[dict]] = {}
    for row in rows:
        if row["round"] is not None:
            by_round.setdefault(row["round"], []).append(row)
    for rnd in rounds:
        mine = by_round.get(rnd.number, [])
        tell(f"round:{rnd.number}:published", "round.published",
             lambda n=rnd.number, m=mine: payloads.round_published(event, n, m, version), rnd.published_at)
    closed_at = {r.number: r.closed_at for r in rounds if r.status == Round.Status.CLOSED}
    for row in rows:
        if row["status"] == "decided":
            tell(f"match:{row['id']}:{row['winner_entry']}:{row['margin']}", "match.decided",
                 lambda r=row: {"event": payloads.event_ref(event), "match": payloads.match_ref(event, r),
                                "version": version}, closed_at.get(row["round"]))
    answer = None
    for rnd in rounds:
        if rnd.status == Round.Status.CLOSED:
            answer = answer or event_selectors.event_answer(event)
            tell(f"round:{rnd.number}:completed", "round.completed",
                 lambda n=rnd.number, a=answer: payloads.round_completed(event, n, by_round.get(n, []),
                                                                          a["standings"], version), rnd.closed_at)
    if rows:
        answer = answer or event_selectors.event_answer(event)
        tell(f"standings:{version}", "standings.updated",
             lambda a=answer: payloads.standings(event, a["standings"], version))
        Told.objects.filter(event=event, what__startswith="standings:").exclude(what=f"standings:{version}").delete()
    if event.status == Event.Status.COMPLETE:
        answer = answer or event_selectors.event_answer(event)
        tell("finished", "event.finished", lambda a=answer: payloads.standings(event, a["standings"], version))
    return said


@transaction.atomic
def tell_registration(*, registration_id: int, what: str, sealed: str = "") -> None:
    """A sign-up made (its confirmation mailed with the player's own link), promoted from the waitlist (mailed),
    or withdrawn: the event's subscribers told (names and statuses; never an address)."""
    registration = Registration.objects.select_related("event", "player").filter(pk=registration_id).first()
    if registration is None:
        return
    if what == "created" and sealed:
        emails.signed_up(registration, sealed)
    elif what == "promoted":
        emails.promoted(registration)
    data = {"event": payloads.event_ref(registration.event),
            "registration": {"id": registration.pk, "name": registration.player.display_name,
                             "status": registration.status, "entry": registration.entry_id}}
    publish(f"registration.{what}", data, event=registration.event)


def wants_hands() -> bool:
    """Whether any active subscription asks for ``hand.confirmed`` by name (one small query)."""
    return any("hand.confirmed" in types for types in
               Subscription.objects.filter(active=True).values_list("types", flat=True))


@transaction.atomic
def tell_hand(*, game_id: int, number: int, version: int) -> int:
    """A hand confirmed in an event's game, told to those who asked for ``hand.confirmed``; how many were owed."""
    found = (MatchGame.objects.filter(game_id=game_id).select_related("match", "match__event", "match__round")
             .first())
    if found is None:
        return 0
    match, event = found.match, found.match.event
    data = {"event": payloads.event_ref(event), "match": match.pk, "game": game_id, "hand": number,
            "version": version, "round": match.round.number if match.round_id else None, "table": match.table,
            "url": payloads.absolute(reverse("api:hand-list", args=[game_id]))}
    return publish("hand.confirmed", data, event=event)
