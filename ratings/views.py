"""The ratings pages, public (names and numbers only): the rating list and a player's rating over time.

Views read through ``selectors`` and render; nothing is computed or written here.
"""

from django.http import Http404
from django.shortcuts import redirect, render
from django_tables2 import RequestConfig

from . import selectors
from .chart import history_svg
from .engine import PROVISIONAL_GAMES
from .tables import RatingTable

PER_PAGE = 50


def rating_list(request):
    table = RatingTable(selectors.rating_list())
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "ratings/rating_list.html", {"table": table, "provisional_games": PROVISIONAL_GAMES})


def player_ratings(request, pk: int):
    player, rating, kept = selectors.rated_player(pk)
    if player is None:
        raise Http404("no such player")
    if kept is not None:
        return redirect("ratings:player", pk=kept)
    points = selectors.history(player.pk) if rating is not None else []
    rows = list(zip(points, selectors.rated_results(player.pk, points), strict=True))
    return render(request, "ratings/player_ratings.html", {
        "player": player, "rating": rating, "rows": list(reversed(rows)),
        "chart": history_svg(points, player.display_name), "provisional_games": PROVISIONAL_GAMES,
    })
