"""Reads of stored events for the pages and the API: which events an actor sees, the engine's answer
(kept per event and results version: ``tournaments.answers``), standings, entries, rounds with their
matches, a referee's tables, and the warnings about pairings made from results that have since changed.

Every read costs a constant number of queries however many entries and matches it shows. Selectors only
read; the stored answer's read (``answers.read``) may fill its store once. Selectors never pair, score or
rank: the engine does.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet
from django.utils import timezone

from core.reading import text_id
from scoring import selectors as scoring_selectors
from scoring.models import Game, RefereeLink
from tournaments.engine.clock import clock_state
from tournaments.engine.clock import in_words as clock_words
from tournaments.stored_event import (
    answered_document,
    build_document,
    entry_labels,
    entry_labels_of,
    latest_result_change,
    load_match_details,
    load_state,
    match_data,
    match_outcome,
    sides,
    with_match_details,
)

from . import policy
from .answers.memos import versioned
from .answers.read import (  # noqa: F401  (the answer's reads, for the pages and the API)
    Version,
    answer_key,
    served_version,
    standings_json,
    standings_payload,
    stored_answer,
)
from .answers.warnings import keyed
from .live_tables import toward_target
from .models import AvoidPair, Entry, Event, Match, MatchGame, Registration, RequestedBye, Round, WarningAcknowledgement
from .policy import Actor


def visible_events(actor: Actor) -> QuerySet[Event]:
    """Public events for anyone; private ones too for their directors and referees; all for organisers."""
    events = Event.objects.all()
    visible = policy.readable_events_filter(actor)
    if visible is None:
        return events
    if actor.user is None:
        return events.filter(visible)  # public ones: no join to the officials
    return events.filter(pk__in=Event.objects.filter(visible).values("pk"))


def _with_source_readable(events: QuerySet[Event], actor: Actor) -> QuerySet[Event]:
    """Each event with ``source_readable``: may this actor read the event it was seeded from? (A public
    knockout of a private event must not show that event's id, name or link to whoever may not read it.)"""
    return events.annotate(source_readable=Exists(visible_events(actor).filter(pk=OuterRef("seeded_from_id"))))


def event_list(actor: Actor) -> QuerySet[Event]:
    """Visible events, newest first, each with ``entry_count``, ``source_readable`` and its directors (two
    queries). A cancelled event is left out unless the actor is an organiser or one of its officials."""
    events = visible_events(actor)
    listed = policy.listed_events_filter(actor)
    if listed is not None:
        events = events.filter(listed)
    return _with_source_readable(
        events
        .select_related("created_by")
        .annotate(entry_count=Count("entries", distinct=True))
        .prefetch_related("directors")
        .order_by("-created_at", "-id"), actor
    )


def event_detail(actor: Actor, pk: int) -> Event:
    """One visible event with its directors and referees and ``source_readable`` (raises
    ``Event.DoesNotExist``)."""
    return _with_source_readable(
        visible_events(actor).select_related("created_by").prefetch_related("directors", "referees"), actor
    ).get(pk=pk)


def stages(actor: Actor, event: Event) -> tuple[Event | None, list[Event]]:
    """The event this one was seeded from and the knockouts seeded from it, those this actor may read
    only (one query each; a private stage is never named to whoever may not read it)."""
    source = visible_events(actor).filter(pk=event.seeded_from_id).first() if event.seeded_from_id else None
    return source, list(visible_events(actor).filter(seeded_from=event.pk).order_by("pk"))


def has_knockout(event: Event) -> bool:
    """Whether a knockout was made from this event's standings (it is made once), readable or not."""
    return Event.objects.filter(seeded_from=event.pk).exists()


def readable_event(actor: Actor, pk: int) -> Event:
    """One visible event with the fingerprint of its results (``answer_key``) read in the same query
    (raises ``Event.DoesNotExist``): what a page or a standings read needs before the stored answer."""
    # The seeding's stored order (a list as long as the field) is for the entries page alone.
    return visible_events(actor).defer("seeding").annotate(last_change=latest_result_change()).get(pk=pk)


def tables_version(event: Event, round_number: int | None, *, results: str | None = None) -> str:
    """A key that moves when what a page of a round's tables shows moves (None: the bracket's): a result,
    a pairing, a game's counted score or status; not a hand waiting to be confirmed. One query (the
    results' fingerprint was read with the event; ``results``: the version of the answer shown beside)."""
    games = MatchGame.objects.filter(match__event=event)
    games = (games.filter(match__round__number=round_number) if round_number
             else games.filter(match__round__isnull=True))
    seen = Game.objects.filter(pk__in=games.values("game_id")).aggregate(last=Max("scores_changed_at"),
                                                                           count=Count("id"))
    last = seen["last"].timestamp() if seen["last"] else 0
    return f"{results or answer_key(event)}.{seen['count']}.{last:.6f}"


def event_answer(event: Event) -> dict[str, Any]:
    """The engine's answer (EVENTS.md) for the stored results; each standings row adds ``entry`` (the
    entry id). Four queries when nothing changed since the last read."""
    return stored_answer(event, None).answer


def event_answer_as_of(event: Event, as_of_round: int) -> dict[str, Any]:
    """The answer as if only rounds up to ``as_of_round`` had been played (``EventError`` out of range)."""
    return stored_answer(event, as_of_round).answer


def standings(event: Event, as_of_round: int | None = None) -> list[dict[str, Any]]:
    """The answer's ``standings`` rows, live or as of a round (Swiss and round robin; ``EventError``
    for a round out of range, as the engine says)."""
    return stored_answer(event, as_of_round).answer["standings"]


def event_answer_and_warnings(event: Event) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``event_answer`` and ``event_warnings`` from one read of the stored answer."""
    stored = stored_answer(event, None)
    return stored.answer, stored.warnings


def event_warnings(event: Event) -> list[dict[str, Any]]:
    """What went stale after a correction; nothing is ever re-paired silently. Each warning is
    ``{"kind", "message", "round", "match", "match_pk", ...}`` with kind
    ``round_paired_from_changed_results`` (adds ``changed_matches``: match pks),
    ``bracket_players_changed`` (adds ``has_result``, ``resettable``, ``players_now``: entry ids) or
    ``result_refused``."""
    return stored_answer(event, None).warnings


def shown_warnings(event: Event, warnings: list[dict[str, Any]], *, official: bool) -> list[dict[str, Any]]:
    """The warnings as this reader sees them, each with its ``key`` and ``acknowledged`` (``{"by", "at",
    "note"}`` or None): an acknowledged warning is shown to the event's officials (``official``:
    ``policy.is_official``) only; everyone else sees the warnings not acknowledged yet. One query, none
    when there is no warning."""
    rows = keyed(warnings)
    if not rows:
        return []
    found = {a.key: a for a in WarningAcknowledgement.objects.filter(event=event, key__in=[w["key"] for w in rows])
             .select_related("acknowledged_by")}
    shown = []
    for w in rows:
        ack = found.get(w["key"])
        if ack is not None and not official:
            continue
        w["acknowledged"] = None if ack is None else {
            "by": ack.acknowledged_by.get_username() if ack.acknowledged_by else None, "at": ack.acknowledged_at,
            "note": ack.note}
        shown.append(w)
    return shown


def cancellation(event: Event, *, official: bool) -> dict[str, Any] | None:
    """A cancelled event's ``{"at", "by", "reason"}`` (who and why for its officials only, else None); None
    when it is not cancelled. No query (``by``: one, for officials)."""
    if event.status != Event.Status.CANCELLED:
        return None
    by = event.cancelled_by.get_username() if official and event.cancelled_by_id else None
    return {"at": event.cancelled_at, "by": by, "reason": event.cancel_reason if official else None}


def event_document(event: Event, as_of_round: int | None = None) -> dict[str, Any]:
    """The EVENTS.md request the answer is computed from (for the calculator, exports and tests)."""
    return build_document(load_state(event), as_of_round=as_of_round).document


def event_export(event: Event) -> dict[str, Any]:
    """The event as the event contract's request: exactly the one its live answer is computed from
    (``results.answered_document``), so the calculator answers it with the same standings. Made once per
    results version (``answers.memos.versioned``): a constant number of queries however many matches."""
    return versioned(f"event-export:{event.pk}:{answer_key(event)}", lambda: answered_document(load_state(event)))


def players_without_pin(event: Event, *, paired_in_round: int | None = None,
                        paired_in_bracket: bool = False) -> dict[int, str]:
    """The players still in (not dropped) who have no PIN, by id, their names in alphabetical order:
    every hand they lose would wait for a second official. For the event's directors only (one query).
    ``paired_in_round``: only those paired at a table of that round; ``paired_in_bracket``: only those in a
    bracket match still being played."""
    found = Entry.objects.filter(event=event, dropped_after_round__isnull=True, player__confirm_pin="")
    if paired_in_round is not None or paired_in_bracket:
        tables = Match.objects.filter(event=event, reset_at__isnull=True, is_bye=False)
        tables = (tables.filter(round__number=paired_in_round) if paired_in_round is not None
                  else tables.filter(round__isnull=True, match_games__game__status=Game.Status.IN_PROGRESS))
        found = found.filter(match_places__match__in=tables).distinct()
    return dict(found.order_by("player__display_name").values_list("player_id", "player__display_name"))


def cards_to_print(event: Event) -> list[dict[str, Any]]:
    """The tables still being played whose card was never printed (a bracket match that opened by itself,
    a table whose links were never shown), as match rows (see ``matches``) each with ``working_link``
    (a link made elsewhere works: a table already playing keeps it unless the director asks). One query
    when there is none, seven otherwise."""
    ids = list(Match.objects.filter(event=event, card_printed_at__isnull=True, reset_at__isnull=True, is_bye=False,
                                    match_games__game__status=Game.Status.IN_PROGRESS)
               .exclude(round__status=Round.Status.DRAFT).values_list("pk", flat=True).distinct())
    if not ids:
        return []
    return [{**r, "working_link": any(link["active"] for g in r["game_details"] for link in g["referee_links"])}
            for r in matches(event, ids=ids) if r["status"] in ("waiting", "playing")]


def entries(event: Event, *, reasons: bool = False) -> list[dict[str, Any]]:
    """Every entry, in seed order then as entered (one query). Why an entry dropped is the officials' to
    know ("no-show", "ill"): ``drop_reason`` is empty unless ``reasons`` (``policy.is_official``)."""
    rows = list(Entry.objects.filter(event=event).select_related("player").order_by("id"))
    labels = entry_labels(rows)
    rows.sort(key=lambda e: (e.seed is None, e.seed or 0, e.pk))
    return [
        {"id": e.pk, "player": e.player_id, "name": labels[e.pk], "club": e.player.club, "seed": e.seed,
         "rating": e.rating, "joined_round": e.joined_round, "dropped_after_round": e.dropped_after_round,
         "dropped": e.dropped_after_round is not None, "drop_reason": e.drop_reason if reasons else "",
         "checked_in": e.checked_in_at is not None}
        for e in rows
    ]


def check_in_state(event: Event) -> dict[str, Any] | None:
    """Before round 1 of an event with check-in: how many of the entries still in are here, and the names of
    those who are not (one query); None when there is no check-in to follow."""
    if not event.check_in or event.status != Event.Status.REGISTRATION:
        return None
    rows = list(Entry.objects.filter(event=event, dropped_after_round__isnull=True).select_related("player")
                .order_by("id"))
    absent = [str(e.player) for e in rows if e.checked_in_at is None]
    return {"here": len(rows) - len(absent), "of": len(rows), "absent": absent}


def entry_names(event: Event) -> dict[int, str]:
    """{entry id: its name in the standings} (one query of plain values)."""
    return entry_labels_of(event)


def _match_status(event: Event, m: Match, outcome) -> str:
    if m.reset_at is not None:
        return "reset"
    if m.is_bye:
        return "bye"
    if m.round_id is not None and m.round.status == Round.Status.DRAFT:
        return "draft"
    if outcome.decided:
        return "decided"
    return "playing" if outcome.started else "waiting"


def _link_info(link: RefereeLink) -> dict[str, Any]:
    return {"id": link.pk, "label": link.label, "expires_at": link.expires_at, "revoked": link.revoked_at is not None,
            "active": link.is_active}


def _table_clock(m: Match, now) -> dict[str, Any] | None:
    """A table's clock: its round's with its own extra time, or a bracket match's own; None before one starts."""
    ends_at, left = ((m.round.clock_ends_at, m.round.clock_left_seconds) if m.round_id is not None
                     else (m.clock_ends_at, m.clock_left_seconds))
    if ends_at is None and left is None:
        return None
    return clock_of(ends_at, left, now, m.extra_seconds if m.round_id is not None else 0)


