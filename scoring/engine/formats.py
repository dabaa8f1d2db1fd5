"""The table formats beyond one two-player game: Hollywood, rotation, Jersey Gin and partnerships.

Each ``score_*`` function is pure: typed hand records in, a typed result out, reusing the two-player
hand scoring (``score_hand``) and the settlement (``settle``) of the ledger. The sheet module reads
the contract's JSON into records and renders these results; nothing here knows JSON field names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import Card
from .conventions import Conventions, DeadHandRule, TieRule
from .errors import SheetError
from .hands import HandRecord, Outcome, Result, ScoredHand, deal_terms, knock_limit_message, score_hand
from .ledger import (
    SheetRow,
    Standing,
    Tally,
    next_dealer_two_player,
    reject_after_complete,
    running_totals,
    settle,
    toward_target,
)
from .melds import CardReport

HOLLYWOOD_GAMES = 3


# ---------------------------------------------------------------------------------------------------
# Hollywood: three games at once between two players


@dataclass(frozen=True, slots=True)
class HollywoodGame:
    number: int
    complete: bool
    winner: str | None
    standings: Mapping[str, Standing]
    closed_after: int | None  # the hand that closed it

    @property
    def margin(self) -> int | None:
        if self.winner is None:
            return None
        (loser,) = [p for p in self.standings if p != self.winner]
        return self.standings[self.winner].total - self.standings[loser].total


@dataclass(frozen=True, slots=True)
class HollywoodRow:
    row: SheetRow
    games: tuple[int, ...]  # 1-based games the hand was credited to
    game_totals: tuple[Mapping[str, int], ...]


@dataclass(frozen=True, slots=True)
class HollywoodResult:
    players: tuple[str, str]
    rows: tuple[HollywoodRow, ...]
    games: tuple[HollywoodGame, ...]
    next_dealer: str | None

    @property
    def complete(self) -> bool:
        return all(g.complete for g in self.games)

    @property
    def net(self) -> dict[str, int]:
        """Each player's net over the closed games: what they won in theirs less what the other won."""
        a, b = self.players
        net = sum(g.standings[a].total - g.standings[b].total for g in self.games if g.complete)
        return {a: net, b: -net}

    @property
    def winner(self) -> str | None:
        if not self.complete:
            return None
        net = self.net
        a, b = self.players
        return a if net[a] > 0 else b if net[b] > 0 else None

    @property
    def margin(self) -> int | None:
        return abs(self.net[self.players[0]]) if self.complete else None

    @property
    def standings(self) -> dict[str, Standing]:
        """Each player's three games added together."""
        out = {}
        for p in self.players:
            parts = [g.standings[p] for g in self.games]
            out[p] = Standing(*(sum(getattr(s, f) for s in parts) for f in Standing.__slots__))
        return out


