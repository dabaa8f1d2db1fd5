"""Stored players, games, hands (append-only versions), referee links and API tokens.

The database keeps the invariants itself, each constraint with an explicit name: one current version
per hand number, hand numbers positive and without gaps (every hand after the first points at the
slot of the hand before it), a confirmation always says who confirmed. Business rules live in
``scoring.services``; nothing here scores, and no ``save()`` or signal has side effects.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Cast, Concat, Lower
from django.utils import timezone

from .engine import FORMATS


def token_digest(token: str) -> str:
    """What is stored of a secret token (API tokens, referee links): its SHA-256. The tokens are 256
    random bits, so a plain digest cannot be reversed or guessed; the token itself is shown once."""
    return hashlib.sha256(token.encode()).hexdigest()


def slot_key(game_id: int, number: int) -> str:
    """The text key of a hand number within a game, as the database computes it in the constraints."""
    return f"{game_id}:{number}"


def settled_result_of(status: str, summary: dict | None) -> tuple[str, int] | None:
    """``Game.settled_result`` from a game's stored status and summary, for readers that load those two
    columns alone (a tournament's results, thousands of games at once)."""
    summary = summary or {}
    if status != "complete" or not summary.get("complete") or summary.get("pending_hands"):
        return None
    winner = summary.get("winner")
    if winner is None:
        return None
    return str(winner), int(summary.get("margin") or 0)


class LivePlayers(models.Manager):
    """``Player.objects``: the players that are still themselves. A duplicate merged into another player
    (``merged_into``) is kept as an alias row, for the hands that name it as their confirmer, and is
    left out of every list, search, form and lookup; ``Player.everyone`` holds both."""

    def get_queryset(self):
        return super().get_queryset().filter(merged_into__isnull=True)


class Player(models.Model):
    display_name = models.CharField(max_length=60)
    email = models.EmailField(blank=True)
    club = models.CharField(max_length=80, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    # The club's own rating of the player, when it keeps one: an event entering the player starts from it
    # (seeding by rating); an event's entry keeps its own copy, so changing it later changes no event.
    rating = models.IntegerField(null=True, blank=True)
    # A short PIN the player types to accept a hand on the referee's phone; stored hashed.
    confirm_pin = models.CharField(max_length=128, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set once, when an organiser merges this duplicate into the player it really is
    # (``scoring.services.merges``): everything it had is that player's now; this row stays as an alias.
    merged_into = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="aliases")
    merged_at = models.DateTimeField(null=True, blank=True)

    everyone = models.Manager()
    objects = LivePlayers()

    class Meta:
        ordering = ["display_name", "id"]
        default_manager_name = "objects"  # the live players; ``everyone`` (aliases too) reaches related rows
        base_manager_name = "everyone"
        constraints = [
            # "Gail" and "gail" would be two players no referee can tell apart (a merged alias is no one).
            models.UniqueConstraint(Lower("display_name"), "club", condition=Q(merged_into__isnull=True),
                                    name="player_unique_live_name_per_club_any_case"),
            models.CheckConstraint(condition=~Q(display_name=""), name="player_name_not_empty"),
            models.CheckConstraint(condition=~Q(merged_into=F("pk")), name="player_not_merged_into_itself"),
            models.CheckConstraint(condition=Q(merged_into__isnull=True, merged_at__isnull=True)
                                   | Q(merged_into__isnull=False, merged_at__isnull=False),
                                   name="player_merged_with_its_time"),
        ]

    def __str__(self) -> str:
        return self.display_name


class Game(models.Model):
    class Format(models.TextChoices):
        STANDARD = "standard", "Standard"
        HOLLYWOOD = "hollywood", "Hollywood"
        ROTATION = "rotation", "Three-player rotation"
        JERSEY = "jersey", "Jersey Gin"
        PARTNERSHIP = "partnership", "Partnership (four players)"

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        COMPLETE = "complete", "Complete"
        ABANDONED = "abandoned", "Abandoned"

    format = models.CharField(max_length=20, choices=Format.choices, default=Format.STANDARD)
    # The full resolved convention set at creation: editing a preset later never changes this game.
    conventions = models.JSONField()
    # The names the hands refer to, in sheet order, as they were at creation: renaming a player later
    # must not change (or break) a recorded game, whose hands name knockers by these names.
    player_names = models.JSONField(default=list)
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    first_dealer_name = models.CharField(max_length=60)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    table_label = models.CharField(max_length=40, blank=True)
    is_public = models.BooleanField(default=True)
    requires_confirmation = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="games_created"
    )
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="refereed_games")
    hand_count = models.PositiveIntegerField(default=0)
    # Where the game comes from when another app made it (a tournament's match), in that app's words:
    # what it is part of and that page (an event), and the page of the match it is played for. The
    # sheet links back to them and the games list tells club games from tournament tables by them;
    # scoring itself never needs to know what an event is. All blank for a club game.
    origin_label = models.CharField(max_length=120, blank=True)
    origin_url = models.CharField(max_length=200, blank=True)
    origin_match_url = models.CharField(max_length=200, blank=True)
    # Why a frozen (abandoned) game stopped, in the words of the app that froze it ("Settled by the
    # director"): shown instead of "Abandoned". Blank when an organiser abandoned it; cleared on reopening.
    frozen_as = models.CharField(max_length=80, blank=True)
    # Time called on the game (a tournament round's time limit, told by the app that times it): the hand
    # being played then, which the game ends after (``scoring.engine.time_limit``; 0: no hand was in play),
    # and what a level score is ("draw", or "play_on" until one side leads).
    time_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    time_level = models.CharField(max_length=10, blank=True)
    time_called_at = models.DateTimeField(null=True, blank=True)
    # Time called between hands ("end the game at time now": no hand in play, the last one accepted before
    # time): the game ends after ``time_hand``, the last hand recorded, which was not being played at time.
    time_between_hands = models.BooleanField(default=False)
    # What lists show without loading hands: the engine's totals, winner and margin after the last write.
    summary = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When what a scoreboard shows last moved (the counted totals, the winner, the status), unlike
    # ``updated_at``, which every hand written moves: live pages of many tables are versioned by it.
    scores_changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(format__in=FORMATS), name="game_format_known"),
            models.CheckConstraint(
                condition=Q(status__in=["in_progress", "complete", "abandoned"]), name="game_status_known"
            ),
            models.CheckConstraint(
                condition=(Q(origin_label="") & Q(origin_url="") & Q(origin_match_url=""))
                | (~Q(origin_label="") & ~Q(origin_url="")),
                name="game_origin_named_with_its_page",
            ),
            models.CheckConstraint(
                condition=(Q(time_hand__isnull=True) & Q(time_level="") & Q(time_called_at__isnull=True))
                | (Q(time_hand__isnull=False) & Q(time_level__in=["draw", "play_on"])
                   & Q(time_called_at__isnull=False)),
                name="game_time_called_with_its_rule",
            ),
            models.CheckConstraint(condition=Q(time_between_hands=False) | Q(time_hand__isnull=False),
                                   name="game_time_between_hands_only_when_called"),
            models.CheckConstraint(condition=Q(frozen_as="") | Q(status="abandoned"),
                                   name="game_frozen_as_only_when_frozen"),
        ]
        indexes = [models.Index(fields=["status", "-created_at"], name="game_status_recent")]

    def __str__(self) -> str:
        label = f" ({self.table_label})" if self.table_label else ""
        return f"Game {self.pk}{label}"

    @property
    def settled_result(self) -> tuple[str, int] | None:
        """(winner, margin) once the game is complete with every hand confirmed; None before, and while it is
        abandoned. What another app may build on (a tournament match's result); it changes only through
        ``scoring.services``, which send ``signals.game_result_changed`` when it does."""
        return settled_result_of(self.status, self.summary)

    def time_called_words(self) -> str:
        """When time was called, in words: "during hand 3", "between hands, after hand 2", "before any hand"."""
        if not self.time_between_hands:
            return f"during hand {self.time_hand}" if self.time_hand else "before any hand"
        return f"between hands, after hand {self.time_hand}" if self.time_hand else "before any hand was played"

    @property
    def status_words(self) -> str:
        """The status as pages name it: "In progress", "Complete", "Abandoned", or what froze it
        ("Settled by the director") when the app that froze it said so."""
        if self.status == self.Status.ABANDONED and self.frozen_as:
            return self.frozen_as
        return self.get_status_display()

    @property
    def players_title(self) -> str:
        """The players as the table names them: "Ann v Bob", a partnership by teams "Ann & Cleo v Bob & Dev"."""
        names = list(self.player_names)
        if self.format == self.Format.PARTNERSHIP:
            return " v ".join(" & ".join(team) for team in (names[:2], names[2:]))
        return " v ".join(names)


