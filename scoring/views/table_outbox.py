"""The table's phone keeps working without the hall's network: the hands its entry page records wait in an
outbox on the phone (``static/js/outbox.js``) and are sent here one at a time, each with the id the phone
made for it as its ``Idempotency-Key``; the service worker that keeps the page and its assets on the
phone (``table_worker``) is served from the site's root, so its scope covers the table's pages.

``send_hand`` takes the entry form's fields, as the page's own form post does, and answers in JSON what
became of the hand, in the words the page shows: recorded, recorded and accepted, recorded but not
accepted (the PIN refused: the page asks again), sent before (recorded once, whenever the first copy
came), or refused (nothing recorded: the phone's queue for this table stops there). It parses, calls one
service and answers; who plays and what a hand scores is the engine's to say.
"""

from __future__ import annotations

import hashlib
from functools import cache

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_GET, require_POST

from core.reading import text_id
from core.refusals import Refusal

from .. import policy, services
from ..actors import actor_for
from ..forms import AcceptNowForm
from ..models import Game, Hand
from .common import REFUSED_TAG, visible_game
from .table import _entry_form, _error_list, _hand_said

# What the phone keeps for the table's pages: their style and scripts, served by the app.
KEPT_ASSETS = ("css/site.css", "js/menu.js", "js/entry.js", "js/outbox.js", "js/live.js", "js/clock.js")


def _answer(pk: int, outcome: str, message: str, *, status: int, number: int | None = None,
            **more) -> JsonResponse:
    """One answer's shape: what became of the hand, in words, and the next hand the sheet expects now."""
    count = Game.objects.filter(pk=pk).values_list("hand_count", flat=True).first() or 0
    return JsonResponse({"outcome": outcome, "message": message, "number": number, "next_number": count + 1,
                         **more}, status=status)


def _refused(pk: int, unit: str, number: int | None, words: str, *, status: int = 400, **more) -> JsonResponse:
    said = f"{unit} {number} not recorded: {words}" if number else f"Not recorded: {words}"
    return _answer(pk, "refused", said.rstrip(".") + ".", status=status, number=number, **more)


@require_POST
def send_hand(request, pk: int):
    """One hand from the phone's outbox (the entry form's fields, and the phone's id for it in the
    ``Idempotency-Key`` header): recorded once however often it comes, and accepted when it came with the
    PIN of the side it goes against."""
    game = visible_game(request, pk)
    actor = actor_for(request)
    unit = "Deal" if game.format == Game.Format.PARTNERSHIP else "Hand"
    made_for = text_id(request.POST.get("number"))
    phone_id = request.headers.get("Idempotency-Key", "")
    if actor.user is None and actor.link is None:
        return _refused(pk, unit, made_for, "this phone is no longer signed in: sign in (or open the table's "
                                              "link) again, then send it", status=403)
    if not policy.is_official(actor, game):
        return _refused(pk, unit, made_for, "only an organiser or this game's referee may record hands in it",
                        status=403)
    if not phone_id:
        return _refused(pk, unit, made_for, "the phone's id for this hand is missing (Idempotency-Key)")
    next_number = game.hand_count + 1
    seated_for = made_for if made_for is not None and 1 <= made_for <= next_number else next_number
    form = _entry_form(game, seated_for, request.POST)
    accept = AcceptNowForm(request.POST, names=list(game.player_names))
    if not all([form.is_valid(), accept.is_valid()]):
        errors = _error_list(form) + _error_list(accept)
        return _refused(pk, unit, made_for, "; ".join(e["message"] for e in errors), errors=errors)
    hand = {"actor": actor, "game": game, "data": form.hand(), "number": form.cleaned_data["number"],
            "phone_id": phone_id}
    try:
        if accept.accepting:
            recorded, _ = services.record_and_accept_hand(**hand, player_name=accept.cleaned_data["accept_player"],
                                                          pin=accept.cleaned_data["accept_pin"])
        else:
            recorded, _ = services.record_hand(**hand)
    except services.SentBefore as exc:
        return _sent_before(request, pk, unit, exc.hand)
    except services.AlreadyRecorded as exc:  # another phone recorded it, say: which hand is there, in words
        fresh = visible_game(request, pk)
        return _refused(pk, unit, made_for, f"{exc.problems[0].message}. {unit} {exc.number}: "
                                               f"{_hand_said(fresh, exc.number)}")
    except services.NotAccepted as exc:
        words = f"{unit} {exc.hand.number} recorded, not accepted yet: {exc.reason}."
        messages.error(request, words, extra_tags=f"{REFUSED_TAG}{exc.hand.number}")
        return _answer(pk, "not_accepted", words, status=201, number=exc.hand.number)
    except policy.NotAllowed as exc:
        return _refused(pk, unit, made_for, str(exc), status=403)
    except Refusal as exc:
        return _refused(pk, unit, made_for,
                        "; ".join(p.message for p in exc.problems),
                        errors=[{"field": p.field or "", "message": p.message} for p in exc.problems])
    who = f" and accepted by {accept.cleaned_data['accept_player']}" if accept.accepting else ""
    words = f"{unit} {recorded.number} recorded{who}."
    messages.success(request, words)
    return _answer(pk, "accepted" if recorded.is_confirmed else "recorded", words,
                   status=201, number=recorded.number)


def _sent_before(request, pk: int, unit: str, hand: Hand) -> JsonResponse:
    """The hand this id recorded, as it stands now: nothing recorded again, and no PIN looked at."""
    waits = "" if hand.is_confirmed else ": it awaits acceptance"
    words = f"{unit} {hand.number} was recorded when this phone first sent it (sent again, recorded once){waits}."
    messages.info(request, words)
    return _answer(pk, "sent_before", words, status=200, number=hand.number,
                   accepted=hand.is_confirmed)


@cache
def _worker_text(assets: tuple[str, ...]) -> str:
    """The worker's script for these asset URLs (hashed names in production: a new deploy, a new version,
    and the phone keeps the new assets in place of the old)."""
    text = render_to_string("scoring/table_worker.js", {"assets": assets, "version": ""})
    version = hashlib.blake2s(text.encode(), digest_size=6).hexdigest()
    return render_to_string("scoring/table_worker.js", {"assets": assets, "version": version})


@require_GET
def table_worker(request):
    """The service worker that keeps the table's entry page and its assets on the phone. Served from the
    site's root, so its scope may be ``/games/`` (a worker's scope is at most its own folder); checked
    with the server each time the phone has the network, so a new version of the app reaches it."""
    text = _worker_text(tuple(static(name) for name in KEPT_ASSETS))
    response = HttpResponse(text, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response

