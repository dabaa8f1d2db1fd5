"""Every write of the scoring app, one module per concern: ``players`` (players and their PINs),
``games`` (a game created, abandoned, reopened; its row locked and its summary refreshed), ``links``
(referee links and API tokens), ``hands`` (record, confirm, correct, void), ``merges`` (a duplicate
player merged into the one it really is).

Each service takes keyword-only arguments, runs in one transaction, locks the game row first
(``game_lock``: the row and its hands in one round trip) so that two referees at one table can never
both record hand 5, asks the engine to score the result before anything is saved, and refreshes the
game's status and summary from the engine's answer. A confirmation with a PIN checks it under the
game's lock too (a keyed hash, ``pins``: microseconds); a wrong PIN is counted and committed, then
refused. A refused write raises ``core.refusals.Refusal`` and nothing else: bad input (each problem with
its hand and field), ``NotAllowed`` (role) or ``PinLocked`` (both refusals too); the engine's ``SheetError``
is translated at each service's edge (``refusals.service``). Nothing already recorded changes. Who may do
what is decided in ``policy``; which
side a hand goes against, in ``engine.acceptance``. Callers import this package, not its modules.
"""

from ..policy import NotAllowed
from .games import (
    NewGame,
    PlannedGame,
    abandon_game,
    abandon_game_unchecked,
    create_game,
    create_game_unchecked,
    create_planned_games,
    delete_unplayed_games_unchecked,
    planned_game,
    reopen_game,
    reopen_game_unchecked,
)
from .hands import (
    AlreadyRecorded,
    NotAccepted,
    SentBefore,
    confirm_hand,
    correct_hand,
    end_game_at_time,
    record_and_accept_hand,
    record_hand,
    undo_end_at_time,
    void_hand,
)
from .links import (
    create_referee_link,
    create_referee_link_unchecked,
    create_referee_links_unchecked,
    extend_referee_link,
    issue_api_token,
    revoke_referee_link,
    revoke_referee_link_unchecked,
)
from .merges import merge_player
from .players import (
    NameTaken,
    PinLocked,
    check_pin,
    create_player,
    create_player_unchecked,
    set_first_pin_unchecked,
    set_player_pin,
    update_player,
    valid_pin,
)

__all__ = [
    "AlreadyRecorded",
    "NameTaken",
    "NewGame",
    "NotAccepted",
    "NotAllowed",
    "PinLocked",
    "PlannedGame",
    "SentBefore",
    "abandon_game",
    "abandon_game_unchecked",
    "check_pin",
    "confirm_hand",
    "correct_hand",
    "create_game",
    "create_game_unchecked",
    "create_planned_games",
    "create_player",
    "create_player_unchecked",
    "create_referee_link",
    "create_referee_link_unchecked",
    "create_referee_links_unchecked",
    "delete_unplayed_games_unchecked",
    "end_game_at_time",
    "extend_referee_link",
    "issue_api_token",
    "merge_player",
    "planned_game",
    "record_and_accept_hand",
    "record_hand",
    "reopen_game",
    "reopen_game_unchecked",
    "revoke_referee_link",
    "revoke_referee_link_unchecked",
    "set_first_pin_unchecked",
    "set_player_pin",
    "undo_end_at_time",
    "update_player",
    "valid_pin",
    "void_hand",
]
