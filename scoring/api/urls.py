"""/api/v1/ routes."""

from django.urls import path

from . import views

app_name = "api"

urlpatterns = [
    path("score/", views.ScoreView.as_view(), name="score"),
    path("melds/", views.MeldsView.as_view(), name="melds"),
]