def _match_row(event: Event, m: Match, labels: dict[int, str]) -> dict[str, Any]:
    outcome = match_outcome(event, match_data(m))
    players = sides(m)
    director = list(m.results.all())
    games = [mg.game for mg in m.match_games.all()]
    return {
        "id": m.pk,
        "event": event.pk,
        "match": m.bracket_id or None,
        "round": m.round.number if m.round_id else None,
        "table": m.table,
        "players": [labels[e] for e in players],
        "entries": players,
        "games": [g.pk for g in games],
        "game_details": [
            {"id": g.pk, "number": mg.number, "status": g.status, "table_label": g.table_label,
             "totals": (g.summary or {}).get("totals", {}), "toward": toward_target(g.summary),
             "pending_hands": (g.summary or {}).get("pending_hands", 0),
             "referee_links": [_link_info(link) for link in g.referee_links.all()]}
            for mg, g in zip(m.match_games.all(), games, strict=True)
        ],
        "status": _match_status(event, m, outcome),
        "clock": _table_clock(m, timezone.now()),
        "winner": labels[outcome.winner] if outcome.decided and outcome.winner is not None and not m.is_bye else None,
        "winner_entry": outcome.winner if outcome.decided and not m.is_bye else None,
        "margin": outcome.margin if outcome.decided and not m.is_bye else None,
        "forfeit": outcome.forfeit,
        "source": outcome.source or None,
        "games_won": list(outcome.games_won),
        "director_results": [
            {"kind": r.kind, "winner": labels.get(r.winner_id) if r.winner_id else None, "margin": r.margin,
             "reason": r.reason, "entered_by": r.entered_by.get_username() if r.entered_by else None,
             "entered_at": r.entered_at}
            for r in director
        ],
        "reset": m.reset_at is not None,
        "card_printed": m.card_printed_at is not None if not m.is_bye else None,
    }


