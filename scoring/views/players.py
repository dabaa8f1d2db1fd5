"""The players' pages: the list for organisers (a name found with case and accents aside, the club, who
has a PIN) and a player's page (organisers change the name, club and email, and merge a duplicate into
the player to keep; organisers and the directors of an event the player is entered in set or reset the
PIN). A merged duplicate's page leads to the kept player's.

Views parse the form, call one service and render; who may do what is ``scoring.policy``'s to say.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from core.reading import text_id
from core.refusals import Refusal

from .. import policy, selectors, services
from ..actors import actor_for
from ..forms import attach_errors
from ..models import Player
from ..player_forms import MergeForm, PinForm, PlayerEditForm

PER_PAGE = 50


@login_required
def player_list(request):
    actor = actor_for(request)
    if not actor.is_organiser:
        raise PermissionDenied("only an organiser sees the list of players")
    find = (request.GET.get("q") or "").strip()[:60]
    page = Paginator(selectors.players(find), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "scoring/player_list.html", {"page": page, "find": find, "title": "Players"})


def _back(request) -> str:
    """Where the page was opened from (``?back=``, or the form's), when it is a page of this site: a director
    who came from an event's entries to set a PIN goes back there."""
    target = request.POST.get("back") or request.GET.get("back") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return ""


@login_required
def player_detail(request, pk: int):
    actor = actor_for(request)
    player = Player.everyone.filter(pk=pk).select_related("merged_into").first()
    if player is None:
        raise Http404("no such player")
    merged = player.merged_into
    if not policy.may_set_pin(actor, merged or player):
        raise PermissionDenied("only an organiser, or a director of an event the player is entered in, opens "
                               "a player's page")
    if merged is not None:  # a duplicate merged into another player: that player is who it was
        return redirect("scoring:player", pk=merged.pk)
    edit_form = PlayerEditForm(initial={"display_name": player.display_name, "club": player.club,
                                        "email": player.email, "rating": player.rating}) if actor.is_organiser else None
    pin_form = PinForm()
    back = _back(request)
    find = (request.GET.get("find") or "").strip()[:60]
    merge_form = MergeForm(choices=selectors.merge_candidates(player, find)) if actor.is_organiser else None
    if request.method == "POST" and request.POST.get("action") == "merge":
        if not actor.is_organiser:
            raise PermissionDenied("only an organiser may merge players")
        merge_form = MergeForm(request.POST, choices=selectors.merge_candidates(
            player, also=text_id(request.POST.get("into"))))
        if merge_form.is_valid():
            moved = selectors.merge_readback(player)
            try:
                kept = services.merge_player(actor=actor, player=player, into=merge_form.cleaned_data["into"])
            except Refusal as exc:
                attach_errors(merge_form, exc)
            except Player.DoesNotExist:
                raise Http404("no such player: it was merged into another one") from None
            else:
                messages.success(request, f"{player.display_name} is merged into {kept.display_name}: {moved} "
                                          f"are {kept.display_name}'s now.")
                return redirect("scoring:player", pk=kept.pk)
    elif request.method == "POST":
        if request.POST.get("action") == "edit" and actor.is_organiser:
            edit_form = PlayerEditForm(request.POST)
            if edit_form.is_valid():
                try:
                    services.update_player(actor=actor, player=player, **edit_form.cleaned_data)
                except Refusal as exc:
                    attach_errors(edit_form, exc)
                else:
                    messages.success(request, "Saved: games already made keep the names on their sheets.")
                    return redirect("scoring:player", pk=player.pk)
        elif request.POST.get("action") == "pin":
            pin_form = PinForm(request.POST)
            if pin_form.is_valid():
                try:
                    services.set_player_pin(actor=actor, player=player, pin=pin_form.cleaned_data["pin"])
                except policy.NotAllowed as exc:
                    raise PermissionDenied(str(exc)) from None
                messages.success(request, f"{player.display_name}'s PIN is set: they type it to accept a hand.")
                return redirect(back or reverse("scoring:player", args=[player.pk]))
    return render(request, "scoring/player_detail.html", {
        "player": player, "edit_form": edit_form, "pin_form": pin_form, "title": player.display_name, "back": back,
        "is_organiser": actor.is_organiser, "merge_form": merge_form, "find": find,
        "moves": selectors.merge_readback(player) if merge_form is not None else "",
    })
