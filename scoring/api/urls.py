"""/api/v1/ routes."""

from django.urls import path

from . import views

app_name = "api"

urlpatterns = [
    path("score/", views.ScoreView.as_view(), name="score"),
    path("melds/", views.MeldsView.as_view(), name="melds"),
    path("auth/token/", views.ObtainToken.as_view(), name="token"),
    path("players/", views.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<int:pk>/pin/", views.PlayerPin.as_view(), name="player-pin"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<int:pk>/", views.GameDetail.as_view(), name="game-detail"),
    path("games/<int:pk>/abandon/", views.GameAbandon.as_view(), name="game-abandon"),
    path("games/<int:pk>/reopen/", views.GameReopen.as_view(), name="game-reopen"),
    path("games/<int:pk>/hands/", views.HandList.as_view(), name="hand-list"),
    path("games/<int:pk>/history/", views.HandHistory.as_view(), name="game-history"),
    path("games/<int:pk>/hands/<int:number>/confirm/", views.HandConfirm.as_view(), name="hand-confirm"),
    path("games/<int:pk>/hands/<int:number>/correct/", views.HandCorrect.as_view(), name="hand-correct"),
    path("games/<int:pk>/hands/<int:number>/void/", views.HandVoid.as_view(), name="hand-void"),
    path("games/<int:pk>/hands/<int:number>/history/", views.HandHistory.as_view(), name="hand-history"),
    path("ping/", views.Ping.as_view(), name="ping"),
]