def _sort_key(m: Match) -> tuple:
    return (m.round.number if m.round_id else 0, m.is_bye, m.table or 0, m.bracket_id, m.pk)


def _rows(event: Event, found: Iterable[Match]) -> list[dict[str, Any]]:
    """Match rows (see ``matches``) of the matches ``found`` (loaded ``with_match_details``), in their
    order on the pages."""
    labels = entry_labels_of(event)  # plain values: a round's 1,000 entries and players were 2,000 models
    return [_match_row(event, m, labels) for m in sorted(found, key=_sort_key)]


def match_rows(event: Event, held: list[Match]) -> list[dict[str, Any]]:
    """The rows ``matches(event, ids=...)`` gives of these matches (not reset), reading only what they do
    not hold already (``load_match_details``): a service's matches just opened, with their games and links."""
    live = [m for m in held if m.reset_at is None]
    return _rows(event, load_match_details(live, links=True)) if live else []


def matches(event: Event, *, round: int | None = None, status: str | None = None,
            include_reset: bool = False, ids: Iterable[int] | None = None,
            entry: int | None = None) -> list[dict[str, Any]]:
    """Every match of the event (rounds in order, tables in order, byes last; bracket matches by the
    order they opened), filtered by round number and status (waiting, playing, decided, bye, draft,
    reset). Six queries; a round's matches are the only ones loaded. Each row: ``{"id", "event",
    "match" (bracket id or None), "round", "table", "players" (names), "entries" (ids), "games" (ids),
    "game_details" ([{"id", "number", "status", "table_label", "totals", "pending_hands",
    "referee_links": [{"id", "label", "expires_at", "revoked", "active"}]}]), "status", "winner"
    (name), "winner_entry", "margin", "forfeit", "source" (games, forfeit, adjusted, bye or None),
    "games_won", "director_results", "reset", "card_printed" (its table card's links were shown to be
    printed; None for a bye)}``. Referee links never carry their tokens: those exist
    only in what ``pair_next_round`` returns. ``ids``: only these matches; ``entry``: only those this entry
    plays (an entry id)."""
    found = Match.objects.filter(event=event)
    if entry is not None:
        found = found.filter(players__entry_id=entry)
    if ids is not None:
        found = found.filter(pk__in=list(ids))
    if round is not None:
        found = found.filter(round__number=round)
    if not (include_reset or status == "reset"):
        found = found.filter(reset_at__isnull=True)
    rows = _rows(event, with_match_details(found, links=True))  # six queries
    if status is not None:
        rows = [r for r in rows if r["status"] == status]
    return rows


