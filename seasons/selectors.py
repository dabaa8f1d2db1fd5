"""Reads for the seasons pages and API: the seasons, a season's ladder and one player's season (their
placings, nights and head-to-head), worked out on read by ``seasons.engine`` from what the season counts.

What a season counts (the ladder is public, so only what everyone may read counts):
- events: public, complete events created within the season's days; a knockout seeded from a Swiss (or round
  robin) is one event with it, dated by the first stage and counted once its last stage is complete, its
  places the knockout's for the knockout's players and the first stage's order after them. An entry that
  played nothing (withdrawn before round 1) has no place. Places come from the event's stored answer (the
  engine's standings), so a correction (a hand, a director's result) moves them as it moves the standings.
- club nights: a calendar day (in the site's time zone) on which the player played a finished (complete),
  public game that is no event's table.

Every read costs a constant number of queries however many events, games and players it counts (an event's
answer is worked out again only when its results moved since it was stored). Nothing here writes but that.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from scoring.models import Game, Player, Seat, settled_result_of
from tournaments import selectors as event_selectors
from tournaments.models import Entry, Event, EventAnswer, Match, MatchGame
from tournaments.stored_event import latest_result_change, match_data, match_outcome, with_match_details

from .engine import EventPlacings, LadderRow, PointsTable, combine_stages, ladder
from .models import Season


def seasons() -> QuerySet[Season]:
    return Season.objects.all()


def points_table(season: Season) -> PointsTable:
    return PointsTable(placement=list(season.placement_points), finisher=season.finisher_points,
                       night=season.night_points, best_nights=season.best_nights, counts=season.counts)


def _bounds(season: Season) -> tuple[datetime, datetime]:
    """The season's days as a half-open range of moments in the site's time zone. The service keeps a season's
    days within years that can be read, but a stored day at the calendar's very end (9999-12-31: the day after
    it, or its moment in UTC, does not exist) is read as the widest range there is, never as a failure."""
    zone = timezone.get_current_timezone()
    # A day away from either end leaves room for the day after and for any zone's offset.
    first, last = date.min + timedelta(days=2), date.max - timedelta(days=2)
    starts_on, ends_on = min(max(season.starts_on, first), last), min(max(season.ends_on, first), last)
    start = timezone.make_aware(datetime.combine(starts_on, time.min), zone)
    end = timezone.make_aware(datetime.combine(ends_on + timedelta(days=1), time.min), zone)
    return start, end


@dataclass
class Counted:
    """What a season counts, loaded once: its events (each with its stages), places and club nights."""

    events: list[EventPlacings] = field(default_factory=list)
    stages: dict[int, list[Event]] = field(default_factory=dict)  # counted event id -> its stages, first first
    entry_player: dict[int, int] = field(default_factory=dict)
    nights: dict[int, list[date]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)


def _places(event: Event, standings: list[dict[str, Any]], entry_player: dict[int, int]) -> dict[int, int]:
    return {entry_player[row["entry"]]: row["rank"] for row in standings
            if row.get("entry") in entry_player and (row.get("played") or row.get("byes"))}


def _standings(events: list[Event]) -> dict[int, list[dict[str, Any]]]:
    """Each event's final standings from its stored answer (one query); an answer its results have moved past
    (a correction) is worked out again, as the event's own pages would."""
    stored = {a.event_id: a for a in EventAnswer.objects.filter(event__in=events, view="live")
              .only("event_id", "key", "answer")}
    found = {}
    for event in events:
        answer = stored.get(event.pk)
        if answer is not None and answer.key == event_selectors.answer_key(event):
            found[event.pk] = answer.answer.get("standings", [])
        else:
            found[event.pk] = event_selectors.standings(event)
    return found


def _events(season: Season, counted: Counted) -> None:
    start, end = _bounds(season)
    in_days = Q(created_at__gte=start, created_at__lt=end)
    first_stages = Event.objects.filter(in_days, seeded_from__isnull=True)
    firsts = first_stages.values("pk")
    found = list(Event.objects.filter(Q(pk__in=firsts) | Q(seeded_from__in=firsts))
                 .exclude(status=Event.Status.CANCELLED)
                 .annotate(last_change=latest_result_change()).defer("seeding", "conventions").order_by("pk"))
    by_first: dict[int, list[Event]] = defaultdict(list)
    for event in found:
        by_first[event.seeded_from_id or event.pk].append(event)
    units = {first: stages for first, stages in by_first.items()
             if stages[0].pk == first and all(e.is_public and e.status == Event.Status.COMPLETE for e in stages)}
    if not units:
        return
    events = [e for stages in units.values() for e in stages]
    entries = Entry.objects.filter(event__in=events).values_list("pk", "player_id")
    counted.entry_player = dict(entries)
    standings = _standings(events)
    for first, stages in sorted(units.items()):
        places = _places(stages[0], standings[stages[0].pk], counted.entry_player)
        for later in stages[1:]:
            places = combine_stages(_places(later, standings[later.pk], counted.entry_player), places)
        counted.stages[first] = stages
        counted.events.append(EventPlacings(first, stages[0].name, timezone.localdate(stages[0].created_at), places))


