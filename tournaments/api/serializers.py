"""Shapes of the stored-event API (EVENTS.md "Stored tournaments"): parse input into typed values for
one service call, and describe what the selectors answer. No rules here: the services decide what is
allowed, the engine what an event's standings and pairings are.
"""

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.reading import MAX_ID
from scoring.api.fields import IdField, WholeNumberField
from scoring.models import Player
from tournaments.engine.records import MAX_ENTRIES
from tournaments.models import Event

MAX_TEXT = 400_000
MAX_STORED = 2**31 - 1  # seeds, ratings, margins: the database's integer columns
MAX_ROUND = 32767


def _users(*, required: bool = False):
    extra = {} if required else {"default": list}
    return serializers.ListField(
        child=IdField(queryset=get_user_model().objects.all()), required=required, help_text="user ids", **extra,
    )


class EventCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=Event.Format.choices)
    conventions = serializers.JSONField(default="classic", help_text='a preset name or {"preset": ..., overrides} '
                                                                     "(SCORESHEET.md), frozen at creation")
    match_format = serializers.ChoiceField(choices=Event.MatchFormat.choices, default=Event.MatchFormat.SINGLE_GAME,
                                           help_text="one game to the target, or best of 3 (margin: the net)")
    rounds = WholeNumberField(required=False, allow_null=True, default=None,
                                      help_text="Swiss only; empty: the least r with 2^r >= entries")
    tiebreaks = serializers.ListField(child=serializers.CharField(), required=False, allow_null=True, default=None)
    match_points = serializers.DictField(child=WholeNumberField(), required=False, allow_null=True,
                                         default=None, help_text="any of win, draw, loss, bye")
    bye_margin = WholeNumberField(default=0)
    forfeit_margin = WholeNumberField(default=0)
    third_place = serializers.BooleanField(default=False)
    grand_final = serializers.ChoiceField(choices=Event.GrandFinal.choices, default=Event.GrandFinal.RESET)
    is_public = serializers.BooleanField(default=True)
    check_in = serializers.BooleanField(default=False, help_text="round 1 pairs only the entries checked in")
    round_minutes = WholeNumberField(required=False, allow_null=True, default=None, min_value=1, max_value=600,
                                     help_text="a round's time limit: its clock starts at this (null: none)")
    time_rule = serializers.ChoiceField(choices=Event.TimeRule.choices, default=Event.TimeRule.FINISH_HAND,
                                        help_text="at time: finish_hand (the hand being played is finished, then "
                                                  "the side ahead wins by the difference; level: a draw) or "
                                                  "director (the table waits for a director's result)")
    registration_open = serializers.BooleanField(default=False, help_text="players may sign up themselves")
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True, default=None,
                                                       help_text="sign-ups close then (null: when round 1 is paired)")
    registration_cap = WholeNumberField(required=False, allow_null=True, default=None, min_value=2, max_value=4096,
                                        help_text="entries at most (null: no cap)")
    waitlist = serializers.BooleanField(default=False, help_text="past the cap, sign-ups wait in order")
    max_requested_byes = WholeNumberField(default=1, min_value=0, max_value=20,
                                          help_text="Swiss: the rounds each player may ask to sit out")
    avoid_same_club_rounds = WholeNumberField(default=0, min_value=0, max_value=100,
                                              help_text="same club counts as a pair to avoid through this round "
                                                        "(0: never; a bracket: its round 1)")
    directors = _users()
    referees = _users()


class PrizeSerializer(serializers.Serializer):
    place = serializers.IntegerField(min_value=1, help_text="the place in the final standings, from 1")
    prize = serializers.CharField(max_length=120, help_text="what it wins, as typed")


@extend_schema_field(PrizeSerializer(many=True))
class PrizesField(serializers.JSONField):
    """The prize list as sent: ``services.read_prizes`` checks it, naming ``prizes.N.place`` and the like."""


