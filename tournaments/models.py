"""Stored tournaments: events, entries, rounds, matches, the games each match is played as, directors'
results, and the engine's answer kept per event and results version.

The database keeps the invariants, each constraint named: one entry per player per event, distinct
seeds, one round of each number, one match per entry per round, one live match per bracket id. A
match points at its ``scoring`` games (``MatchGame``); ``scoring`` never knows about events. Business
rules live in ``tournaments.services`` (writes) and ``tournaments.stored_event`` (what a match's games
decide); nothing here pairs, scores or ranks, and no ``save()`` or signal has side effects.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scoring.models import Game, Player


class Event(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        SINGLE_ELIMINATION = "single_elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"

    class MatchFormat(models.TextChoices):
        SINGLE_GAME = "single_game", "One game"
        BEST_OF_3 = "best_of_3", "Best of 3 games"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        COMPLETE = "complete", "Complete"
        CANCELLED = "cancelled", "Cancelled"

    class TimeRule(models.TextChoices):
        FINISH_HAND = "finish_hand", "the hand being played is finished, then the side ahead wins"
        DIRECTOR = "director", "the table waits for the director's result"

    class GrandFinal(models.TextChoices):
        RESET = "reset", "Reset (a second final if the losers' champion wins the first)"
        SINGLE = "single", "Single final"

    name = models.CharField(max_length=120)
    format = models.CharField(max_length=20, choices=Format.choices)
    # The full resolved convention set at creation, as a game freezes it: editing a preset later
    # never changes the games of this event.
    conventions = models.JSONField()
    match_format = models.CharField(max_length=20, choices=MatchFormat.choices, default=MatchFormat.SINGLE_GAME)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # Swiss: None means the engine's default
    tiebreaks = models.JSONField(default=list, blank=True)  # the resolved, ordered keys
    match_points = models.JSONField(default=dict, blank=True)  # win, draw, loss, bye: all four, resolved
    bye_margin = models.PositiveIntegerField(default=0)
    forfeit_margin = models.PositiveIntegerField(default=0)
    third_place = models.BooleanField(default=False)
    grand_final = models.CharField(max_length=10, choices=GrandFinal.choices, default=GrandFinal.RESET)
    is_public = models.BooleanField(default=True)
    # Round 1 pairs only the entries checked in (by a director, or by the player at the venue's QR code).
    check_in = models.BooleanField(default=False)
    # A round's time limit: its clock starts at this many minutes (None: no clock unless a director sets one).
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # At time: the hand being played is finished and the game ends (the side ahead wins), or the table
    # waits for a director's result. Frozen once round 1 is paired, like the other options.
    time_rule = models.CharField(max_length=12, choices=TimeRule.choices, default=TimeRule.FINISH_HAND)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_events")
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="refereed_events")
    seeded_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="knockouts"
    )
    # How the seeds were last set: {"method": "manual" | "rating" | "random", "order": [entry ids], "at": iso}.
    seeding = models.JSONField(default=dict, blank=True)
    # Bumped by every tournaments write under the event's row lock: part of the results fingerprint.
    revision = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="events_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A cancelled event is kept (its officials and organisers still read it) and nothing is recorded in it.
    cancel_reason = models.TextField(blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The prize list its directors type: [{"place": 1, "prize": "50 € voucher"}], places ascending, each at most
    # once (``services.prizes`` reads it); shown beside the final standings, the engine's order deciding ties.
    prizes = models.JSONField(default=list, blank=True)
    # Players sign up themselves (``services.registrations``) while registration is open and before it closes;
    # past the cap they are waitlisted in order (or refused without a waitlist). A private event's sign-up
    # page answers only with its key (a link its directors copy from the event page).
    registration_open = models.BooleanField(default=False)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    registration_cap = models.PositiveIntegerField(null=True, blank=True)
    waitlist = models.BooleanField(default=False)
    registration_key = models.CharField(max_length=32, blank=True, default="")
    # Swiss: how many rounds each entry may ask to sit out (``services.pairing_requests``), scored
    # ``match_points.requested_bye``. Same club counts as a pair to avoid through this round (0: never).
    max_requested_byes = models.PositiveSmallIntegerField(default=1)
    avoid_same_club_rounds = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=["round_robin", "swiss", "single_elimination", "double_elimination"]),
                name="event_format_known",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["registration", "running", "complete", "cancelled"]),
                name="event_status_known",
            ),
            models.CheckConstraint(
                condition=~Q(status="cancelled") | (~Q(cancel_reason="") & Q(cancelled_at__isnull=False)),
                name="event_cancelled_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(match_format__in=["single_game", "best_of_3"]), name="event_match_format_known"
            ),
            models.CheckConstraint(condition=Q(time_rule__in=["finish_hand", "director"]),
                                   name="event_time_rule_known"),
            models.CheckConstraint(
                condition=Q(rounds__isnull=True) | (Q(format="swiss") & Q(rounds__gte=1)),
                name="event_rounds_only_for_swiss",
            ),
            models.CheckConstraint(
                condition=Q(third_place=False) | Q(format="single_elimination"),
                name="event_third_place_only_single_elimination",
            ),
            models.CheckConstraint(condition=Q(registration_cap__isnull=True) | Q(registration_cap__gte=2),
                                   name="event_registration_cap_at_least_two"),
        ]
        indexes = [models.Index(fields=["is_public", "-created_at"], name="event_public_recent")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_elimination(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)

    @property
    def games_per_match(self) -> int:
        return 3 if self.match_format == self.MatchFormat.BEST_OF_3 else 1


class Entry(models.Model):
    class CheckIn(models.TextChoices):
        DIRECTOR = "director", "by a director"
        VENUE_QR = "venue_qr", "at the venue's QR code"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="event_entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    # A late Swiss entry is paired from this round on, with nothing owed (0 match points) before it.
    joined_round = models.PositiveSmallIntegerField(default=1)
    # The last round it played (0: withdrew before round 1); None while it is still in.
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    drop_reason = models.TextField(blank=True)
    # Set when the player is checked in before round 1 (an event with ``check_in``), by whom: a director
    # or the player at the venue's QR code.
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_how = models.CharField(max_length=10, choices=CheckIn.choices, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_one_per_player_per_event"),
            models.UniqueConstraint(fields=["event", "seed"], name="entry_distinct_seeds"),
            models.CheckConstraint(condition=Q(seed__isnull=True) | Q(seed__gte=1), name="entry_seed_positive"),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="entry_joined_round_positive"),
            models.CheckConstraint(
                condition=(Q(checked_in_at__isnull=True) & Q(checked_in_how=""))
                | (Q(checked_in_at__isnull=False) & Q(checked_in_how__in=["director", "venue_qr"])),
                name="entry_checked_in_says_how",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class Registration(models.Model):
    """A player's own sign-up to an event (``services.registrations``): entered (with its entry), waitlisted
    (its place in the queue is its order among the waitlisted), or withdrawn. Its manage link's token is the
    only credential the player holds: only its digest is kept."""

    class Status(models.TextChoices):
        ENTERED = "entered", "Entered"
        WAITLISTED = "waitlisted", "Waitlisted"
        WITHDRAWN = "withdrawn", "Withdrawn"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    entry = models.OneToOneField(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="registration")
    email = models.EmailField(max_length=254)
    status = models.CharField(max_length=12, choices=Status.choices)
    token_digest = models.CharField(max_length=64, unique=True)
    address = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="registration_one_per_player_per_event"),
            models.CheckConstraint(condition=Q(status__in=["entered", "waitlisted", "withdrawn"]),
                                   name="registration_status_known"),
            models.CheckConstraint(condition=~Q(status="entered") | Q(entry__isnull=False),
                                   name="registration_entered_has_its_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.player} for {self.event} ({self.status})"


class RequestedBye(models.Model):
    """A Swiss round an entry asked to sit out (the player by their own link, or a director), before it was
    paired: the entry is not paired in it and scores ``match_points.requested_bye``."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="requested_byes")
    round = models.PositiveSmallIntegerField()
    by_player = models.BooleanField(default=False)  # asked by the player's own link (else by a director)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "round"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "round"], name="requested_bye_once_per_entry_per_round"),
            models.CheckConstraint(condition=Q(round__gte=1), name="requested_bye_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} sits out round {self.round}"


class AvoidPair(models.Model):
    """Two entries of an event not to pair: ``never`` holds like "no rematch"; ``avoid`` gives way only to
    score. Stored with the lower entry id first, so a pair is kept once."""

    class Strength(models.TextChoices):
        NEVER = "never", "Never"
        AVOID = "avoid", "Avoid"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="avoid_pairs")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    strength = models.CharField(max_length=5, choices=Strength.choices)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "first", "second"], name="avoid_pair_once_per_event"),
            models.CheckConstraint(condition=Q(first__lt=models.F("second")), name="avoid_pair_lower_entry_first"),
            models.CheckConstraint(condition=Q(strength__in=["never", "avoid"]), name="avoid_pair_strength_known"),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second} ({self.strength})"


