"""Web pages of the scoring app."""

from django.urls import path

from .views import pages, sheet, table

app_name = "scoring"

urlpatterns = [
    path("", pages.home, name="home"),
    path("healthz", pages.healthz, name="healthz"),
    path("calculator/", pages.calculator, name="calculator"),
    path("games/", pages.game_list, name="game_list"),
    path("games/new/", pages.new_game, name="new_game"),
    path("players/new/", pages.new_player, name="new_player"),
    path("games/<int:pk>/", sheet.game_detail, name="game_detail"),
    path("games/<int:pk>/sheet/", sheet.game_sheet_fragment, name="game_sheet"),
    path("games/<int:pk>/history/", sheet.game_history, name="game_history"),
    path("games/<int:pk>/enter/", table.enter_hand, name="enter_hand"),
    path("games/<int:pk>/preview/", table.preview_hand, name="preview_hand"),
    path("games/<int:pk>/abandon/", pages.abandon_game, name="abandon_game"),
    path("games/<int:pk>/reopen/", pages.reopen_game, name="reopen_game"),
    path("games/<int:pk>/links/", pages.referee_links, name="referee_links"),
    path("games/<int:pk>/hands/<int:number>/confirm/", table.confirm_hand, name="confirm_hand"),
    path("games/<int:pk>/hands/<int:number>/correct/", table.correct_hand, name="correct_hand"),
    path("games/<int:pk>/hands/<int:number>/void/", table.void_hand, name="void_hand"),
    path("r/", pages.referee_link, name="referee_link"),
]