class EventUpdateSerializer(serializers.Serializer):
    """What PATCH changes; a field left out stays. Name, public, prizes and a Swiss's rounds (never below those
    paired) at any time; the other options only before round 1 is paired."""

    name = serializers.CharField(max_length=120, required=False)
    is_public = serializers.BooleanField(required=False)
    rounds = WholeNumberField(required=False, allow_null=True, min_value=1, max_value=MAX_ROUND,
                              help_text="Swiss only; at least the rounds already paired")
    match_format = serializers.ChoiceField(choices=Event.MatchFormat.choices, required=False)
    tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
    match_points = serializers.DictField(child=WholeNumberField(), required=False,
                                         help_text="any of win, draw, loss, bye")
    bye_margin = WholeNumberField(required=False)
    forfeit_margin = WholeNumberField(required=False)
    third_place = serializers.BooleanField(required=False)
    grand_final = serializers.ChoiceField(choices=Event.GrandFinal.choices, required=False)
    check_in = serializers.BooleanField(required=False, help_text="round 1 pairs only the entries checked in")
    round_minutes = WholeNumberField(required=False, allow_null=True, min_value=1, max_value=600,
                                     help_text="a round's time limit: its clock starts at this (null: none; "
                                               "before round 1 only)")
    time_rule = serializers.ChoiceField(choices=Event.TimeRule.choices, required=False,
                                        help_text="what happens at time (before round 1 only)")
    prizes = PrizesField(required=False, help_text="any time: the whole prize list (at most 64, a place once "
                                                   "each), shown beside the final standings; [] clears it")
    registration_open = serializers.BooleanField(required=False, help_text="any time: players may sign up")
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True,
                                                       help_text="any time: when sign-ups close (null: never)")
    registration_cap = WholeNumberField(required=False, allow_null=True, min_value=2, max_value=4096,
                                        help_text="any time: entries at most (null: no cap); raised, the queue "
                                                  "moves in")
    waitlist = serializers.BooleanField(required=False, help_text="any time: past the cap, sign-ups wait in order")
    max_requested_byes = WholeNumberField(required=False, min_value=0, max_value=20,
                                          help_text="any time: the rounds each player may ask to sit out (Swiss)")
    avoid_same_club_rounds = WholeNumberField(required=False, min_value=0, max_value=100,
                                              help_text="same club counts as a pair to avoid through this round "
                                                        "(0: never); a bracket's only before it starts")


class EventSerializer(serializers.ModelSerializer):
    directors = serializers.SerializerMethodField()
    referees = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", default=None, allow_null=True)
    entry_count = serializers.IntegerField(required=False, help_text="in lists")
    url = serializers.HyperlinkedIdentityField(view_name="tournaments-api:event-detail")
    seeded_from = serializers.SerializerMethodField(
        help_text="the event this one was seeded from (a knockout's first stage); null when there is none or "
                  "when this caller may not read it")
    prizes = PrizesField(read_only=True, help_text="the prize list, by place: shown beside the final standings, "
                                                   "the engine's order deciding a shared place")
    seeding = serializers.SerializerMethodField(
        help_text="how the entries were seeded: method, order (entry ids), at; a knockout's source_event is null "
                  "(and its order left out) for a caller who may not read that event")

    class Meta:
        model = Event
        fields = ["id", "url", "name", "format", "status", "conventions", "match_format", "rounds", "tiebreaks",
                  "match_points", "bye_margin", "forfeit_margin", "third_place", "grand_final", "is_public",
                  "check_in", "round_minutes", "time_rule", "prizes", "registration_open", "registration_closes_at",
                  "registration_cap", "waitlist", "max_requested_byes", "avoid_same_club_rounds", "directors",
                  "referees", "seeded_from", "seeding", "entry_count",
                  "created_by", "created_at"]

    def get_seeded_from(self, event) -> int | None:
        return event.seeded_from_id if _source_shown(event) else None

    def get_seeding(self, event) -> dict:
        seeding = dict(event.seeding or {})
        if seeding.get("source_event") is not None and not _source_shown(event):
            seeding["source_event"] = None
            seeding.pop("order", None)  # the source event's entry ids
        return seeding

    def get_directors(self, event) -> list[str]:
        return [u.get_username() for u in event.directors.all()]

    def get_referees(self, event) -> list[str]:
        return [u.get_username() for u in event.referees.all()]


