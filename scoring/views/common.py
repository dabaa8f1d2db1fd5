"""What the scoring pages share: the game a request may see, and whether a policy rule lets an action
through (pages show only the buttons a user may use). No page of its own here."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .. import policy, selectors
from ..actors import actor_for
from ..models import Game

# A message about one hand's refused acceptance carries this tag and the hand's number: its accept card says it.
REFUSED_TAG = "refused-hand-"


def visible_game(request, pk: int) -> Game:
    try:
        return selectors.game_for_sheet(actor_for(request), pk)
    except Game.DoesNotExist:
        raise Http404("no such game, or it is not public") from None


def allowed(check, *args, **kwargs) -> bool:
    """Whether a ``policy`` rule lets this through: pages show only the buttons a user may use."""
    try:
        check(*args, **kwargs)
    except (policy.NotAllowed, Game.DoesNotExist):
        return False
    return True


def require_official(request, game: Game) -> None:
    if not policy.is_official(actor_for(request), game):
        raise PermissionDenied("only an organiser or this game's referee may record hands in it")
