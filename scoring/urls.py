"""Web pages of the scoring app."""

from django.urls import path

from . import converters, views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "scoring"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("calculator/", views.calculator, name="calculator"),
    path("games/", views.game_list, name="game_list"),
    path("games/new/", views.new_game, name="new_game"),
    path("players/new/", views.new_player, name="new_player"),
    path("games/<id:pk>/", views.game_detail, name="game_detail"),
    path("games/<id:pk>/sheet/", views.game_sheet_fragment, name="game_sheet"),
    path("games/<id:pk>/history/", views.game_history, name="game_history"),
    path("games/<id:pk>/enter/", views.enter_hand, name="enter_hand"),
    path("games/<id:pk>/preview/", views.preview_hand, name="preview_hand"),
    path("games/<id:pk>/abandon/", views.abandon_game, name="abandon_game"),
    path("games/<id:pk>/reopen/", views.reopen_game, name="reopen_game"),
    path("games/<id:pk>/links/", views.referee_links, name="referee_links"),
    path("games/<id:pk>/hands/<id:number>/confirm/", views.confirm_hand, name="confirm_hand"),
    path("games/<id:pk>/hands/<id:number>/correct/", views.correct_hand, name="correct_hand"),
    path("games/<id:pk>/hands/<id:number>/void/", views.void_hand, name="void_hand"),
    path("r/", views.referee_link, name="referee_link"),
]