class Round(models.Model):
    """A Swiss or round robin round. Drafted (swaps allowed, no games yet), published (games and
    referee links made), closed (every match decided)."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # The results the pairing was made from: their fingerprint, and each match's result then
    # ({match id: [winner entry id or None, margin]}), to name what changed since.
    paired_from_key = models.CharField(max_length=64)
    paired_from = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # The round's clock (``tournaments.engine.clock``): while it runs, when the time is up; while it is paused, the
    # seconds left; neither before it starts.
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_left_seconds = models.PositiveIntegerField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_one_per_number_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(status__in=["draft", "published", "closed"]), name="round_status_known"),
            models.CheckConstraint(condition=Q(clock_ends_at__isnull=True) | Q(clock_left_seconds__isnull=True),
                                   name="round_clock_runs_or_is_paused"),
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


class Match(models.Model):
    """A pairing in a round, a bye (one player, no game, no table) or a bracket match (``bracket_id``).

    A bracket match that was reset (its players changed after a correction) is kept, marked, and a new
    match with the same id is opened; only one live match per id exists.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="matches")
    bracket_id = models.CharField(max_length=10, blank=True)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    is_bye = models.BooleanField(default=False)
    # The results it was opened from (bracket: {source match id: winner entry id}), for warnings.
    opened_from = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    reset_at = models.DateTimeField(null=True, blank=True)
    reset_reason = models.TextField(blank=True)
    # When its table card was last printed: a sheet (or an API answer) showed its games' new link tokens,
    # which exist only then. None: no card printed (a bracket match that opened by itself, a bye).
    card_printed_at = models.DateTimeField(null=True, blank=True)
    # A director's extra time for this table alone, on top of its round's clock.
    extra_seconds = models.PositiveIntegerField(default=0)
    # A bracket match's own clock (it has no round): as a round's (``Round.clock_ends_at``).
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_left_seconds = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(condition=Q(clock_ends_at__isnull=True) | Q(clock_left_seconds__isnull=True),
                                   name="match_clock_runs_or_is_paused"),
            models.CheckConstraint(
                condition=(Q(round__isnull=False) & Q(bracket_id="")) | (Q(round__isnull=True) & ~Q(bracket_id="")),
                name="match_in_a_round_or_the_bracket",
            ),
            models.UniqueConstraint(
                fields=["event", "bracket_id"], condition=~Q(bracket_id="") & Q(reset_at__isnull=True),
                name="match_one_live_per_bracket_id",
            ),
            models.UniqueConstraint(
                fields=["round", "table"], condition=Q(table__isnull=False), name="match_one_per_table_per_round"
            ),
            models.CheckConstraint(condition=Q(is_bye=False) | Q(table__isnull=True), name="match_bye_has_no_table"),
            models.CheckConstraint(condition=Q(is_bye=False) | Q(card_printed_at__isnull=True),
                                   name="match_bye_has_no_table_card"),
        ]

    def __str__(self) -> str:
        where = self.bracket_id or (f"round {self.round.number}" if self.round_id else "")
        return f"{self.event} {where} table {self.table}"


