"""Merging a duplicate player into the player it really is ("ann lee " pasted beside "Ann Lee"): organisers
only. Everything the duplicate had becomes the kept player's: its seats (so its games, and every hand of
them), its wrong-PIN count, and the rows other apps keep about it (an event's
entries, through ``scoring.player_records``); the kept player keeps its own name, PIN, club, email and
login and takes the duplicate's where it has none.

Why the duplicate's row stays, as an alias (``Player.merged_into``), rather than being deleted: hands are
append-only (a version is added, never rewritten; only ``is_current`` and the confirmation stamp ever
change after insert), and a confirmed hand names the player who accepted it with their PIN
(``Hand.confirmed_by_player``). Re-pointing that column would rewrite the record of who typed a PIN;
keeping the alias leaves every hand row exactly as it was (and every game row: ``Game.first_dealer``
stays the record it is, beside ``first_dealer_name``), while the seats and entries (which say who plays,
not what happened) move to the kept player in this one transaction. Sheets and
results never change: a game's hands name its players by the names stored with the game
(``Game.player_names``), and an event's results follow its entries, which only change player. The alias
is left out of every list, search and form (``Player.objects``); its page and its API id lead to the kept
player, and an alias of an alias is never made (a later merge moves the aliases too).

It must not merge two players who sit in the same game or are entered in the same event (one person
would play themselves), nor change any hand row; it does not know what an event is.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.refusals import Refusal

from .. import policy
from ..models import Game, PinFailure, Player, Seat
from ..player_records import registered
from ..policy import Actor
from .players import same_name
from .refusals import refusal, service

FIELD = "into"


def _refuse(message: str) -> Refusal:
    return refusal(None, FIELD, message)


@service
@transaction.atomic
def merge_player(*, actor: Actor, player: Player, into: Player | int | None) -> Player:
    """Merge the duplicate ``player`` into ``into`` (a player or its id) and return the kept player.

    Refused, with nothing changed, naming ``into``: itself, an unknown or already merged player, two
    players who sit in one game or are entered in one event, or two players who each have a login.
    A ``player`` already merged is no player any more (``Player.DoesNotExist``: a 404)."""
    policy.require_organiser(actor, "merge players")
    into_id = into.pk if isinstance(into, Player) else into
    if into_id is None:
        raise _refuse("choose the player to keep")
    if into_id == player.pk:
        raise _refuse(f"{player} cannot be merged into itself: choose the player to keep")
    # What other apps will change is locked first (an event's row), then both players' rows, the lower
    # id first: the order every write locks in (an event, a game, a player), so that a director's result
    # or a PIN typed at a table waits for the merge, or the merge for them, never in a circle. No game row
    # is locked or changed.
    for records in registered():
        records.lock(player.pk, into_id)
    rows = {p.pk: p for p in Player.everyone.select_for_update().filter(pk__in=[player.pk, into_id]).order_by("pk")}
    duplicate, kept = rows.get(player.pk), rows.get(into_id)
    if duplicate is None or duplicate.merged_into_id is not None:
        raise Player.DoesNotExist("no such player: it was merged into another one")
    if kept is None:
        raise _refuse(f"there is no player #{into_id}")
    if kept.merged_into_id is not None:
        now = Player.everyone.get(pk=kept.merged_into_id)
        raise _refuse(f"{kept} was already merged into {now}: merge into {now} instead")
    _require_apart(duplicate, kept)
    if duplicate.user_id is not None and kept.user_id is not None:
        raise _refuse(f"{duplicate} and {kept} each sign in with their own login: unlink one of them from "
                      "its player (the admin's player page) first, so that no one loses their games")

    Seat.objects.filter(player=duplicate).update(player=kept)
    PinFailure.objects.filter(player=duplicate).update(player=kept)  # wrong PINs count per person
    Player.everyone.filter(merged_into=duplicate).update(merged_into=kept)
    for records in registered():
        records.move(duplicate.pk, kept.pk)

    filled = _fill_blanks(duplicate, kept)
    user = duplicate.user
    duplicate.merged_into, duplicate.merged_at, duplicate.user = kept, timezone.now(), None
    # The duplicate leaves first: its name and its login are free for the kept player to take.
    duplicate.save(update_fields=["merged_into", "merged_at", "user"])
    if "user" in filled:
        kept.user = user
    if filled:
        kept.save(update_fields=filled)
    return kept


def _require_apart(duplicate: Player, kept: Player) -> None:
    """Refused when the two players meet: a game both sit in, an event (another app's) both entered."""
    shared = list(Game.objects.filter(seats__player=duplicate).filter(seats__player=kept).order_by("pk")[:3])
    meets = [f"both play in {game}" for game in shared]
    for records in registered():
        meets += records.conflicts(duplicate.pk, kept.pk)
    if meets:
        raise _refuse(f"{duplicate} and {kept} cannot be one person: {'; '.join(meets)}")


def _fill_blanks(duplicate: Player, kept: Player) -> list[str]:
    """The kept player's PIN, club, email and login stay; a blank one takes the duplicate's (a club only
    when no other player of that club has the kept player's name). Returns the fields filled."""
    filled = []
    if not kept.confirm_pin and duplicate.confirm_pin:
        kept.confirm_pin = duplicate.confirm_pin
        filled.append("confirm_pin")
    if not kept.club and duplicate.club:
        clash = same_name(kept.display_name, duplicate.club)
        if clash is None or clash.pk in (kept.pk, duplicate.pk):
            kept.club = duplicate.club
            filled.append("club")
    if not kept.email and duplicate.email:
        kept.email = duplicate.email
        filled.append("email")
    if kept.rating is None and duplicate.rating is not None:
        kept.rating = duplicate.rating
        filled.append("rating")
    if kept.user_id is None and duplicate.user_id is not None:
        filled.append("user")
    return filled
