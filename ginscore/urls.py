"""Top-level URL map: the home page, the scoring, tournaments, seasons, ratings and notifications apps, their
APIs, the admin, and the guide (``/help/``)."""

from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView

from core.api.schema import SchemaView
from core.guide import guide
from scoring.player_forms import SignInForm

handler400 = "core.api.errors.bad_request"
handler403 = "core.api.errors.permission_denied"
handler404 = "core.api.errors.page_not_found"
handler500 = "core.api.errors.server_error"

urlpatterns = [
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("accounts/login/", LoginView.as_view(authentication_form=SignInForm), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
    path("", include("seasons.urls")),
    path("", include("ratings.urls")),
    path("", include("notifications.urls")),
    path("api/v1/", include("scoring.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("seasons.api.urls")),
    path("api/v1/", include("ratings.api.urls")),
    path("api/v1/", include("notifications.api.urls")),
    path("admin/", admin.site.urls),
    re_path(r"^help/(?P<path>.*)$", guide, name="guide"),
]