def score_hollywood(
    *, conventions: Conventions, players: tuple[str, str], first_dealer: str, hands: Sequence[HandRecord]
) -> HollywoodResult:
    """Score a Hollywood match: each win is credited to the open games its winner has reached.

    A player's n-th win reaches games 1..n (at most 3), counting only games still open. With the shift
    rule, a player shut out of a game that closes reaches the next open game with their next win.
    """
    target = conventions.target
    tallies = [{p: Tally() for p in players} for _ in range(HOLLYWOOD_GAMES)]
    played = [0] * HOLLYWOOD_GAMES  # hands dealt while each game was open
    closed: list[int | None] = [None] * HOLLYWOOD_GAMES
    winners: list[str | None] = [None] * HOLLYWOOD_GAMES
    reach = dict.fromkeys(players, 1)  # the highest game a player's next win is credited to
    dealer = first_dealer
    rows = []
    for number, record in enumerate(hands, start=1):
        if all(c is not None for c in closed):
            raise reject_after_complete(number, max(c for c in closed if c is not None))
        scored = score_hand(record, players=players, conventions=conventions, number=number)
        credited: tuple[int, ...] = ()
        for g in range(HOLLYWOOD_GAMES):
            if closed[g] is None:
                played[g] += 1
        if scored.winner is not None:
            w = scored.winner
            credited = tuple(g + 1 for g in range(reach[w]) if closed[g] is None)
            for game in credited:
                t = tallies[game - 1]
                t[w] = t[w].add(scored.points, scored.boxes)
            reach[w] = min(reach[w] + 1, HOLLYWOOD_GAMES)
            for game in credited:
                if toward_target(conventions, tallies[game - 1][w]) >= target:
                    closed[game - 1], winners[game - 1] = number, w
            if conventions.hollywood_shift:
                for p in players:
                    reach[p] = _shifted_reach(reach[p], closed)
        game_totals = tuple(running_totals(conventions, tallies[g]) for g in range(HOLLYWOOD_GAMES))
        totals = {p: sum(t[p] for t in game_totals) for p in players}
        rows.append(HollywoodRow(SheetRow(number, dealer, scored, totals), credited, game_totals))
        dealer = next_dealer_two_player(conventions, players, dealer, scored)
    games = tuple(
        HollywoodGame(
            number=g + 1,
            complete=closed[g] is not None,
            winner=winners[g],
            standings=settle(conventions, tallies[g], winner=winners[g], hands_played=played[g]),
            closed_after=closed[g],
        )
        for g in range(HOLLYWOOD_GAMES)
    )
    done = all(c is not None for c in closed)
    return HollywoodResult(players, tuple(rows), games, None if done else dealer)


def _shifted_reach(reach: int, closed: list[int | None]) -> int:
    """The shift rule: a player whose next win would reach only closed games reaches the first open one.

    Games close in order (a player's game 1 points are never below their game 2 points), so the closed
    games are a prefix; a player whose reach lies inside it was shut out of the game at their reach.
    """
    closed_prefix = 0
    while closed_prefix < HOLLYWOOD_GAMES and closed[closed_prefix] is not None:
        closed_prefix += 1
    if reach <= closed_prefix < HOLLYWOOD_GAMES:
        return closed_prefix + 1
    return reach


# ---------------------------------------------------------------------------------------------------
# Three players: rotation (dealer sits out) and Jersey Gin (all three play)


@dataclass(frozen=True, slots=True)
class ThreePlayerRow:
    row: SheetRow
    sitting_out: str | None
    penalty: int = 0  # Jersey: the undercut knocker's loss
    penalised: str | None = None
    deadwood: Mapping[str, int] | None = None  # Jersey: everyone's deadwood


@dataclass(frozen=True, slots=True)
class ThreePlayerResult:
    players: tuple[str, ...]
    rows: tuple[ThreePlayerRow, ...]
    complete: bool
    winner: str | None
    next_dealer: str | None
    next_players: tuple[str, ...] | None
    standings: Mapping[str, Standing]

    @property
    def margins(self) -> dict[str, int] | None:
        """What each loser pays the winner: the difference between their grand totals."""
        if self.winner is None:
            return None
        won = self.standings[self.winner].total
        return {p: won - s.total for p, s in self.standings.items() if p != self.winner}


def score_rotation(
    *, conventions: Conventions, players: tuple[str, str, str], first_dealer: str, hands: Sequence[HandRecord]
) -> ThreePlayerResult:
    """Three players, two at a time: the dealer sits out, the loser of each hand deals the next.

    A dead hand (or a no-score tie) is dealt again by the same dealer to the same two players.
    """
    target = conventions.target
    tallies = {p: Tally() for p in players}
    dealer = first_dealer
    rows = []
    winner = None
    for number, record in enumerate(hands, start=1):
        if winner is not None:
            raise reject_after_complete(number, number - 1)
        playing = tuple(p for p in players if p != dealer)
        if record.knocker is not None and record.knocker not in playing:
            message = f"{record.knocker} is sitting out this hand ({dealer} deals to {' and '.join(playing)})"
            raise SheetError.one(number, "knocker", message)
        scored = score_hand(record, players=playing, conventions=conventions, number=number)  # type: ignore[arg-type]
        if scored.winner is not None:
            tallies[scored.winner] = tallies[scored.winner].add(scored.points, scored.boxes)
            if toward_target(conventions, tallies[scored.winner]) >= target:
                winner = scored.winner
        rows.append(ThreePlayerRow(SheetRow(number, dealer, scored, running_totals(conventions, tallies)), dealer))
        if scored.loser is not None:
            dealer = scored.loser
    standings = settle(conventions, tallies, winner=winner, hands_played=len(rows))
    return ThreePlayerResult(
        players=players,
        rows=tuple(rows),
        complete=winner is not None,
        winner=winner,
        next_dealer=None if winner else dealer,
        next_players=None if winner else tuple(p for p in players if p != dealer),
        standings=standings,
    )


