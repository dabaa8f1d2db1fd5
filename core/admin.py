"""The floor's tables in the admin, read only (the one-time keys: what a copy of a write would be answered), and
the read-only admin every app uses for what only its services may write."""

from django.contrib import admin

from .models import OnceKey


class ReadOnlyMixin:
    """An admin page that shows and never changes: what only the services write (hands, keys, tokens)."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(OnceKey)
class OnceKeyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["kind", "actor", "key", "method", "path", "object_id", "number", "status_code", "created_at"]
    list_filter = ["kind"]