def unfinished_tables(event: Event, answer: dict[str, Any], current: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables of a Swiss or round robin still owing a result, in every round: the engine's ``pending``
    (an earlier round reopened by a correction included) and the current round's match rows
    (``current``, from ``matches``) still being played, by round and table; each row gains
    ``waiting_for``: [(hand number, who may accept it)] for its hands awaiting acceptance."""
    if event.is_elimination:
        return []
    owed = [p for p in answer.get("pending") or [] if "players" in p]
    found = {r["id"]: r for r in current if r["status"] in ("waiting", "playing")}
    for number in sorted({p["round"] for p in owed} - {r["round"] for r in current}):
        wanted = {frozenset(p["players"]) for p in owed if p["round"] == number}
        found.update((r["id"], r) for r in matches(event, round=number) if frozenset(r["players"]) in wanted)
    rows = sorted(found.values(), key=lambda r: (r["round"] or 0, r["table"] or 0))
    waiting = scoring_selectors.awaiting_acceptance([g for r in rows for g in r["games"]])
    return [{**r, "waiting_for": [w for g in r["games"] for w in waiting.get(g, [])]} for r in rows]


def match(event: Event, key: int | str) -> dict[str, Any]:
    """One match row (as in ``matches``), by its id or, for a bracket, its live match id ("W1-3").
    Raises ``Match.DoesNotExist``. Six queries."""
    found = Match.objects.filter(event=event)
    pk = key if isinstance(key, int) else text_id(key)
    if pk is not None:
        found = found.filter(pk=pk)
    else:
        found = found.filter(bracket_id=str(key)[:10], reset_at__isnull=True)
    rows = _rows(event, with_match_details(found, links=True))
    if not rows:
        raise Match.DoesNotExist(f"no match {key!r} in {event.name}")
    return rows[0]


def rounds_with_matches(event: Event) -> list[dict[str, Any]]:
    """``[{"round", "status", "published_at", "closed_at", "matches": [match rows as in matches()]}]`` for a
    Swiss or round robin event; for a bracket one item with ``"round": None`` holding its matches.
    Eight queries."""
    rows = matches(event)
    if event.is_elimination:
        return [{"round": None, "status": event.status, "published_at": None, "closed_at": None, "matches": rows}]
    return [{"round": rnd.number, "status": rnd.status, "published_at": rnd.published_at, "closed_at": rnd.closed_at,
             "matches": [r for r in rows if r["round"] == rnd.number]}
            for rnd in Round.objects.filter(event=event).order_by("number")]


def open_bracket_matches(event: Event) -> list[dict[str, Any]]:
    """The live bracket matches without a result yet (with their tables), as match rows. Six queries."""
    return [r for r in matches(event) if r["match"] and r["status"] in ("waiting", "playing")]


def game_clock(game_id: int) -> dict[str, Any] | None:
    """The clock of the round a game is played in, with its table's extra time (one query): for the
    table's entry page (``scoring.game_clocks``). None when the round's clock has not started."""
    row = (MatchGame.objects.filter(game_id=game_id)
           .values_list("match__round__clock_ends_at", "match__round__clock_left_seconds", "match__extra_seconds",
                        "match__round__number", "match__clock_ends_at", "match__clock_left_seconds",
                        "match__bracket_id", "match__event__time_rule", "match__event__format").first())
    if row is None:
        return None
    round_ends, round_left, extra, number, match_ends, match_left, bracket_id, rule, format = row
    ends_at, left = (round_ends, round_left) if number is not None else (match_ends, match_left)
    if ends_at is None and left is None:
        return None
    eliminating = format in (Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION)
    label = f"Round {number}:" if number is not None else f"{bracket_id}:"
    return {**clock_of(ends_at, left, timezone.now(), extra if number is not None else 0), "label": label,
            "rule": rule, "level": "play_on" if eliminating else "draw"}


def round_summaries(event: Event) -> list[dict[str, Any]]:
    """Each round of a Swiss or round robin event: ``{"round", "status", "published_at", "closed_at",
    "tables", "byes", "clock"}`` (one query; the matches themselves: ``matches(event, round=n)``)."""
    live = Q(matches__reset_at__isnull=True)
    rounds = (Round.objects.filter(event=event).order_by("number")
              .annotate(tables=Count("matches", filter=live & Q(matches__is_bye=False)),
                        byes=Count("matches", filter=live & Q(matches__is_bye=True))))
    now = timezone.now()
    return [{"round": r.number, "status": r.status, "published_at": r.published_at, "closed_at": r.closed_at,
             "tables": r.tables, "byes": r.byes, "clock": clock_of(r.clock_ends_at, r.clock_left_seconds, now)}
            for r in rounds]


def clock_of(ends_at, left_seconds, now, extra_seconds: int = 0) -> dict[str, Any]:
    """A round's (or one table's) clock as pages and the API show it: ``tournaments.engine.clock`` plus words."""
    state = clock_state(ends_at=ends_at, left_seconds=left_seconds, now=now, extra_seconds=extra_seconds)
    return {**state.as_dict(), "words": clock_words(state)}


def round_clock(event: Event, number: int | None) -> dict[str, Any] | None:
    """Round ``number``'s clock, None when it has none running or paused (one query)."""
    if not number:
        return None
    row = Round.objects.filter(event=event, number=number).values_list("clock_ends_at", "clock_left_seconds").first()
    if row is None or row == (None, None):
        return None
    return clock_of(*row, timezone.now())


