"""Web pages of the tournaments app."""

from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("events/calculator/", views.event_calculator, name="event_calculator"),
]
