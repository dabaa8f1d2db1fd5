"""/api/v1/ routes of the ratings app."""

from django.urls import path

from core import converters

from . import views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "ratings-api"

urlpatterns = [
    path("ratings/", views.RatingList.as_view(), name="rating-list"),
    path("players/<id:pk>/ratings/", views.PlayerRatingHistory.as_view(), name="player-ratings"),
]
