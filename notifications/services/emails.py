"""Email to people, each message a row with its status: a sign-up's confirmation and its promotion from the
waitlist (by themselves, each with the player's own link), a round's pairings and the final standings (on a
director's click: each player their own table and opponent), and a webhook's owner told it was turned off.

Mail goes through Django's mail (``EMAIL_URL``; the console in development), off the request that caused it
(a queued job, or the background thread: ``core.background``). A recipient the receiving server refuses for
good (a 5xx) is a bounce: the address is kept (``BouncedAddress``) and never mailed again.
"""

from __future__ import annotations

import smtplib
from typing import Any

from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from procrastinate import RetryStrategy

from core import jobs
from core.refusals import Refusal
from scoring.policy import Actor
from tournaments import policy as events
from tournaments import selectors as event_selectors
from tournaments.models import Event, Registration, Round

from .. import payloads, sealing
from ..models import BouncedAddress, Email, SignUpLink, Subscription

SITE = "ginscore"


def queue(*, to: str, subject: str, body: str, kind: str, event: Event | None = None,
          round_number: int | None = None) -> Email:
    """An email owed, sent once this commits (not at all to an address that bounced before)."""
    address = (to or "").strip()
    email = Email.objects.create(to=address, subject=subject[:200], body=body, kind=kind, event=event,
                                 round_number=round_number)
    if BouncedAddress.objects.filter(address=address.lower()).exists():
        email.status, email.error = Email.Status.SUPPRESSED, "this address bounced before"
        email.save(update_fields=["status", "error"])
        return email
    jobs.off_request(send_email_job, email_id=email.pk)
    return email


@jobs.app.task(name="notifications.send_email", retry=RetryStrategy(max_attempts=5, wait=60))
def send_email_job(email_id: int) -> None:
    send(email_id)


def send(email_id: int) -> Email | None:
    """Send one queued email (a second run finds it sent and does nothing); its status recorded."""
    with transaction.atomic():
        email = Email.objects.select_for_update().filter(pk=email_id, status=Email.Status.QUEUED).first()
        if email is None:
            return None
        if BouncedAddress.objects.filter(address=email.to.lower()).exists():
            email.status, email.error = Email.Status.SUPPRESSED, "this address bounced before"
            email.save(update_fields=["status", "error"])
            return email
    try:
        EmailMessage(email.subject, email.body, to=[email.to]).send()
        email.status, email.sent_at, email.error = Email.Status.SENT, timezone.now(), ""
    except smtplib.SMTPRecipientsRefused as exc:
        code, why = next(iter(exc.recipients.values()), (0, b""))
        reason = f"{code} {why.decode(errors='replace') if isinstance(why, bytes) else why}"[:300]
        if 500 <= code < 600:
            email.status, email.error = Email.Status.BOUNCED, reason
            BouncedAddress.objects.get_or_create(address=email.to.lower(), defaults={"reason": reason})
        else:
            email.status, email.error = Email.Status.FAILED, reason
    except (smtplib.SMTPException, OSError) as exc:
        email.status, email.error = Email.Status.FAILED, f"{type(exc).__name__}: {exc}"[:300]
    email.save(update_fields=["status", "sent_at", "error"])
    return email


# ---------------------------------------------------------------------------------------------------
# What is mailed


def _my_link(token: str) -> str:
    return payloads.absolute(reverse("tournaments:my_registration", args=[token]))


def signed_up(registration: Registration, sealed: str) -> Email | None:
    """A sign-up's confirmation, with the player's own link (kept sealed for a later promotion's email)."""
    token = sealing.unseal(registration.pk, sealed)
    if token is None:
        return None
    SignUpLink.objects.update_or_create(registration=registration, defaults={"sealed": sealed})
    event = registration.event
    if registration.status == Registration.Status.WAITLISTED:
        where = "You are on the waitlist: we will email you if a place opens."
    else:
        where = "You are entered."
    body = (f"Hello {registration.player.display_name},\n\nYou signed up for {event.name}. {where}\n\n"
            f"Your own link, to see where you stand or to withdraw (keep it to yourself):\n{_my_link(token)}\n")
    return queue(to=registration.email, subject=f"{event.name}: your sign-up", body=body,
                 kind=Email.Kind.SIGNED_UP, event=event)