def club_games(season: Season) -> QuerySet[Game]:
    """The season's finished, public club games (no event's tables)."""
    start, end = _bounds(season)
    return (Game.objects.filter(status=Game.Status.COMPLETE, is_public=True, created_at__gte=start,
                                created_at__lt=end)
            .exclude(Exists(MatchGame.objects.filter(game_id=OuterRef("pk")))))


def _nights(season: Season, counted: Counted) -> None:
    days: dict[int, set[date]] = defaultdict(set)
    for player_id, created_at in Seat.objects.filter(game__in=club_games(season)).values_list("player_id",
                                                                                              "game__created_at"):
        days[player_id].add(timezone.localdate(created_at))
    counted.nights = {p: sorted(d) for p, d in days.items()}


def counted(season: Season) -> Counted:
    """Everything the season counts (five queries, and a recompute of an event whose results moved)."""
    found = Counted()
    if season.counts in (Season.Counts.EVENTS, Season.Counts.BOTH):
        _events(season, found)
    if season.counts in (Season.Counts.CLUB, Season.Counts.BOTH):
        _nights(season, found)
    players = {p for e in found.events for p in e.places} | set(found.nights)
    found.names = dict(Player.everyone.filter(pk__in=players).values_list("pk", "display_name"))
    return found


def season_ladder(season: Season, found: Counted | None = None) -> list[LadderRow]:
    found = found or counted(season)
    return ladder(points_table(season), found.events, found.nights, found.names)


# ---------------------------------------------------------------------------------------------------
# One player's season


@dataclass
class Meeting:
    """Head-to-head against one opponent: club games and event matches, wins, draws and losses."""

    opponent: int
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


def _tally(meetings: dict[int, Meeting], opponent: int, won: bool | None) -> None:
    meeting = meetings.setdefault(opponent, Meeting(opponent, ""))
    if won is None:
        meeting.draws += 1
    elif won:
        meeting.wins += 1
    else:
        meeting.losses += 1


def _club_meetings(season: Season, player_id: int, meetings: dict[int, Meeting]) -> None:
    """Two-player club games of the season (two queries)."""
    games = (club_games(season).filter(seats__player_id=player_id)
             .only("pk", "status", "summary", "player_names").prefetch_related("seats"))
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        if len(seats) != 2:
            continue
        mine = 0 if seats[0].player_id == player_id else 1
        names = list(game.player_names)
        settled = settled_result_of(game.status, game.summary)
        if settled is None and (game.summary or {}).get("winner") is None and (game.summary or {}).get("complete"):
            _tally(meetings, seats[1 - mine].player_id, None)  # level at time: a draw
        elif settled is not None and settled[0] in names:
            _tally(meetings, seats[1 - mine].player_id, names.index(settled[0]) == mine)


def _event_meetings(found: Counted, player_id: int, meetings: dict[int, Meeting]) -> None:
    """Decided matches of the season's counted events (five queries however many)."""
    events = [e for stages in found.stages.values() for e in stages]
    mine = [entry for entry, player in found.entry_player.items() if player == player_id]
    if not events or not mine:
        return
    matches = with_match_details(Match.objects.filter(event__in=events, reset_at__isnull=True, is_bye=False,
                                                      players__entry__in=mine).select_related("event"))
    for m in matches:
        data = match_data(m)
        outcome = match_outcome(m.event, data)
        if not outcome.decided or len(data.sides) != 2:
            continue
        me = next(e for e in data.sides if e in mine)
        other = next(e for e in data.sides if e != me)
        _tally(meetings, found.entry_player[other], None if outcome.winner is None else outcome.winner == me)


def head_to_head(season: Season, player_id: int, found: Counted) -> list[Meeting]:
    meetings: dict[int, Meeting] = {}
    if season.counts in (Season.Counts.CLUB, Season.Counts.BOTH):
        _club_meetings(season, player_id, meetings)
    if season.counts in (Season.Counts.EVENTS, Season.Counts.BOTH):
        _event_meetings(found, player_id, meetings)
    names = dict(Player.everyone.filter(pk__in=meetings).values_list("pk", "display_name"))
    for meeting in meetings.values():
        meeting.name = names.get(meeting.opponent, "")
    return sorted(meetings.values(), key=lambda m: (-m.played, m.name.casefold(), m.opponent))


@dataclass
class PlayerSeason:
    player: Player
    row: LadderRow | None
    meetings: list[Meeting]
    field_size: int


def player_season(season: Season, player_id: int) -> PlayerSeason:
    """A player's season: their ladder row (placings, nights, points) and head-to-head (``Player.DoesNotExist``
    for an unknown player)."""
    player = Player.objects.get(pk=player_id)
    found = counted(season)
    rows = season_ladder(season, found)
    row = next((r for r in rows if r.player == player.pk), None)
    return PlayerSeason(player, row, head_to_head(season, player.pk, found), len(rows))


def ladder_rows(rows: Iterable[LadderRow]) -> list[dict[str, Any]]:
    """The ladder as the API and the CSV give it."""
    return [{"place": r.place, "player": r.player, "name": r.name, "points": r.points,
             "placement_points": r.placement_points, "night_points": r.night_points, "events": r.events,
             "nights": r.nights_counted} for r in rows]
