"""Django admin over everything. Hands are read-only here: versions are added through the services."""

from django.contrib import admin

from .models import Game, Hand, IdempotencyRecord, Player, RefereeLink, Seat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "email", "user"]
    search_fields = ["display_name", "club", "email"]
    exclude = ["confirm_pin"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class RefereeLinkInline(admin.TabularInline):
    model = RefereeLink
    extra = 0
    readonly_fields = ["token", "created_at", "created_by"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "format", "status", "table_label", "is_public", "hand_count", "updated_at"]
    list_filter = ["status", "format", "is_public"]
    search_fields = ["table_label", "seats__player__display_name"]
    readonly_fields = ["conventions", "summary", "hand_count", "created_at", "updated_at"]
    filter_horizontal = ["referees"]
    inlines = [SeatInline, RefereeLinkInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "version", "action", "is_current", "entered_by", "entered_at", "confirmed_at"]
    list_filter = ["action", "is_current"]
    list_select_related = ["game", "entered_by"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RefereeLink)
class RefereeLinkAdmin(admin.ModelAdmin):
    list_display = ["game", "label", "created_at", "revoked_at"]
    readonly_fields = ["token"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["actor", "key", "method", "path", "status_code", "created_at"]
