"""Web pages of the tournaments app: the event calculator and stored events."""

from django.urls import path

from . import converters, pages, views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits



app_name = "tournaments"

urlpatterns = [
    path("events/calculator/", views.event_calculator, name="event_calculator"),
    path("events/", pages.event_list, name="event_list"),
    path("events/new/", pages.new_event, name="new_event"),
    path("events/my-tables/", pages.my_tables, name="my_tables"),
    path("events/<id:pk>/", pages.event_page, name="event"),
    path("events/<id:pk>/pair/", pages.pair, name="pair"),
    path("events/<id:pk>/reset/", pages.reset_bracket, name="reset_bracket"),
    path("events/<id:pk>/knockout/", pages.knockout, name="knockout"),
    path("events/<id:pk>/officials/", pages.officials, name="officials"),
    path("events/<id:pk>/entries/", pages.entries_page, name="entries"),
    path("events/<id:pk>/rounds/<id:number>/", pages.round_page, name="round"),
    path("events/<id:pk>/matches/<id:match_id>/", pages.match_page, name="match"),
    path("events/<id:pk>/sheet/", pages.round_sheet, name="sheet"),
    path("events/<id:pk>/pairings/", pages.pairings, name="pairings"),
    path("events/<id:pk>/standings/", pages.standings, name="standings"),
    path("events/<id:pk>/bracket/", pages.bracket, name="bracket"),
]