def promoted(registration: Registration) -> Email:
    """A waitlisted player now entered, with their own link when it was kept."""
    event = registration.event
    link = SignUpLink.objects.filter(registration=registration).values_list("sealed", flat=True).first()
    token = sealing.unseal(registration.pk, link) if link else None
    mine = f"\n\nYour own link, to see where you stand or to withdraw:\n{_my_link(token)}\n" if token else "\n"
    body = (f"Hello {registration.player.display_name},\n\nA place opened in {event.name}: you are now entered."
            + mine)
    return queue(to=registration.email, subject=f"{event.name}: you are in", body=body,
                 kind=Email.Kind.PROMOTED, event=event)


def tell_owner_disabled(subscription: Subscription, reason: str) -> Email | None:
    owner = subscription.owner
    if not owner.email:
        return None
    body = (f"Your webhook to {subscription.url} was turned off: {reason}.\n\nTurn it on again from "
            f"{payloads.absolute(reverse('notifications:webhooks'))} once its receiver answers.\n")
    return queue(to=owner.email, subject=f"{SITE}: a webhook was turned off", body=body,
                 kind=Email.Kind.WEBHOOK_DISABLED)


def _addresses(event: Event) -> dict[int, str]:
    """{entry id: the address to write to}: the sign-up's, else the player's own."""
    found: dict[int, str] = {}
    for entry_id, player_email in event.entries.values_list("pk", "player__email"):
        if player_email:
            found[entry_id] = player_email
    for entry_id, email in Registration.objects.filter(event=event, entry__isnull=False).values_list("entry_id",
                                                                                                     "email"):
        found[entry_id] = email
    return found


@transaction.atomic
def email_round(*, actor: Actor, event: Event, number: int, what: str = "pairings") -> dict[str, Any]:
    """Email each player of a published round their own table and opponent (``pairings``), or, once the event
    is complete, everyone the final standings (``standings``). Who has no address is counted, not mailed."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    events.require_director(actor, event, "email its players")
    if what not in ("pairings", "standings"):
        raise Refusal.one("what", f"pairings or standings; {what!r} given")
    addresses = _addresses(event)
    queued: list[Email] = []
    missing = 0
    if what == "pairings":
        rnd = Round.objects.filter(event=event, number=number).first()
        if rnd is None or rnd.status == Round.Status.DRAFT:
            raise Refusal.one("round", f"round {number} is not published")
        for row in event_selectors.matches(event, round=number):
            for i, entry_id in enumerate(row["entries"]):
                to = addresses.get(entry_id)
                if not to:
                    missing += 1
                    continue
                me = row["players"][i]
                if row["status"] == "bye":
                    line = f"You have a bye in round {number}."
                else:
                    others = " and ".join(p for j, p in enumerate(row["players"]) if j != i)
                    line = f"Round {number}: table {row['table']}, against {others}."
                queued.append(queue(to=to, subject=f"{event.name}: round {number}", kind=Email.Kind.PAIRINGS,
                                    event=event, round_number=number,
                                    body=f"Hello {me},\n\n{line}\n\n{payloads.event_ref(event)['page']}\n"))
    else:
        if event.status != Event.Status.COMPLETE:
            raise Refusal.one("what", f"{event.name} is not complete: the final standings come at its end")
        table = event_selectors.standings(event)
        lines = "\n".join(f"{r['rank']}. {r['name']} ({r['match_points']})" for r in table)
        names = event_selectors.entry_names(event)
        for entry_id, to in addresses.items():
            me = names.get(entry_id, "")
            place = next((r["rank"] for r in table if r["name"] == me), None)
            head = f"You finished {place}." if place else ""
            queued.append(queue(to=to, subject=f"{event.name}: final standings", kind=Email.Kind.STANDINGS,
                                event=event, round_number=None,
                                body=f"Hello {me},\n\n{event.name} is finished. {head}\n\n{lines}\n"))
        missing = event.entries.count() - len(addresses)
    counts = dict.fromkeys(Email.Status.values, 0)
    for email in queued:
        counts[email.status] += 1
    return {"queued": counts[Email.Status.QUEUED], "suppressed": counts[Email.Status.SUPPRESSED],
            "without_address": missing, "emails": [e.pk for e in queued]}
