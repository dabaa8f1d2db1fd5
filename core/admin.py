"""The floor's tables in the admin, read only: the one-time keys (what a copy of a write would be answered)."""

from django.contrib import admin

from .models import OnceKey


@admin.register(OnceKey)
class OnceKeyAdmin(admin.ModelAdmin):
    list_display = ["kind", "actor", "key", "method", "path", "object_id", "number", "status_code", "created_at"]
    list_filter = ["kind"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
