"""Django admin for organisers. Whatever protects results goes through the services, so here it is
read-only: hand versions, seats, a game's status and format (abandon and reopen on the game's page),
PIN failures. Referee-link and API tokens are stored as digests and never shown."""

from django.contrib import admin

from core.admin import ReadOnlyMixin

from .models import ApiToken, Game, GameStatusChange, Hand, PinFailure, Player, RefereeLink, Seat
from .player_forms import AdminSignInForm

admin.site.login_form = AdminSignInForm


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "email", "user"]
    search_fields = ["display_name", "club", "email"]
    exclude = ["confirm_pin"]
    # A merge moves games, hands' seats and entries together (scoring.services.merges): never by hand here.
    readonly_fields = ["merged_into", "merged_at"]


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0


class RefereeLinkInline(ReadOnlyMixin, admin.TabularInline):
    model = RefereeLink
    extra = 0
    exclude = ["token"]


class StatusChangeInline(ReadOnlyMixin, admin.TabularInline):
    model = GameStatusChange
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "format", "status", "table_label", "is_public", "hand_count", "updated_at"]
    list_filter = ["status", "format", "is_public"]
    search_fields = ["table_label", "seats__player__display_name"]
    readonly_fields = ["format", "status", "player_names", "first_dealer", "first_dealer_name", "conventions",
                       "summary", "hand_count", "created_by", "created_at", "updated_at"]
    filter_horizontal = ["referees"]
    inlines = [SeatInline, RefereeLinkInline, StatusChangeInline]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["game", "number", "version", "action", "is_current", "entered_by", "entered_at", "confirmed_at"]
    list_filter = ["action", "is_current"]
    list_select_related = ["game", "entered_by"]


@admin.register(RefereeLink)
class RefereeLinkAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["game", "label", "created_at", "revoked_at"]
    exclude = ["token"]


@admin.register(PinFailure)
class PinFailureAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["player", "failed_at", "actor", "address"]
    list_select_related = ["player"]


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Issued API tokens (digests only): deleting one withdraws it at once."""

    list_display = ["user", "created_at"]
    list_select_related = ["user"]
    exclude = ["digest"]

    def has_delete_permission(self, request, obj=None):
        return True