def _source_shown(event) -> bool:
    """Whether the reader may read the event ``event`` was seeded from (``selectors`` annotates it)."""
    return bool(getattr(event, "source_readable", False))


class EventDetailSerializer(EventSerializer):
    answer = serializers.DictField(help_text="the engine's answer for the stored results (EVENTS.md), each "
                                             "standings row with its entry id")
    warnings = serializers.ListField(child=serializers.DictField(), help_text="pairings or bracket matches made "
                                     "from results that have since changed; nothing is re-paired silently. Each: "
                                     "kind, message, round, match, key (to acknowledge it) and acknowledged (by, "
                                     "at, note; or null). An acknowledged warning is listed to officials only")
    cancelled = serializers.DictField(allow_null=True, help_text="a cancelled event's at, by and reason (by and "
                                                                 "reason for its officials only); null otherwise")

    registration_url = serializers.URLField(allow_null=True, help_text="the sign-up page: a private event's (with "
                                                                        "its key) for its directors only")

    class Meta(EventSerializer.Meta):
        fields = [*EventSerializer.Meta.fields, "answer", "warnings", "cancelled", "registration_url"]


@extend_schema_field(OpenApiTypes.INT)
class PlayerField(IdField):
    def get_queryset(self):
        return Player.objects.all()


class OfficialsSerializer(serializers.Serializer):
    """Both lists, always: a body that leaves one out (or is empty) changes nobody, never removes them all."""

    directors = _users(required=True)
    referees = _users(required=True)


class EntryCreateSerializer(serializers.Serializer):
    player = PlayerField(required=False, allow_null=True, default=None, help_text="an existing player's id")
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=60,
                                 help_text="or a name: that player (in the club, any case) or a new one")
    club = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    seed = WholeNumberField(required=False, allow_null=True, default=None, min_value=1, max_value=10**9)
    rating = WholeNumberField(required=False, allow_null=True, default=None, min_value=-MAX_STORED,
                                      max_value=MAX_STORED)


class EntryImportSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=MAX_TEXT, help_text="one name a line, or CSV name,rating (a header "
                                                                "line name,rating is skipped)")
    club = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField(help_text="the name in the event's standings")
    club = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.IntegerField(allow_null=True)
    joined_round = serializers.IntegerField()
    dropped = serializers.BooleanField()
    dropped_after_round = serializers.IntegerField(allow_null=True, help_text="0: withdrawn before round 1")
    drop_reason = serializers.CharField(
        help_text="officials (organisers, the event's directors and referees) only: empty for others")
    checked_in = serializers.BooleanField(help_text="checked in before round 1 (an event with check_in)")


class SeedSerializer(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=["manual", "rating", "openskill", "random"],
        help_text="manual: by order; rating: by the entries' typed ratings; openskill: by the players' computed "
                  "OpenSkill ratings (mu - 3 sigma), the unrated last; random: a shuffle")
    order = serializers.ListField(child=WholeNumberField(min_value=1, max_value=MAX_ID), required=False,
                                  default=None, allow_null=True, max_length=4096,
                                  help_text="manual: entry ids, best seed first")


class DropSerializer(serializers.Serializer):
    after_round = WholeNumberField(required=False, allow_null=True, default=None, min_value=0,
                                           max_value=MAX_ENTRIES,
                                           help_text="the last round played (default: the last it is paired in)")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class PairSerializer(serializers.Serializer):
    publish = serializers.BooleanField(default=True, help_text="false: a draft round (Swiss), swapped by hand and "
                                                               "published later; games are made on publishing")
    withdraw_absent = serializers.BooleanField(
        default=False, help_text="an event with check_in: round 1 withdraws the entries not checked in (“did not "
                                 "check in”); without it, pairing is refused naming them")