def current_round(event: Event) -> int | None:
    """The round being played or drafted (the last one), None before the first (one query)."""
    return Round.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first()


def my_tables(actor: Actor) -> list[dict[str, Any]]:
    """The matches a referee (or director) can record now, across the running events they officiate:
    each published round's and bracket's undecided matches, as match rows plus ``"event_name"``. Seven
    queries however many events, entries and matches; closed rounds are not loaded."""
    if actor.user is None:
        return []
    events = list(Event.objects.filter(Q(directors=actor.user) | Q(referees=actor.user),
                                       status=Event.Status.RUNNING).distinct())
    if not events:
        return []
    by_pk = {e.pk: e for e in events}
    all_entries = list(Entry.objects.filter(event__in=events).select_related("player"))
    labels: dict[int, dict[int, str]] = {}
    for e in events:
        labels[e.pk] = entry_labels([x for x in all_entries if x.event_id == e.pk])
    found = with_match_details(
        Match.objects.filter(event__in=events, reset_at__isnull=True, is_bye=False)
        .filter(Q(round__status=Round.Status.PUBLISHED) | Q(round__isnull=True)),
        links=True,
    )
    rows = []
    now = timezone.now()
    for m in sorted(found, key=lambda m: (m.event_id, *_sort_key(m))):
        event = by_pk[m.event_id]
        row = _match_row(event, m, labels[event.pk])
        if row["status"] != "decided":
            row["event_name"] = event.name
            row["clock"] = _table_clock(m, now)
            rows.append(row)
    return rows


