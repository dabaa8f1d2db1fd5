"""What a message says: the thin Standard Webhooks payload ``{"type", "timestamp", "data"}`` (ids, the API's
URLs to fetch, a small snapshot, the event's results ``version``; under 20 kB), and the same told as one chat
message for Discord (``{"content"}``) or Slack (``{"text"}``).

It decides nothing about results: the snapshot is read from ``tournaments.selectors`` (its engine's answer).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.conf import settings
from django.urls import reverse

from tournaments.models import Event

MAX_BYTES = 20_000
TOP = 10
CHAT_LIMIT = {"discord": 2000, "slack": 3500}

TYPES = ["round.published", "round.completed", "match.decided", "standings.updated", "event.finished",
         "registration.created", "registration.promoted", "registration.withdrawn", "hand.confirmed", "ping"]
# Told in a chat channel: never one per hand or per match.
CHAT_TYPES = ["round.published", "round.completed", "event.finished", "ping"]
# What needs an event's directors to receive (personal or director-only): sign-ups.
REGISTRATION_TYPES = ["registration.created", "registration.promoted", "registration.withdrawn"]


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def event_ref(event: Event) -> dict[str, Any]:
    return {"id": event.pk, "name": event.name,
            "url": absolute(reverse("tournaments-api:event-detail", args=[event.pk])),
            "page": absolute(reverse("tournaments:event", args=[event.pk]))}


def top_standings(standings: list[dict[str, Any]], n: int = TOP) -> list[dict[str, Any]]:
    return [{"rank": r.get("rank"), "name": r.get("name"), "match_points": r.get("match_points"),
             "wins": r.get("wins"), "losses": r.get("losses"), "draws": r.get("draws")} for r in standings[:n]]


def match_ref(event: Event, row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "round": row["round"], "table": row["table"], "players": row["players"],
            "winner": row["winner"], "margin": row["margin"], "forfeit": row["forfeit"], "source": row["source"],
            "url": absolute(reverse("tournaments-api:match-detail", args=[event.pk, str(row["id"])]))}


def round_published(event: Event, number: int, rows: list[dict[str, Any]], version: str) -> dict[str, Any]:
    return {"event": event_ref(event), "round": number, "version": version,
            "pairings": [{"table": r["table"], "match": r["id"], "players": r["players"]}
                         for r in rows if r["status"] != "bye"],
            "byes": [r["players"][0] for r in rows if r["status"] == "bye"],
            "url": absolute(reverse("tournaments-api:match-list", args=[event.pk])) + f"?round={number}"}


def round_completed(event: Event, number: int, rows: list[dict[str, Any]], standings: list[dict[str, Any]],
                    version: str) -> dict[str, Any]:
    return {"event": event_ref(event), "round": number, "version": version,
            "results": [{"table": r["table"], "match": r["id"], "players": r["players"], "winner": r["winner"],
                         "margin": r["margin"]} for r in rows if r["status"] != "bye"],
            "top": top_standings(standings, 5),
            "url": absolute(reverse("tournaments-api:standings", args=[event.pk]))}


def standings(event: Event, rows: list[dict[str, Any]], version: str) -> dict[str, Any]:
    return {"event": event_ref(event), "version": version, "top": top_standings(rows),
            "url": absolute(reverse("tournaments-api:standings", args=[event.pk]))}


def envelope(type_: str, data: dict[str, Any], at: datetime) -> str:
    """The signed body: compact JSON, cut to fit 20 kB (a long list of pairings is shortened and says so)."""
    body = _dump(type_, data, at)
    for key in ("pairings", "results", "top"):
        items = data.get(key)
        while len(body.encode()) > MAX_BYTES and isinstance(items, list) and items:
            del items[len(items) // 2:]
            data["truncated"] = True
            body = _dump(type_, data, at)
    return body


def _dump(type_: str, data: dict[str, Any], at: datetime) -> str:
    return json.dumps({"type": type_, "timestamp": at.isoformat().replace("+00:00", "Z"), "data": data},
                      ensure_ascii=False, separators=(",", ":"), default=str)


def chat_text(type_: str, data: dict[str, Any]) -> str | None:
    """The message a chat channel shows, or None for what is never told there."""
    name = data.get("event", {}).get("name", "")
    page = data.get("event", {}).get("page", "")
    if type_ == "ping":
        return "ginscore: this channel will be told of rounds published and completed."
    if type_ == "round.published":
        lines = [f"**{name}: round {data['round']} is published**"]
        lines += [f"Table {p['table']}: {' v '.join(p['players'])}" for p in data["pairings"]]
        lines += [f"Bye: {b}" for b in data["byes"]]
    elif type_ == "round.completed":
        lines = [f"**{name}: round {data['round']} is complete**"]
        for r in data["results"]:
            winner = r["winner"] or "drawn"
            lines.append(f"Table {r['table']}: {' v '.join(r['players'])}: {winner}"
                         + (f" by {r['margin']}" if r["winner"] and r["margin"] is not None else ""))
        lines.append("Standings: " + ", ".join(f"{s['rank']}. {s['name']} ({s['match_points']})"
                                                for s in data["top"]))
    elif type_ == "event.finished":
        lines = [f"**{name} is finished**"]
        lines += [f"{s['rank']}. {s['name']} ({s['match_points']})" for s in data["top"]]
    else:
        return None
    if page:
        lines.append(page)
    return "\n".join(lines)


def chat_body(fmt: str, type_: str, data: dict[str, Any]) -> str | None:
    text = chat_text(type_, data)
    if text is None:
        return None
    limit = CHAT_LIMIT[fmt]
    if len(text) > limit:
        text = text[: limit - 2] + " …"
    if fmt == "slack":
        return json.dumps({"text": text.replace("**", "*")}, ensure_ascii=False)
    return json.dumps({"content": text, "allowed_mentions": {"parse": []}}, ensure_ascii=False)
