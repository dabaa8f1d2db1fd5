"""A match's games and their table links: the games made under the event's frozen conventions (their
officials are the event's, as ``policy.EVENT_GAMES`` answers: the games keep no referees of their own),
the matches' rows, and new referee links for a printed round sheet. A match whose links' tokens are
handed out to be printed (a pairing's, a publishing's, a sheet's) is marked ``card_printed_at``.

It must not decide pairings or results: it makes what the rounds and brackets modules decided to open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from core import raw_rows
from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game, Player, RefereeLink
from tournaments.models import Entry, Event, Match, MatchGame, MatchPlayer, Round
from tournaments.policy import Actor
from tournaments.services.base import refusing
from tournaments.stored_event import load_state, sides

from .base import error, lock_event_to_change

# ---------------------------------------------------------------------------------------------------
# Rounds, bracket matches, games


@dataclass
class Opened:
    """What a pairing (or publishing, or reset) made: the round (None for a bracket), the matches it
    opened, and the referee link tokens of their games ({game id: token}), which exist only now."""

    round: Round | None
    matches: list[Match] = field(default_factory=list)
    tokens: dict[int, str] = field(default_factory=dict)
    reset: list[Match] = field(default_factory=list)


def open_games(actor: Actor, event: Event, matches: Sequence[Match], tokens: dict[int, str], *,
               links: bool = True) -> None:
    """The matches' games under the event's frozen conventions, each with a referee link (``links``: its
    token goes to the round sheet, or the API's answer, to be printed, so its card counts as printed).
    A few statements however many matches: a round of 500 tables is published in one request (issue 35)."""
    planned, numbered = [], []
    count = event.games_per_match
    player_of = _players_by_entry(event)
    # What each game is part of, as its sheet links back: the event (its name and page) and the match's page.
    event_url, match_url = reverse("tournaments:event", args=[event.pk]), _match_pages(event)
    for match in matches:
        players = [player_of[e] for e in sides(match)]
        where = match.bracket_id or f"round {match.round.number}"
        for number in range(1, count + 1):
            # The round (or bracket match) too: a table's number comes back every round, its card may stay.
            label = " · ".join(part for part in (f"Round {match.round.number}" if match.round_id else "",
                                                 f"Table {match.table}" if match.table else "", match.bracket_id,
                                                 f"game {number}" if count > 1 else "") if part)
            try:
                planned.append(scoring.planned_game(actor=actor, game=scoring.NewGame(
                    format=Game.Format.STANDARD, players=players, conventions=event.conventions,
                    table_label=label, is_public=event.is_public, origin=(event.name, event_url, match_url(match.pk)))))
            except Refusal as exc:
                raise error("players", f"{where}: {exc.problems[0].message}") from None
            numbered.append((match, number, label))
    games = scoring.create_planned_games(games=planned)
    made_games = [raw_rows.new(MatchGame, {"match": match, "game": game}, number=number)
                  for (match, number, _), game in zip(numbered, games, strict=True)]
    raw_rows.insert_many(made_games)
    links_of: dict[int, list[RefereeLink]] = {game.pk: [] for game in games}
    if links:
        made = scoring.create_referee_links_unchecked(
            actor=actor, labelled=[(game, label[:60]) for (_, _, label), game in zip(numbered, games, strict=True)])
        tokens.update((link.game_id, link.token) for link in made)
        for link in made:
            links_of[link.game_id].append(link)
        printed_at = timezone.now()
        Match.objects.filter(pk__in=[m.pk for m in matches]).update(card_printed_at=printed_at)
        for match in matches:
            match.card_printed_at = printed_at
    # Each match holds its games and each game its links as they were made: the answer reads none back.
    games_of: dict[int, list[MatchGame]] = {match.pk: [] for match in matches}
    for made_game in made_games:
        games_of[made_game.match_id].append(made_game)
        raw_rows.prefetched(made_game.game, "referee_links", links_of[made_game.game_id])
    for match in matches:
        raw_rows.prefetched(match, "match_games", games_of[match.pk])


def _match_pages(event: Event) -> Callable[[int], str]:
    """The page of each of the event's matches, by its id: ``reverse`` once, the id put where it puts one
    (500 calls were a twentieth of a round's publish)."""
    probe = 987_654_321_987  # no match's id: only where the match's id goes
    head, _, tail = reverse("tournaments:match", args=[event.pk, probe]).rpartition(str(probe))
    return lambda pk: f"{head}{pk}{tail}"


def _players_by_entry(event: Event) -> dict[int, Player]:
    """Every entry's player, {entry id: Player}: one statement, no Entry models (a round of 1,000 entries)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT e.id, {raw_rows.columns(Player, 'p')} FROM {raw_rows.table(Entry)} e "
                       f"JOIN {raw_rows.table(Player)} p ON p.id = e.player_id WHERE e.event_id = %s", [event.pk])
        rows = cursor.fetchall()
    return dict(zip((row[0] for row in rows), raw_rows.instances(Player, rows, offset=1), strict=True))


def create_match(event: Event, *, round: Round | None, table: int | None, players: Sequence[int],
                  bracket_id: str = "", opened_from: dict | None = None) -> Match:
    match = Match.objects.create(event=event, round=round, table=table, bracket_id=bracket_id,
                                 is_bye=len(players) == 1, opened_from=opened_from or {})
    places = MatchPlayer.objects.bulk_create([MatchPlayer(match=match, round=round, entry_id=e, side=i)
                                              for i, e in enumerate(players)])
    raw_rows.prefetched(match, "players", places)  # its sides, in order, as made
    return match



@refusing
@transaction.atomic
def issue_table_links(*, actor: Actor, event: Event, round: Round | None = None, match: Match | None = None,
                      started_too: bool = False) -> dict[int, str]:
    """New referee links for the games still being played of a round's undecided matches (or every open
    bracket match's, or one ``match``'s), their earlier links revoked: for a printed card, since a link's
    token exists only when made. Returns {game id: token}.

    A round's (or the bracket's) new links leave alone a game already started whose link works, so no
    referee is sent to the sign-in page in the middle of a game, unless ``started_too``; a game with no
    working link (a bracket match that opened by itself) always gets one. One match's new link (a card
    lost, a phone changed) touches no other table. Each match given a new link has its card marked printed."""
    event = lock_event_to_change(actor, event, "make table links")
    state = load_state(event)

    def in_scope(m) -> bool:
        if match is not None:
            return m.pk == match.pk
        return m.round_id == round.pk if round is not None else m.round_id is None

    undecided = [m.pk for m in state.live_matches if in_scope(m) and not m.is_bye and not state.outcome(m).decided]
    if match is not None and not undecided:
        raise error("match", "only a match still being played has a table link")
    return renew_table_links(actor, undecided, keep_started=match is None and not started_too)


def renew_table_links(actor: Actor, match_ids: Sequence[int], *, keep_started: bool) -> dict[int, str]:
    """New referee links for the games still being played of these matches, their earlier links revoked,
    and those matches' cards marked printed (their tokens, returned as {game id: token}, are for the sheet
    or the answer that shows them). ``keep_started``: a game already started whose link works keeps it.
    The caller holds the event's lock and has checked the matches are the event's and undecided."""
    tokens: dict[int, str] = {}
    games = Game.objects.filter(pk__in=MatchGame.objects.filter(match__in=match_ids).values("game_id"),
                                status=Game.Status.IN_PROGRESS).order_by("pk")
    unrevoked: dict[int, list[RefereeLink]] = {}
    for link in RefereeLink.objects.filter(game__in=games, revoked_at__isnull=True):
        unrevoked.setdefault(link.game_id, []).append(link)
    for game in games:
        links = unrevoked.get(game.pk, [])
        if keep_started and game.hand_count > 0 and any(link.is_active for link in links):
            continue
        for link in links:
            scoring.revoke_referee_link_unchecked(link=link)
        link = scoring.create_referee_link_unchecked(actor=actor, game=game, label=game.table_label[:60])
        tokens[game.pk] = link.token
    if tokens:
        Match.objects.filter(pk__in=MatchGame.objects.filter(game_id__in=list(tokens)).values("match_id")) \
            .update(card_printed_at=timezone.now())
    return tokens
