"""/api/v1/ routes of the tournaments app."""

from django.urls import path

from . import views

app_name = "tournaments-api"

urlpatterns = [
    path("event/", views.EventView.as_view(), name="event"),
]
