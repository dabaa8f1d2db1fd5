"""Web pages of the seasons app."""

from django.urls import path

from core import converters

from . import views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "seasons"

urlpatterns = [
    path("seasons/", views.season_list, name="season_list"),
    path("seasons/new/", views.new_season, name="new_season"),
    path("seasons/<id:pk>/", views.ladder, name="ladder"),
    path("seasons/<id:pk>/change/", views.change_season, name="change_season"),
    path("seasons/<id:pk>/players/<id:player_id>/", views.player_season, name="player_season"),
]
