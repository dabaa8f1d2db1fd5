"""Top-level URL map: the home page, the scoring app, its API, the admin."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("scoring.urls")),
    path("api/v1/", include("scoring.api.urls")),
    path("admin/", admin.site.urls),
]
