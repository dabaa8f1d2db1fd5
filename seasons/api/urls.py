"""/api/v1/ routes of the seasons app."""

from django.urls import path

from core import converters

from . import views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "seasons-api"

urlpatterns = [
    path("seasons/", views.SeasonList.as_view(), name="season-list"),
    path("seasons/<id:pk>/ladder/", views.Ladder.as_view(), name="ladder"),
]
