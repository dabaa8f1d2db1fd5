"""Web pages of the scoring app."""

from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("calculator/", views.calculator, name="calculator"),
    path("games/", views.game_list, name="game_list"),
    path("games/new/", views.new_game, name="new_game"),
    path("players/new/", views.new_player, name="new_player"),
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("games/<int:pk>/sheet/", views.game_sheet_fragment, name="game_sheet"),
    path("games/<int:pk>/history/", views.game_history, name="game_history"),
    path("games/<int:pk>/enter/", views.enter_hand, name="enter_hand"),
    path("games/<int:pk>/preview/", views.preview_hand, name="preview_hand"),
    path("games/<int:pk>/abandon/", views.abandon_game, name="abandon_game"),
    path("games/<int:pk>/reopen/", views.reopen_game, name="reopen_game"),
    path("games/<int:pk>/links/", views.referee_links, name="referee_links"),
    path("games/<int:pk>/hands/<int:number>/confirm/", views.confirm_hand, name="confirm_hand"),
    path("games/<int:pk>/hands/<int:number>/correct/", views.correct_hand, name="correct_hand"),
    path("games/<int:pk>/hands/<int:number>/void/", views.void_hand, name="void_hand"),
    path("r/", views.referee_link, name="referee_link"),
]
