"""/api/v1/ routes."""

from django.urls import path

from core import converters

from . import views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "api"

urlpatterns = [
    path("score/", views.ScoreView.as_view(), name="score"),
    path("melds/", views.MeldsView.as_view(), name="melds"),
    path("auth/token/", views.ObtainToken.as_view(), name="token"),
    path("players/", views.PlayerList.as_view(), name="player-list"),
    path("players/<id:pk>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<id:pk>/pin/", views.PlayerPin.as_view(), name="player-pin"),
    path("players/<id:pk>/merge/", views.PlayerMerge.as_view(), name="player-merge"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<id:pk>/", views.GameDetail.as_view(), name="game-detail"),
    path("games/<id:pk>/abandon/", views.GameAbandon.as_view(), name="game-abandon"),
    path("games/<id:pk>/reopen/", views.GameReopen.as_view(), name="game-reopen"),
    path("games/<id:pk>/end-at-time/", views.GameEndAtTime.as_view(), name="game-end-at-time"),
    path("games/<id:pk>/hands/", views.HandList.as_view(), name="hand-list"),
    path("games/<id:pk>/history/", views.HandHistory.as_view(), name="game-history"),
    path("games/<id:pk>/hands/<id:number>/confirm/", views.HandConfirm.as_view(), name="hand-confirm"),
    path("games/<id:pk>/hands/<id:number>/correct/", views.HandCorrect.as_view(), name="hand-correct"),
    path("games/<id:pk>/hands/<id:number>/void/", views.HandVoid.as_view(), name="hand-void"),
    path("games/<id:pk>/hands/<id:number>/history/", views.HandHistory.as_view(), name="hand-history"),
    path("ping/", views.Ping.as_view(), name="ping"),
]
