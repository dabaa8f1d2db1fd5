"""Django admin for organisers: stored events to look at, never to change. Every change to an event
(entries, seeds, pairings, results, drops) goes through ``tournaments.services`` on the event's pages
or the API, where who may do it is checked and the history is kept; so here everything is read-only."""

from django.contrib import admin

from core.admin import ReadOnlyMixin

from .models import (
    AvoidPair,
    Entry,
    Event,
    Match,
    MatchGame,
    MatchPlayer,
    MatchResult,
    Round,
    WarningAcknowledgement,
)


class EntryInline(ReadOnlyMixin, admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["player", "seed", "rating", "joined_round", "dropped_after_round", "drop_reason"]


class WarningAcknowledgementInline(ReadOnlyMixin, admin.TabularInline):
    model = WarningAcknowledgement
    extra = 0
    fields = readonly_fields = ["message", "note", "acknowledged_by", "acknowledged_at"]


class AvoidPairInline(ReadOnlyMixin, admin.TabularInline):
    model = AvoidPair
    fk_name = "event"
    extra = 0
    fields = readonly_fields = ["first", "second", "strength", "created_by", "created_at"]


@admin.register(Event)
class EventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "format", "status", "match_format", "is_public", "created_at"]
    list_filter = ["format", "status", "is_public"]
    search_fields = ["name"]
    exclude = ["seeding"]
    inlines = [EntryInline, AvoidPairInline, WarningAcknowledgementInline]


class MatchPlayerInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchPlayer
    extra = 0


class MatchGameInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchGame
    extra = 0


class MatchResultInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchResult
    extra = 0


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "bracket_id", "table", "is_bye", "reset_at"]
    list_filter = ["is_bye"]
    list_select_related = ["event", "round"]
    inlines = [MatchPlayerInline, MatchGameInline, MatchResultInline]


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "status", "published_at", "closed_at"]
    list_select_related = ["event"]
    exclude = ["paired_from"]


@admin.register(MatchResult)
class MatchResultAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["match", "kind", "winner", "margin", "reason", "entered_by", "entered_at"]
    list_select_related = ["match__event", "winner__player", "entered_by"]