class MatchPlayer(models.Model):
    """One side of a match. ``round`` repeats the match's round so the database can hold each entry to
    one match per round (bracket matches have none: an entry plays many of them)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="match_places")
    side = models.PositiveSmallIntegerField()  # 0: first (the better placed when paired), 1: second

    class Meta:
        ordering = ["match", "side"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="match_one_per_entry_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="match_player_one_per_side"),
            models.UniqueConstraint(fields=["match", "entry"], name="match_player_not_against_self"),
            models.CheckConstraint(condition=Q(side__in=[0, 1]), name="match_player_side_0_or_1"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} in {self.match}"


class MatchGame(models.Model):
    """A game a match is played as: game 1 (and 2, 3 in a best-of-3 match)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_games")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_one_per_number"),
            models.CheckConstraint(condition=Q(number__gte=1) & Q(number__lte=3), name="match_game_number_1_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number}"


class MatchResult(models.Model):
    """A director's result for a match, kept as history: the latest row counts, none is rewritten.

    ``forfeit``: the winner advances with the event's forfeit margin; ``adjusted``: winner (None: a
    draw, Swiss and round robin only) and margin set by hand; ``cleared``: back to the games' result.
    """

    class Kind(models.TextChoices):
        FORFEIT = "forfeit", "Forfeit"
        ADJUSTED = "adjusted", "Adjusted result"
        CLEARED = "cleared", "Back to the games' result"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    margin = models.PositiveIntegerField(null=True, blank=True)
    reason = models.TextField()
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "entered_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["forfeit", "adjusted", "cleared"]),
                                   name="match_result_kind_known"),
            models.CheckConstraint(condition=~Q(kind="forfeit") | Q(winner__isnull=False),
                                   name="match_result_forfeit_has_winner"),
            models.CheckConstraint(condition=~Q(kind="cleared") | (Q(winner__isnull=True) & Q(margin__isnull=True)),
                                   name="match_result_cleared_has_no_result"),
            models.CheckConstraint(condition=~Q(kind="adjusted") | Q(margin__isnull=False),
                                   name="match_result_adjusted_has_margin"),
            models.CheckConstraint(condition=Q(winner__isnull=False) | Q(margin__isnull=True) | Q(margin=0),
                                   name="match_result_draw_has_no_margin"),
            models.CheckConstraint(condition=~Q(reason=""), name="match_result_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} in {self.match}"


class WarningAcknowledgement(models.Model):
    """A director's (or organiser's) acknowledgement of one of the event's warnings, kept as its history.

    ``key`` is the warning's stable key (``tournaments.answers.warnings.warning_key``: its kind, the round and
    match it names, and a digest of what it says), so the same warning with new content needs a new one.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="acknowledgements")
    key = models.CharField(max_length=100)
    message = models.TextField()
    note = models.TextField(blank=True)
    acknowledged_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                        related_name="+")
    acknowledged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "acknowledged_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="warning_acknowledged_once_per_event"),
            models.CheckConstraint(condition=~Q(key=""), name="warning_acknowledgement_has_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} acknowledged in {self.event}"


class EventAnswer(models.Model):
    """The engine's answer for an event, kept with the fingerprint of the results it was computed from.

    ``view`` is ``live`` or ``round-N`` (standings as of round N). Readers recompute it when the
    fingerprint differs; a stale write is harmless (the next reader sees a different fingerprint).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="answers")
    view = models.CharField(max_length=20)
    key = models.CharField(max_length=100)
    answer = models.JSONField(default=dict)
    warnings = models.JSONField(default=list)
    # The answer's standings as JSON text, and gzipped, written once with it: the standings API sends
    # one of them as it is, with neither a decode nor an encode (nor a compression) per request.
    standings_json = models.TextField(default="[]")
    standings_gzip = models.BinaryField(default=b"")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "view"], name="event_answer_one_per_view")]

    def __str__(self) -> str:
        return f"{self.event} answer ({self.view})"


class ResultChange(models.Model):
    """A game of the event settled, or its settled result changed (``scoring``'s ``game_result_changed``).

    Rows are only ever added, in the transaction of the hand write that changed the result, and the
    highest id is part of the event's results fingerprint: a reader compares one indexed number instead
    of counting the event's hands. The foreign key has no database constraint on purpose: inserting a
    row must not lock the event row, which a director's transaction may hold while it waits for the
    very game row this hand write has locked.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, db_constraint=False, related_name="+")
    game_id = models.BigIntegerField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["event", "-id"], name="result_change_event_latest")]

    def __str__(self) -> str:
        return f"game {self.game_id} of {self.event_id} changed"
