"""/api/v1/ routes of the tournaments app: the event calculator and stored events (EVENTS.md)."""

from django.urls import path

from core import converters

from . import clock, entry_record, exports, lifecycle, matches, pairing_requests, registrations, views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "tournaments-api"

urlpatterns = [
    path("event/", views.EventView.as_view(), name="event"),
    path("events/", views.EventList.as_view(), name="event-list"),
    path("events/<id:pk>/", views.EventDetail.as_view(), name="event-detail"),
    path("events/<id:pk>/cancel/", lifecycle.EventCancel.as_view(), name="event-cancel"),
    path("events/<id:pk>/warnings/acknowledge/", lifecycle.WarningAcknowledge.as_view(), name="warning-acknowledge"),
    path("events/<id:pk>/entries/", views.EntryList.as_view(), name="entry-list"),
    path("events/<id:pk>/registrations/", registrations.EventRegistrations.as_view(), name="registration-list"),
    path("events/<id:pk>/registrations/<id:registration_id>/enter/", registrations.RegistrationEnter.as_view(),
         name="registration-enter"),
    path("registrations/<str:token>/", registrations.MyRegistration.as_view(), name="my-registration"),
    path("registrations/<str:token>/withdraw/", registrations.MyWithdrawal.as_view(), name="my-withdrawal"),
    path("registrations/<str:token>/byes/", pairing_requests.MyByes.as_view(), name="my-byes"),
    path("registrations/<str:token>/byes/<id:number>/", pairing_requests.MyByeDetail.as_view(), name="my-bye"),
    path("events/<id:pk>/entries/<id:entry_id>/byes/", pairing_requests.EntryByes.as_view(), name="entry-byes"),
    path("events/<id:pk>/entries/<id:entry_id>/byes/<id:number>/", pairing_requests.EntryByeDetail.as_view(),
         name="entry-bye"),
    path("events/<id:pk>/avoid/", pairing_requests.AvoidList.as_view(), name="avoid-list"),
    path("events/<id:pk>/avoid/<id:avoid_id>/", pairing_requests.AvoidDetail.as_view(), name="avoid-detail"),
    path("events/<id:pk>/entries/import/", views.EntryImport.as_view(), name="entry-import"),
    path("events/<id:pk>/entries/<id:entry_id>/", entry_record.EntryRecord.as_view(), name="entry-detail"),
    path("events/<id:pk>/entries/<id:entry_id>/drop/", views.EntryDrop.as_view(), name="entry-drop"),
    path("events/<id:pk>/entries/<id:entry_id>/check-in/", views.EntryCheckIn.as_view(), name="entry-check-in"),
    path("events/<id:pk>/entries/<id:entry_id>/check-out/", views.EntryCheckOut.as_view(), name="entry-check-out"),
    path("events/<id:pk>/seed/", views.Seeding.as_view(), name="seeding"),
    path("events/<id:pk>/rounds/", views.RoundList.as_view(), name="round-list"),
    path("events/<id:pk>/rounds/<id:number>/clock/", clock.RoundClock.as_view(), name="round-clock"),
    path("events/<id:pk>/rounds/<id:number>/publish/", views.RoundPublish.as_view(), name="round-publish"),
    path("events/<id:pk>/rounds/<id:number>/swap/", views.RoundSwap.as_view(), name="round-swap"),
    path("events/<id:pk>/links/", views.TableLinks.as_view(), name="table-links"),
    path("events/<id:pk>/cards/", views.TableCards.as_view(), name="table-cards"),
    path("events/<id:pk>/export/", exports.EventExport.as_view(), name="event-export"),
    path("events/<id:pk>/matches/", exports.MatchListWithCSV.as_view(), name="match-list"),
    path("events/<id:pk>/matches/<str:match_id>/", matches.MatchDetail.as_view(), name="match-detail"),
    path("events/<id:pk>/matches/<str:match_id>/clock/", clock.MatchClock.as_view(), name="match-clock"),
    path("events/<id:pk>/matches/<str:match_id>/link/", views.MatchLink.as_view(), name="match-link"),
    path("events/<id:pk>/matches/<str:match_id>/forfeit/", matches.MatchForfeit.as_view(), name="match-forfeit"),
    path("events/<id:pk>/matches/<str:match_id>/adjust/", matches.MatchAdjust.as_view(), name="match-adjust"),
    path("events/<id:pk>/matches/<str:match_id>/clear/", matches.MatchClear.as_view(), name="match-clear"),
    path("events/<id:pk>/bracket/reset/", matches.BracketReset.as_view(), name="bracket-reset"),
    path("events/<id:pk>/knockout/", views.Knockout.as_view(), name="knockout"),
    path("events/<id:pk>/officials/", views.Officials.as_view(), name="officials"),
    path("events/<id:pk>/standings/", views.Standings.as_view(), name="standings"),
]
