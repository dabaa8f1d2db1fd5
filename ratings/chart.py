"""A player's rating over time as an SVG chart drawn on the server (no script, no CDN): the conservative
rating (``mu - 3 sigma``) as a line, ``mu`` dotted above it, one step per result, the axis labelled with
the lowest and highest rating and the first and last date. It scales to the page's width (a phone's too).

It must not read storage: it draws the points it is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from .models import RatingPoint

WIDTH, HEIGHT = 600, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 12, 12, 34


def _polyline(values: Sequence[float], low: float, high: float) -> str:
    span = (high - low) or 1.0
    steps = max(len(values) - 1, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    return " ".join(f"{LEFT + inner_w * i / steps:.1f},{TOP + inner_h * (1 - (v - low) / span):.1f}"
                    for i, v in enumerate(values))


def history_svg(points: Sequence[RatingPoint], name: str) -> SafeString:
    """The chart of ``points`` (oldest first); an empty string when there is nothing to draw."""
    if not points:
        return mark_safe("")
    ratings = [p.rating for p in points]
    mus = [p.mu for p in points]
    low, high = min(ratings), max(mus)
    if len(points) == 1:
        ratings, mus = ratings * 2, mus * 2
    first, last = points[0].at, points[-1].at
    labels = [
        (LEFT - 6, TOP + 8, "end", f"{high:.0f}"),
        (LEFT - 6, HEIGHT - BOTTOM, "end", f"{low:.0f}"),
        (LEFT, HEIGHT - 8, "start", f"{first:%d %b %Y}"),
        (WIDTH - RIGHT, HEIGHT - 8, "end", f"{last:%d %b %Y}"),
    ]
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" width="100%" role="img" aria-labelledby="chart-title">'
        '<title id="chart-title">{title}</title>'
        '<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" class="axis"/>'
        '<line x1="{l}" y1="{t}" x2="{l}" y2="{b}" class="axis"/>'
        '<polyline points="{mu}" class="mu" fill="none"/>'
        '<polyline points="{rating}" class="rating" fill="none"/>{labels}</svg>',
        w=WIDTH, h=HEIGHT, l=LEFT, r=WIDTH - RIGHT, t=TOP, b=HEIGHT - BOTTOM,
        title=f"{name}'s rating over {len(points)} results: from {points[0].rating:.1f} to {points[-1].rating:.1f}",
        mu=_polyline(mus, low, high), rating=_polyline(ratings, low, high),
        labels=format_html_join("", '<text x="{}" y="{}" text-anchor="{}">{}</text>', labels),
    )