@dataclass(frozen=True, slots=True)
class JerseyRecord:
    """A Jersey Gin hand: the knocker's deadwood and both opponents' (derived from cards when entered)."""

    result: Result
    knocker: str | None
    knocker_deadwood: int | None
    deadwood: Mapping[str, int] | None  # the two opponents
    upcard: Card | None = None
    cards: CardReport | None = None


def score_jersey_hand(
    record: JerseyRecord, *, players: tuple[str, str, str], conventions: Conventions, number: int
) -> tuple[ScoredHand, str | None, int]:
    """One Jersey hand: (the scored hand, who pays the undercut penalty, the penalty)."""
    terms = deal_terms(conventions, record.upcard)
    if conventions.oklahoma and record.upcard is None and record.result is not Result.DEAD:
        raise SheetError.one(number, "upcard", "Oklahoma hands need the deal's first upcard, like \"7S\"")
    as_two = HandRecord(record.result, record.knocker, record.knocker_deadwood, None, record.upcard, record.cards)
    if record.result is Result.DEAD:
        return ScoredHand(as_two, players[:2], Outcome.DEAD, None, None, 0, 0, terms), None, 0
    knocker = record.knocker
    assert knocker is not None
    assert record.deadwood is not None
    assert record.knocker_deadwood is not None
    knock_dw = record.knocker_deadwood
    seat = players.index(knocker)
    # seated order after the knocker settles a tie between the two opponents
    opponents = [players[(seat + 1) % 3], players[(seat + 2) % 3]]
    deadwood = {knocker: knock_dw, **record.deadwood}
    if record.result is Result.KNOCK:
        if knock_dw == 0:
            raise SheetError.one(number, "knocker_deadwood", "a knock with 0 deadwood is gin: record the result as gin")
        if knock_dw > terms.knock_limit:
            raise SheetError.one(number, "knocker_deadwood", knock_limit_message(conventions, as_two, terms))
    lowest = min(opponents, key=lambda p: deadwood[p])  # min keeps the first seated on a tie
    penalised, penalty = None, 0
    # Under the knocker tie rule an opponent level with the knocker does not undercut: the knocker
    # wins, and that opponent's difference adds 0.
    undercut_at = knock_dw - 1 if conventions.tie_rule is TieRule.KNOCKER else knock_dw
    if record.result is Result.KNOCK and deadwood[lowest] <= undercut_at:
        if deadwood[lowest] == knock_dw and conventions.tie_rule is TieRule.NO_SCORE:
            return ScoredHand(as_two, (knocker, lowest), Outcome.TIE, None, None, 0, 0, terms), None, 0
        winner, outcome = lowest, Outcome.UNDERCUT
        penalised, penalty = knocker, conventions.jersey_undercut_penalty * terms.multiplier
        extra_boxes = 1
    else:
        winner = knocker
        outcome = Outcome.KNOCK if record.result is Result.KNOCK else Outcome.GIN
        extra_boxes = 0 if record.result is Result.KNOCK else 2
    points = sum(deadwood[p] - deadwood[winner] for p in players if p != winner)
    if outcome is Outcome.GIN:
        points += conventions.jersey_gin_bonus
    boxes = 1 + (extra_boxes * terms.multiplier if conventions.oklahoma and conventions.oklahoma_extra_boxes else 0)
    scored = ScoredHand(as_two, (knocker, lowest), outcome, winner, None, points * terms.multiplier, boxes, terms)
    return scored, penalised, penalty


