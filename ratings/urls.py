"""Web pages of the ratings app."""

from django.urls import path

from core import converters

from . import views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.rating_list, name="list"),
    path("ratings/players/<id:pk>/", views.player_ratings, name="player"),
]
