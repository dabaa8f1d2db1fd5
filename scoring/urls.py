"""Web pages of the scoring app."""

from django.urls import path

from core import converters

from .views import pages, players, sheet, table, table_outbox, table_time

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "scoring"

urlpatterns = [
    path("", pages.home, name="home"),
    path("healthz", pages.healthz, name="healthz"),
    path("calculator/", pages.calculator, name="calculator"),
    path("games/", pages.game_list, name="game_list"),
    path("games/new/", pages.new_game, name="new_game"),
    path("players/", players.player_list, name="players"),
    path("players/new/", pages.new_player, name="new_player"),
    path("players/<id:pk>/", players.player_detail, name="player"),
    path("games/<id:pk>/", sheet.game_detail, name="game_detail"),
    path("games/<id:pk>/sheet/", sheet.game_sheet_fragment, name="game_sheet"),
    path("games/<id:pk>/history/", sheet.game_history, name="game_history"),
    path("games/<id:pk>/enter/", table.enter_hand, name="enter_hand"),
    path("games/<id:pk>/preview/", table.preview_hand, name="preview_hand"),
    path("games/<id:pk>/send/", table_outbox.send_hand, name="send_hand"),
    path("games/<id:pk>/time/", table_time.end_at_time, name="end_at_time"),
    path("games/<id:pk>/time/undo/", table_time.undo_end_at_time, name="undo_end_at_time"),
    path("games/<id:pk>/clock/", table_time.table_clock, name="table_clock"),
    path("games/<id:pk>/abandon/", pages.abandon_game, name="abandon_game"),
    path("games/<id:pk>/reopen/", pages.reopen_game, name="reopen_game"),
    path("games/<id:pk>/links/", pages.referee_links, name="referee_links"),
    path("games/<id:pk>/hands/<id:number>/confirm/", table.confirm_hand, name="confirm_hand"),
    path("games/<id:pk>/hands/<id:number>/correct/", table.correct_hand, name="correct_hand"),
    path("games/<id:pk>/hands/<id:number>/void/", table.void_hand, name="void_hand"),
    path("r/", pages.referee_link, name="referee_link"),
    path("table-worker.js", table_outbox.table_worker, name="table_worker"),
]
