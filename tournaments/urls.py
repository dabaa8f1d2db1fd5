"""Web pages of the tournaments app: the event calculator and stored events."""

from django.urls import path

from core import converters

from .views import (
    calculator,
    cards,
    checkin,
    display,
    entries,
    entry,
    events,
    live,
    pairing_requests,
    prizes,
    registrations,
    rounds,
)

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits



app_name = "tournaments"

urlpatterns = [
    path("events/calculator/", calculator.event_calculator, name="event_calculator"),
    path("events/", events.event_list, name="event_list"),
    path("events/new/", events.new_event, name="new_event"),
    path("events/my-tables/", live.my_tables, name="my_tables"),
    path("events/<id:pk>/", events.event_page, name="event"),
    path("events/<id:pk>/pair/", events.pair, name="pair"),
    path("events/<id:pk>/reset/", events.reset_bracket, name="reset_bracket"),
    path("events/<id:pk>/knockout/", events.knockout, name="knockout"),
    path("events/<id:pk>/officials/", events.officials, name="officials"),
    path("events/<id:pk>/change/", events.change_event, name="change"),
    path("events/<id:pk>/delete/", events.delete_event, name="delete"),
    path("events/<id:pk>/cancel/", events.cancel_event, name="cancel"),
    path("events/<id:pk>/warnings/acknowledge/", events.acknowledge_warning, name="acknowledge_warning"),
    path("events/<id:pk>/entries/", entries.entries_page, name="entries"),
    path("events/<id:pk>/entries/<id:entry_id>/", entry.entry_page, name="entry"),
    path("events/<id:pk>/entries/<id:entry_id>/byes/", pairing_requests.entry_bye, name="entry_bye"),
    path("events/<id:pk>/entries/<id:entry_id>/byes/<id:number>/cancel/", pairing_requests.cancel_entry_bye,
         name="cancel_entry_bye"),
    path("events/<id:pk>/avoid/", pairing_requests.avoid_page, name="avoid"),
    path("events/<id:pk>/prizes/", prizes.set_prizes, name="prizes"),
    path("events/<id:pk>/check-in/", checkin.check_in_page, name="check_in"),
    path("events/<id:pk>/check-in/<str:code>/", checkin.self_check_in, name="self_check_in"),
    path("events/<id:pk>/register/", registrations.register, name="register"),
    path("events/<id:pk>/registration/", registrations.registration_settings, name="registration_settings"),
    path("events/<id:pk>/registrations/<id:registration_id>/enter/", registrations.enter_waitlisted,
         name="enter_waitlisted"),
    path("events/registration/<str:token>/", registrations.my_registration, name="my_registration"),
    path("events/registration/<str:token>/byes/", pairing_requests.my_bye, name="my_bye"),
    path("events/registration/<str:token>/byes/<id:number>/cancel/", pairing_requests.cancel_my_bye,
         name="cancel_my_bye"),
    path("events/<id:pk>/rounds/<id:number>/", rounds.round_page, name="round"),
    path("events/<id:pk>/rounds/<id:number>/clock/", rounds.round_clock, name="round_clock"),
    path("events/<id:pk>/matches/<id:match_id>/", rounds.match_page, name="match"),
    path("events/<id:pk>/matches/<id:match_id>/link/", rounds.match_link, name="match_link"),
    path("events/<id:pk>/matches/<id:match_id>/clock/", rounds.match_clock, name="match_clock"),
    path("events/<id:pk>/sheet/", rounds.round_sheet, name="sheet"),
    path("events/<id:pk>/cards/", cards.cards_page, name="cards"),
    path("events/<id:pk>/pairings/", live.pairings, name="pairings"),
    path("events/<id:pk>/standings/", live.standings, name="standings"),
    path("events/<id:pk>/bracket/", live.bracket, name="bracket"),
    path("events/<id:pk>/display/", display.display, name="display"),
]