class SwapSerializer(serializers.Serializer):
    first = WholeNumberField(help_text="an entry id", min_value=1, max_value=MAX_ID)
    second = WholeNumberField(help_text="an entry id", min_value=1, max_value=MAX_ID)
    confirm = serializers.BooleanField(default=False, help_text="swap even though it makes a rematch or breaks "
                                                                "the bye rule")


class LinksSerializer(serializers.Serializer):
    round = WholeNumberField(required=False, allow_null=True, default=None, min_value=1, max_value=MAX_ROUND,
                                     help_text="the round (Swiss, round robin); empty for the open bracket matches")
    started_too = serializers.BooleanField(default=False, help_text=(
        "also the games already started whose link works (their referees then need the new card); "
        "by default they keep theirs"))


class CardsSerializer(serializers.Serializer):
    started_too = serializers.BooleanField(default=False, help_text=(
        "also a table already playing whose link works (made elsewhere): its referee then needs the new card; "
        "by default it keeps its link and stays on the list"))


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": True})
class WinnerField(serializers.Field):
    """The winner by name (as in the standings) or by entry id."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, str | int) or (isinstance(data, int)
                                                                          and not 1 <= data <= MAX_ID):
            raise serializers.ValidationError("name the winner (as in the standings) or give the entry id")
        return data

    def to_representation(self, value):
        return value


class ForfeitSerializer(serializers.Serializer):
    winner = WinnerField()
    reason = serializers.CharField(max_length=500)


class AdjustSerializer(serializers.Serializer):
    winner = WinnerField(allow_null=True, help_text="null: a draw (Swiss and round robin)")
    margin = WholeNumberField(min_value=0, max_value=MAX_STORED)
    reason = serializers.CharField(max_length=500)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, max_length=500,
                                   help_text="why the event is cancelled (required; shown to its officials)")


class AcknowledgeSerializer(serializers.Serializer):
    key = serializers.CharField(allow_blank=True, max_length=100,
                                help_text="the warning's key, as the event's warnings give it")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500,
                                 help_text="optional: what was decided (kept with the acknowledgement)")


class AcknowledgementSerializer(serializers.Serializer):
    key = serializers.CharField()
    message = serializers.CharField()
    note = serializers.CharField()
    acknowledged_by = serializers.CharField(allow_null=True)
    acknowledged_at = serializers.DateTimeField()


class ResetSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class KnockoutSerializer(serializers.Serializer):
    top_n = WholeNumberField(help_text="how many of the final standings (still in) go through", min_value=2,
                                     max_value=4096)
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=120)
    format = serializers.ChoiceField(choices=[Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION],
                                     default=Event.Format.SINGLE_ELIMINATION)
    match_format = serializers.ChoiceField(choices=Event.MatchFormat.choices, required=False, default=None,
                                           allow_null=True)
    third_place = serializers.BooleanField(default=False)
    grand_final = serializers.ChoiceField(choices=Event.GrandFinal.choices, default=Event.GrandFinal.RESET)
    is_public = serializers.BooleanField(required=False, default=None, allow_null=True)
    round_minutes = WholeNumberField(required=False, allow_null=True, default=None, min_value=1, max_value=600,
                                     help_text="a match's time limit (null: the source event's)")


class RefereeLinkInfo(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    expires_at = serializers.DateTimeField()
    revoked = serializers.BooleanField()
    active = serializers.BooleanField()


class MatchGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    table_label = serializers.CharField()
    totals = serializers.DictField(child=serializers.IntegerField())
    pending_hands = serializers.IntegerField()
    referee_links = RefereeLinkInfo(many=True, help_text="never the token: it exists only when a link is made")
    referee_url = serializers.CharField(required=False, help_text="only in the answer that made the link")


class DirectorResultSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["forfeit", "adjusted", "cleared"])
    winner = serializers.CharField(allow_null=True)
    margin = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(help_text="why: the event's officials only (empty for others)")
    entered_by = serializers.CharField(allow_null=True)
    entered_at = serializers.DateTimeField()


class ClockSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["not_started", "running", "paused", "time"])
    ends_at = serializers.DateTimeField(allow_null=True, help_text="while it runs (or at time): when the time is up")
    paused = serializers.BooleanField()
    remaining_seconds = serializers.IntegerField(allow_null=True, help_text="null before it starts; 0 at time")
    words = serializers.CharField(help_text='"23:14 left", "paused, 5:00 left", "Time"')


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField()
    match = serializers.CharField(allow_null=True, help_text="the bracket match id (W1-3, L2-1, GF1, 3P)")
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField(), help_text="[name, name], or [name] for a bye")
    entries = serializers.ListField(child=serializers.IntegerField())
    games = serializers.ListField(child=serializers.IntegerField(), help_text="game ids: record and confirm "
                                                                              "their hands with the hands API")
    referee_url = serializers.CharField(allow_null=True, help_text="the table's referee link (its first game's): "
                                        "only in the answer that made it, null elsewhere")
    status = serializers.ChoiceField(choices=["draft", "waiting", "playing", "decided", "bye", "reset"])
    winner = serializers.CharField(allow_null=True)
    margin = serializers.IntegerField(allow_null=True)
    forfeit = serializers.BooleanField()
    source = serializers.CharField(allow_null=True, help_text="games, forfeit, adjusted or bye")
    games_won = serializers.ListField(child=serializers.IntegerField())
    game_details = MatchGameSerializer(many=True)
    director_results = DirectorResultSerializer(many=True, help_text="forfeits and adjusted results, oldest first")
    reset = serializers.BooleanField()
    clock = ClockSerializer(allow_null=True, help_text="the table's clock: its round's with its own extra time, or "
                                                       "a bracket match's own; null before one starts")
    card_printed = serializers.BooleanField(allow_null=True, help_text=(
        "officials only (null for others, and for a bye): whether its table card was printed, its links' "
        "tokens shown by a pairing, a sheet, new links or POST cards/; false: a table to print"))


class OpenedSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True, help_text="null for bracket matches")
    matches = MatchSerializer(many=True)
    reset = serializers.ListField(child=serializers.IntegerField(), required=False,
                                  help_text="bracket matches reset (their ids)")
    warnings = serializers.ListField(child=serializers.CharField(), required=False,
                                     help_text="a swap: what it breaks, in words")


class ClockActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "pause", "resume", "extend"])
    minutes = WholeNumberField(required=False, allow_null=True, default=None, min_value=1, max_value=600,
                               help_text="start: the time limit (default: the event's round_minutes); extend: how "
                                         "many more")
    match = WholeNumberField(required=False, allow_null=True, default=None, min_value=1,
                             help_text="extend: this table (match id) alone, not the whole round")


class MatchClockSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "pause", "resume", "extend"])
    minutes = WholeNumberField(required=False, allow_null=True, default=None, min_value=1, max_value=600,
                               help_text="start: the time limit (default: the event's round_minutes); extend: how "
                                         "many more")


class RoundSummarySerializer(serializers.Serializer):
    round = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["draft", "published", "closed"])
    published_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    tables = serializers.IntegerField()
    byes = serializers.IntegerField()
    clock = ClockSerializer(help_text="the round's clock as it stands (ends_at, paused, remaining_seconds)")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    match_points = serializers.IntegerField()
    margin = serializers.IntegerField()
    dropped = serializers.BooleanField()
    tiebreaks = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    entry = serializers.IntegerField()
