"""Every write of the tournaments app, one module per concern (in the style of Zulip's ``zerver/actions``):

- ``events``: an event, its officials, a knockout from its standings;
- ``changes``: changing an event (its name, rounds, options, prizes), cancelling one, deleting one without results;
- ``entries``: entries (one, by name, a pasted list), seeding, drops;
- ``checkin``: check-in before round 1 (by a director, or by the player at the venue's QR code);
- ``rounds``: Swiss and round-robin rounds (pair, draft swaps, publish);
- ``clock``: a round's clock (start, pause, resume, extend a round or one table);
- ``brackets``: opening bracket matches, by a director or by themselves, and resetting stale ones;
- ``games``: a match's games and their table links;
- ``cards``: the table cards still to print (a bracket match that opened by itself among them);
- ``director_results``: forfeits, adjusted results, back to the games' result;
- ``players``: events' entries when ``scoring`` merges a duplicate player into another;
- ``answers``: the engine's answer kept up to date after every write;
- ``acknowledgements``: a director acknowledging a warning (kept, once per warning key);
- ``pairing_requests``: byes players ask for in a future Swiss round, pairs of entries to avoid;
- ``prizes``: an event's prize list read from the API's list or the event page's text;
- ``once``: a director's web form sent twice does nothing the second time;
- ``base``: what they share (the event locked, errors naming their field, limits).

Each service takes keyword-only arguments, runs in one transaction and locks the event row first
(``select_for_update``): two directors pairing at once create one round, and every write bumps the
event's ``revision`` (part of the results fingerprint). Games and referee links are made by
``scoring``'s own services under the event's frozen conventions. Pairings, brackets and standings
come from the engine (``tournaments.engine``) run on the stored results (``tournaments.stored_event``).

A refused write raises ``core.refusals.Refusal`` and nothing else (bad input: every problem with its field and
message; any write to a cancelled event; ``NotAllowed`` for a role, a refusal too); the engines' errors are
translated at each service's edge (``base.refusing``). Nothing already recorded changes. Who may do what is
in ``policy``. Views, the API and commands import this package, never its modules' private helpers.
"""

from tournaments.engine import EventError, run_event
from tournaments.policy import NotAllowed
from tournaments.services.timekeeping import run_match_clock, run_round_clock

from ..answers.job import refresh_after_commit, refresh_answer_if_stale
from ..answers.store import LIVE, answer_view, refresh_answer, standings_text, store_answer, sync_statuses
from .acknowledgements import acknowledge_warning
from .brackets import open_ready_bracket_matches, reset_dependent_bracket_matches
from .cards import print_table_cards
from .changes import cancel_event, delete_event, has_results, set_prizes_from_text, update_event
from .checkin import absent_entries, check_in_entry, self_check_in, venue_code, venue_code_matches
from .director_results import DECIDED_BY_DIRECTOR, clear_director_result, record_adjusted_result, record_forfeit
from .entries import add_entries_from_text, add_entry, drop_entry, remove_entry, seed_entries, undo_drop
from .events import create_event, create_knockout_from_standings, set_officials
from .games import Opened, issue_table_links
from .once import AlreadySent, form_sent_once
from .pairing_requests import (
    add_avoid_pair,
    cancel_bye,
    cancel_my_bye,
    remove_avoid_pair,
    request_bye,
    request_my_bye,
)
from .prizes import MAX_PRIZE_TEXT, MAX_PRIZES, prizes_as_text, prizes_from_text, read_prizes
from .registrations import (
    SignedUp,
    TooManySignUps,
    closed_because,
    enter_from_waitlist,
    position_of,
    register,
    registration_by_token,
    withdraw,
)
from .rounds import pair_next_round, publish_round, swap_entries, swap_warnings

__all__ = [
    "DECIDED_BY_DIRECTOR",
    "LIVE",
    "MAX_PRIZES",
    "MAX_PRIZE_TEXT",
    "AlreadySent",
    "EventError",
    "NotAllowed",
    "Opened",
    "SignedUp",
    "TooManySignUps",
    "absent_entries",
    "acknowledge_warning",
    "add_avoid_pair",
    "add_entries_from_text",
    "add_entry",
    "answer_view",
    "cancel_bye",
    "cancel_event",
    "cancel_my_bye",
    "check_in_entry",
    "clear_director_result",
    "closed_because",
    "create_event",
    "create_knockout_from_standings",
    "delete_event",
    "drop_entry",
    "enter_from_waitlist",
    "form_sent_once",
    "has_results",
    "issue_table_links",
    "open_ready_bracket_matches",
    "pair_next_round",
    "position_of",
    "print_table_cards",
    "prizes_as_text",
    "prizes_from_text",
    "publish_round",
    "read_prizes",
    "record_adjusted_result",
    "record_forfeit",
    "refresh_after_commit",
    "refresh_answer",
    "refresh_answer_if_stale",
    "register",
    "registration_by_token",
    "remove_avoid_pair",
    "remove_entry",
    "request_bye",
    "request_my_bye",
    "reset_dependent_bracket_matches",
    "run_event",
    "run_match_clock",
    "run_round_clock",
    "seed_entries",
    "self_check_in",
    "set_officials",
    "set_prizes_from_text",
    "standings_text",
    "store_answer",
    "swap_entries",
    "swap_warnings",
    "sync_statuses",
    "undo_drop",
    "update_event",
    "venue_code",
    "venue_code_matches",
    "withdraw",
]
