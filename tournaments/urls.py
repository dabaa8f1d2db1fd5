"""Web pages of the tournaments app: the event calculator and stored events."""

from django.urls import path

from . import pages, views

app_name = "tournaments"

urlpatterns = [
    path("events/calculator/", views.event_calculator, name="event_calculator"),
    path("events/", pages.event_list, name="event_list"),
    path("events/new/", pages.new_event, name="new_event"),
    path("events/my-tables/", pages.my_tables, name="my_tables"),
    path("events/<int:pk>/", pages.event_page, name="event"),
    path("events/<int:pk>/pair/", pages.pair, name="pair"),
    path("events/<int:pk>/reset/", pages.reset_bracket, name="reset_bracket"),
    path("events/<int:pk>/knockout/", pages.knockout, name="knockout"),
    path("events/<int:pk>/entries/", pages.entries_page, name="entries"),
    path("events/<int:pk>/rounds/<int:number>/", pages.round_page, name="round"),
    path("events/<int:pk>/matches/<int:match_id>/", pages.match_page, name="match"),
    path("events/<int:pk>/sheet/", pages.round_sheet, name="sheet"),
    path("events/<int:pk>/pairings/", pages.pairings, name="pairings"),
    path("events/<int:pk>/standings/", pages.standings, name="standings"),
    path("events/<int:pk>/bracket/", pages.bracket, name="bracket"),
]
