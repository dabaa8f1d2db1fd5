"""django-tables2 tables of the ratings pages. Cells read the stored ratings: no rating is computed here."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from .models import PlayerRating


class RatingTable(tables.Table):
    """The rating list: place, player (linked to their history), rating (one decimal), games, provisional."""

    rank = tables.Column(verbose_name="#", orderable=False)
    player = tables.Column(verbose_name="Player", orderable=False)
    rating = tables.Column(verbose_name="Rating", orderable=False)
    games = tables.Column(verbose_name="Games", orderable=False)
    provisional = tables.Column(verbose_name="", empty_values=(), orderable=False, attrs={"td": {"class": "note"}})

    class Meta:
        model = PlayerRating
        fields = ["rank", "player", "rating", "games", "provisional"]
        attrs = {"class": "sheet ratings"}
        empty_text = "No finished games yet: ratings appear once a game is settled."

    def render_player(self, record):
        """The name (linked), the club under it, so a phone keeps the rating and the games on its screen."""
        link = format_html('<a href="{}">{}</a>', reverse("ratings:player", args=[record.player_id]),
                           record.player.display_name)
        if record.player.club:
            return format_html('{}<small class="club">{}</small>', link, record.player.club)
        return link

    def render_rating(self, record):
        return f"{record.rating:.1f}"

    def render_provisional(self, record):
        return "provisional" if record.provisional else ""
