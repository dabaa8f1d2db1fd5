"""Small builders for score-sheet requests, so tests read like a referee's notes."""

from scoring.engine import score_sheet


def knock(knocker, knocker_deadwood, opponent_deadwood, **extra):
    return {"result": "knock", "knocker": knocker, "knocker_deadwood": knocker_deadwood,
            "opponent_deadwood": opponent_deadwood, **extra}


def gin(knocker, opponent_deadwood, **extra):
    return {"result": "gin", "knocker": knocker, "opponent_deadwood": opponent_deadwood, **extra}


def big_gin(knocker, opponent_deadwood, **extra):
    return {"result": "big_gin", "knocker": knocker, "opponent_deadwood": opponent_deadwood, **extra}


def dead(**extra):
    return {"result": "dead", **extra}


def score(conventions, hands, players=("A", "B"), **extra):
    return score_sheet({"conventions": conventions, "players": list(players), "hands": list(hands), **extra})