def jersey_knockers_pick(
    records: Sequence[JerseyRecord], *, players: tuple[str, ...], conventions: Conventions, number: int
) -> int:
    """Which of these spreads (the same hand spread differently by the knocker) is the knocker's best.

    The knocker's advantage is what the knocker scores, or when undercut the penalty plus what the
    undercutter scores, as a loss; a 0-point win (a tie to the knocker) beats a no-score tie. The
    first of equals is taken. A hand refused whatever the spread is left to the scoring to refuse.
    """

    def advantage(record: JerseyRecord) -> tuple[int, bool]:
        try:
            scored, _, penalty = score_jersey_hand(record, players=players, conventions=conventions, number=number)
        except SheetError:
            return 0, False
        if scored.winner == record.knocker:
            return scored.points, True
        return -penalty - scored.points, False

    values = [advantage(r) for r in records]
    return values.index(max(values))


def score_jersey(
    *, conventions: Conventions, players: tuple[str, str, str], first_dealer: str, hands: Sequence[JerseyRecord]
) -> ThreePlayerResult:
    """Jersey Gin: all three play; the deal passes to the next seat (a dead hand per the dead-hand rule)."""
    target = conventions.jersey_target
    tallies = {p: Tally() for p in players}
    dealer = first_dealer
    rows = []
    winner = None
    for number, record in enumerate(hands, start=1):
        if winner is not None:
            raise reject_after_complete(number, number - 1)
        scored, penalised, penalty = score_jersey_hand(record, players=players, conventions=conventions, number=number)
        if scored.winner is not None:
            tallies[scored.winner] = tallies[scored.winner].add(scored.points, scored.boxes)
        if penalised is not None:
            t = tallies[penalised]
            tallies[penalised] = Tally(t.points - penalty, t.hands_won, t.boxes)
        if scored.winner is not None and toward_target(conventions, tallies[scored.winner]) >= target:
            winner = scored.winner
        deadwood = None if record.deadwood is None else {record.knocker: record.knocker_deadwood, **record.deadwood}
        rows.append(
            ThreePlayerRow(
                SheetRow(number, dealer, scored, running_totals(conventions, tallies)),
                None,
                penalty,
                penalised,
                deadwood,  # type: ignore[arg-type]
            )
        )
        if scored.winner is not None or conventions.dead_hand_rule is DeadHandRule.PASS_DEAL:
            dealer = players[(players.index(dealer) + 1) % 3]
    standings = settle(conventions, tallies, winner=winner, hands_played=len(rows))
    return ThreePlayerResult(
        players=players,
        rows=tuple(rows),
        complete=winner is not None,
        winner=winner,
        next_dealer=None if winner else dealer,
        next_players=None if winner else players,
        standings=standings,
    )


# ---------------------------------------------------------------------------------------------------
# Partnerships: two teams of two, two tables a deal


@dataclass(frozen=True, slots=True)
class Deal:
    number: int
    tables: tuple[SheetRow, SheetRow]
    team_points: tuple[int, int]
    scoring_team: int | None
    boxes: int
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PartnershipResult:
    teams: tuple[tuple[str, str], tuple[str, str]]
    deals: tuple[Deal, ...]
    complete: bool
    winner: int | None
    next_dealers: tuple[str, str] | None
    standings: tuple[Standing, Standing]
    individual: Mapping[str, Tally]

    @property
    def margin(self) -> int | None:
        if self.winner is None:
            return None
        return self.standings[self.winner].total - self.standings[1 - self.winner].total


