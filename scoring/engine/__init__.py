"""The ginscore scoring engine: plain Python, no Django.

Cards, melds, conventions, hand scoring, the game ledger and the table formats, as pure functions
from recorded hands to scored sheets. Every number the service shows comes from here. Nothing in
this package may import Django or touch a database, a file or the network.
"""

from .cards import Card, CardError, Hand, parse_card, parse_cards
from .conventions import PRESETS, Conventions, resolve_conventions
from .errors import Problem, SheetError
from .hands import HandRecord, Outcome, Result, ScoredHand, score_hand
from .ledger import GameResult, Standing, Tally, score_game, settle
from .melds import MeldAnalysis, analyse, min_deadwood
from .sheet import FORMATS, score_sheet

__all__ = [
    "FORMATS",
    "PRESETS",
    "Card",
    "CardError",
    "Conventions",
    "GameResult",
    "Hand",
    "HandRecord",
    "MeldAnalysis",
    "Outcome",
    "Problem",
    "Result",
    "ScoredHand",
    "SheetError",
    "Standing",
    "Tally",
    "analyse",
    "min_deadwood",
    "parse_card",
    "parse_cards",
    "resolve_conventions",
    "score_game",
    "score_hand",
    "score_sheet",
    "settle",
]