class Seat(models.Model):
    """A player's place in a game: the order of the score sheet's players (partnerships: team by team)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_once_per_game"),
            models.CheckConstraint(condition=Q(team__isnull=True) | Q(team__in=[0, 1]), name="seat_team_0_or_1"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}"


class RefereeLink(models.Model):
    """A per-game link for a referee without an account. Only the token's digest is stored: the token
    (256 random bits) is shown once, when the link is made. A link works until it is revoked or expires."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="referee_links")
    token_digest = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=60, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(token_digest__regex=r"^[0-9a-f]{64}$"), name="referee_link_digest_sha256"
            ),
        ]

    def __str__(self) -> str:
        return f"Referee link {self.label or self.pk} for {self.game}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()


class ApiToken(models.Model):
    """An API token (``Authorization: Token <key>``): only its digest is stored; the key is shown once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(digest__regex=r"^[0-9a-f]{64}$"), name="api_token_digest_sha256"),
        ]

    def __str__(self) -> str:
        return f"API token of {self.user} ({self.created_at:%Y-%m-%d})"


class Hand(models.Model):
    """One version of one hand: an entry, a correction or a void. Rows are added, never rewritten;
    only ``is_current`` and the confirmation stamp change after insert."""

    class Action(models.TextChoices):
        ENTRY = "entry", "Entry"
        CORRECTION = "correction", "Correction"
        VOID = "void", "Void"

    # Every hand is inserted on a table's path, so it keeps only the indexes reads use: its game's hands
    # are found through the (game, number, version) constraint's index, and nothing looks hands up by who
    # entered or confirmed them (deleting such a user, link or player is refused and rare: a scan then).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)
    action = models.CharField(max_length=12, choices=Action.choices, default=Action.ENTRY)
    # The hand exactly as in the score-sheet contract (counts or cards); empty for a void.
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    is_current = models.BooleanField(default=True)
    # Entry versions carry the hand number's slot and point at the previous slot: no gaps, by the database.
    slot = models.CharField(max_length=40, unique=True, null=True, blank=True, editable=False)
    previous_slot = models.OneToOneField(
        "self", to_field="slot", null=True, blank=True, on_delete=models.PROTECT, related_name="next_slot",
        editable=False,
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="hands_entered",
        db_index=False,
    )
    entered_via = models.ForeignKey(
        RefereeLink, null=True, blank=True, on_delete=models.PROTECT, related_name="hands_entered",
        db_index=False,
    )
    entered_from = models.CharField(max_length=300, blank=True)
    entered_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="hands_confirmed",
        db_index=False,
    )
    confirmed_by_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="hands_confirmed",
        db_index=False,
    )
    confirmed_via = models.ForeignKey(
        RefereeLink, null=True, blank=True, on_delete=models.PROTECT, related_name="hands_confirmed",
        db_index=False,
    )
    auto_confirmed = models.BooleanField(default=False)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # The id the table's phone made for the hand as it was recorded there (its outbox's, sent as the
    # ``Idempotency-Key``): a copy sent again, a day or a week later, finds the hand and records nothing.
    # Entries only; NULL (never a shared empty string) for a hand recorded otherwise, as ``slot``.
    phone_id = models.CharField(max_length=64, null=True, blank=True, editable=False)  # noqa: DJ001

    class Meta:
        ordering = ["game", "number", "version"]
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(condition=Q(version__gte=1), name="hand_version_positive"),
            models.UniqueConstraint(fields=["game", "number", "version"], name="hand_unique_version"),
            models.UniqueConstraint(fields=["game", "phone_id"], condition=Q(phone_id__isnull=False),
                                    name="hand_phone_id_once_per_game"),
            models.CheckConstraint(condition=Q(phone_id__isnull=True) | Q(version=1),
                                   name="hand_phone_id_only_on_the_entry"),
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(is_current=True), name="hand_one_current_version_per_number"
            ),
            models.CheckConstraint(
                condition=(Q(version=1) & Q(action="entry")) | (Q(version__gt=1) & ~Q(action="entry")),
                name="hand_first_version_is_the_entry",
            ),
            models.CheckConstraint(
                condition=(Q(version=1) & Q(slot=Concat(Cast("game_id", models.CharField()), Value(":"),
                                                        Cast("number", models.CharField()))))
                | (Q(version__gt=1) & Q(slot__isnull=True)),
                name="hand_entry_slot_is_game_and_number",
            ),
            models.CheckConstraint(
                condition=(Q(version__gt=1) & Q(previous_slot__isnull=True))
                | (Q(version=1) & Q(number=1) & Q(previous_slot__isnull=True))
                | (
                    Q(version=1)
                    & Q(number__gt=1)
                    & Q(previous_slot=Concat(Cast("game_id", models.CharField()), Value(":"),
                                             Cast(F("number") - 1, models.CharField())))
                ),
                name="hand_numbers_without_gaps",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_at__isnull=True)
                | Q(confirmed_by__isnull=False)
                | Q(confirmed_by_player__isnull=False)
                | Q(confirmed_via__isnull=False)
                | Q(auto_confirmed=True),
                name="hand_confirmation_names_the_confirmer",
            ),
            models.CheckConstraint(
                condition=Q(entered_by__isnull=False) | Q(entered_via__isnull=False),
                name="hand_entry_names_the_enterer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number} v{self.version} ({self.action})"

    @property
    def is_confirmed(self) -> bool:
        return self.confirmed_at is not None


class GameStatusChange(models.Model):
    """Why a game was abandoned or reopened, by whom and when: the organiser's decisions, kept."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="status_changes")
    status = models.CharField(max_length=20, choices=Game.Status.choices)
    reason = models.TextField(blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.game} {self.status} ({self.reason})"


class PinFailure(models.Model):
    """One wrong PIN typed for a player. Counted across every worker and machine to lock the PIN out."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pin_failures")
    failed_at = models.DateTimeField(auto_now_add=True)
    actor = models.CharField(max_length=80)
    address = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["player", "-failed_at"]
        indexes = [models.Index(fields=["player", "-failed_at"], name="pin_failure_recent")]

    def __str__(self) -> str:
        return f"wrong PIN for {self.player} at {self.failed_at:%Y-%m-%d %H:%M:%S}"
