"""List pages for any app's API: ``?limit=`` is capped, and an ``?offset=`` beyond any real list (even
past 2^63, which the database cannot take) gives an empty page instead of an error."""

from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = 200

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)