def key_opens(event: Event, key: str) -> bool:
    """Whether ``key`` is the event's sign-up key (compared in constant time)."""
    return bool(event.registration_key) and secrets.compare_digest(event.registration_key, key or "")


def sign_up_event(actor: Actor, pk: int, key: str) -> Event:
    """The event a sign-up is for: one the actor may read, or a private one whose sign-up key came with the
    request (``Event.DoesNotExist`` otherwise: a 404, as the event itself is)."""
    try:
        return readable_event(actor, pk)
    except Event.DoesNotExist:
        event = Event.objects.get(pk=pk)
        if not key_opens(event, key):
            raise
        return event


def registrations(event: Event) -> list[tuple[Registration, int | None]]:
    """The event's sign-ups in the order they came, each with its place in the waitlist's queue (None when
    it is not waitlisted): one query."""
    rows, waiting = [], 0
    for registration in Registration.objects.filter(event=event).select_related("player").order_by("pk"):
        if registration.status == Registration.Status.WAITLISTED:
            waiting += 1
        rows.append((registration, waiting if registration.status == Registration.Status.WAITLISTED else None))
    return rows


def for_readers(row: dict[str, Any], *, official: bool) -> dict[str, Any]:
    """A match row as a reader who is not one of the event's officials may see it: a director's result keeps
    its kind, winner and margin, but not why (a forfeit's reason, like a drop's, is the officials' to know)."""
    if not official:
        row["director_results"] = [{**r, "reason": ""} for r in row["director_results"]]
    return row