def table_players(teams: tuple[tuple[str, str], tuple[str, str]], deal: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """Who plays whom at the two tables of a deal (1-based): opponents alternate every deal."""
    (a1, a2), (b1, b2) = teams
    return ((a1, b1), (a2, b2)) if deal % 2 == 1 else ((a1, b2), (a2, b1))


def team_of(teams: tuple[tuple[str, str], tuple[str, str]], player: str) -> int:
    return 0 if player in teams[0] else 1


def score_partnership(
    *,
    conventions: Conventions,
    teams: tuple[tuple[str, str], tuple[str, str]],
    first_dealing_team: int,
    deals: Sequence[tuple[HandRecord, HandRecord]],
) -> PartnershipResult:
    """Score a partnership match: each deal is two two-player hands, aggregated by team.

    When only one team won at the deal's tables (one table or both), it scores what it won, even 0 (a
    tie under ``tie_rule: knocker`` is a win worth 0). Split: the side with more scores the difference
    (an even split scores nothing). The team that scored the deal takes its box (plus any Oklahoma
    extra boxes its players earned at their tables). The dealing team alternates every deal.
    """
    target = conventions.partnership_target
    team_tallies = {"0": Tally(), "1": Tally()}
    individual = {p: Tally() for team in teams for p in team}
    dealing = first_dealing_team
    out = []
    winner: int | None = None
    for number, pair in enumerate(deals, start=1):
        if winner is not None:
            raise reject_after_complete(number, number - 1)
        rows = []
        won = [0, 0]
        hands_won = [0, 0]
        extra_boxes = [0, 0]
        for table, (record, players) in enumerate(zip(pair, table_players(teams, number), strict=True)):
            dealer = players[0] if team_of(teams, players[0]) == dealing else players[1]
            try:
                scored = score_hand(record, players=players, conventions=conventions, number=number)
            except SheetError as exc:
                raise exc.at_hand(number, f"tables[{table}].") from None
            if scored.winner is not None:
                side = team_of(teams, scored.winner)
                won[side] += scored.points
                hands_won[side] += 1
                extra_boxes[side] += scored.boxes - 1
                individual[scored.winner] = individual[scored.winner].add(scored.points, scored.boxes)
            rows.append(SheetRow(number, dealer, scored, {}))
        team_points = (0, 0)
        scoring_team = None
        if hands_won[0] and hands_won[1]:  # a split: the larger side scores the difference
            if won[0] != won[1]:
                scoring_team = 0 if won[0] > won[1] else 1
        elif hands_won[0] or hands_won[1]:  # one team won every hand that was won (0 points still wins)
            scoring_team = 0 if hands_won[0] else 1
        if scoring_team is not None:
            amount = abs(won[0] - won[1])
            team_points = (amount, 0) if scoring_team == 0 else (0, amount)
        boxes = 0
        if scoring_team is not None:
            boxes = 1 + extra_boxes[scoring_team]
            key = str(scoring_team)
            team_tallies[key] = team_tallies[key].add(team_points[scoring_team], boxes)
            if toward_target(conventions, team_tallies[key]) >= target:
                winner = scoring_team
        totals = (toward_target(conventions, team_tallies["0"]), toward_target(conventions, team_tallies["1"]))
        out.append(Deal(number, (rows[0], rows[1]), team_points, scoring_team, boxes, totals))
        dealing = 1 - dealing
    settled = settle(conventions, team_tallies, winner=None if winner is None else str(winner), hands_played=len(out))
    next_dealers = None
    if winner is None:
        following = table_players(teams, len(out) + 1)
        next_dealers = tuple(p for table in following for p in table if team_of(teams, p) == dealing)
    return PartnershipResult(
        teams=teams,
        deals=tuple(out),
        complete=winner is not None,
        winner=winner,
        next_dealers=next_dealers,  # type: ignore[arg-type]
        standings=(settled["0"], settled["1"]),
        individual=individual,
    )


__all__ = [
    "HollywoodResult",
    "JerseyRecord",
    "PartnershipResult",
    "ThreePlayerResult",
    "score_hollywood",
    "score_jersey",
    "score_partnership",
    "score_rotation",
    "table_players",
]