def avoid_pairs(event: Event) -> list[AvoidPair]:
    """The event's pairs to avoid with both players' names, in the order they were set: one query."""
    return list(AvoidPair.objects.filter(event=event).select_related("first__player", "second__player").order_by("pk"))


def requested_byes(entry_id: int | None) -> list[int]:
    """The rounds an entry asked to sit out, in order (none for no entry): one query."""
    if entry_id is None:
        return []
    return list(RequestedBye.objects.filter(entry_id=entry_id).order_by("round").values_list("round", flat=True))


def sitting_out(event: Event, round_number: int) -> list[str]:
    """The players who asked to sit out a Swiss round, by name: one query."""
    return sorted(RequestedBye.objects.filter(entry__event=event, round=round_number)
                  .values_list("entry__player__display_name", flat=True), key=str.casefold)


PAIRS_TO_AVOID = ("avoid", "pairing_refused")  # who is kept apart from whom: its directors' business


def without_pairs_to_avoid(document: dict[str, Any]) -> dict[str, Any]:
    """An event's request (its export) or answer as shown to whoever does not direct it: the pairs to avoid,
    and the refusal that names two of them, left out (they say who must not meet whom)."""
    if not any(key in document for key in PAIRS_TO_AVOID):
        return document
    return {key: value for key, value in document.items() if key not in PAIRS_TO_AVOID}


def rounds_paired(event: Event) -> int:
    """The number of the last round paired (0 before round 1): one query."""
    return current_round(event) or 0
