"""Every kind of refusal EVENTS.md lists, each with the (result, field) it must name and words it must use.

Shared by the engine's tests and the tests of both doors (``manage.py event``, ``POST /api/v1/event/``).
"""

FOUR = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}, {"name": "Dev"}]


def swiss(**extra):
    return {"format": "swiss", "entries": FOUR, **extra}


def knockout(fmt="single_elimination", **extra):
    return {"format": fmt, "entries": FOUR, **extra}


def match(r, a, b, winner, **extra):
    return {"round": r, "players": [a, b], "winner": winner, **extra}


# (id, request, result, field, words in the message)
ERROR_CASES = [
    ("unknown format", {"format": "ladder", "entries": FOUR}, None, "format", "must be one of"),
    ("format missing", {"entries": FOUR}, None, "format", "is required"),
    ("unknown top-level field", swiss(colour="red"), None, "colour", "unknown field"),
    ("unknown entry field", {"format": "swiss", "entries": [{"name": "Ann", "rating": 1500}, {"name": "Bob"}]},
     None, "entries.0.rating", "unknown field"),
    ("unknown result field", swiss(results=[match(1, "Ann", "Cleo", "Ann", table=3)]), 1, "table", "unknown field"),
    ("request not an object", ["swiss"], None, None, "must be a JSON object"),
    ("entries not a list", {"format": "swiss", "entries": {"Ann": 1}}, None, "entries", "must be a list"),
    ("entry not an object", {"format": "swiss", "entries": ["Ann", "Bob"]}, None, "entries.0", "must be a JSON object"),
    ("result not an object", swiss(results=[["Ann", "Cleo"]]), 1, None, "must be a JSON object"),
    ("round not a number", swiss(results=[match("one", "Ann", "Cleo", "Ann")]), 1, "round", "must be a round number"),
    ("margin a float", swiss(results=[match(1, "Ann", "Cleo", "Ann", margin=1.5)]), 1, "margin", "whole number"),
    ("margin a boolean", swiss(results=[match(1, "Ann", "Cleo", "Ann", margin=True)]), 1, "margin", "whole number"),
    ("match points not an object", swiss(match_points=[2, 1, 0]), None, "match_points", "must be a JSON object"),
    ("unknown match points key", swiss(match_points={"win": 3, "tie": 1}), None, "match_points.tie", "unknown field"),
    ("tiebreaks not a list", swiss(tiebreaks="buchholz"), None, "tiebreaks", "must be a list"),
    ("unknown tiebreak", swiss(tiebreaks=["sonneborn"]), None, "tiebreaks.0", "not a tiebreak key"),
    ("tiebreak twice", swiss(tiebreaks=["buchholz", "buchholz"]), None, "tiebreaks", "given twice"),
    ("duplicate names", {"format": "swiss", "entries": [{"name": "Ann"}, {"name": "Ann"}]}, None, "entries.1.name",
     "already the name"),
    ("empty name", {"format": "swiss", "entries": [{"name": ""}, {"name": "Bob"}]}, None, "entries.0.name",
     "non-empty name"),
    ("name too long", {"format": "swiss", "entries": [{"name": "x" * 61}, {"name": "Bob"}]}, None, "entries.0.name",
     "at most 60"),
    ("duplicate seeds", {"format": "swiss", "entries": [{"name": "Ann", "seed": 1}, {"name": "Bob", "seed": 1}]},
     None, "entries.1.seed", "already given"),
    ("seed not positive", {"format": "swiss", "entries": [{"name": "Ann", "seed": 0}, {"name": "Bob"}]}, None,
     "entries.0.seed", "at least 1"),
    ("fewer than two entries", {"format": "swiss", "entries": [{"name": "Ann"}]}, None, "entries", "at least 2"),
    ("rounds in elimination", knockout(rounds=3), None, "rounds", "no fixed number of rounds"),
    ("third place outside single", swiss(third_place=True), None, "third_place", "single elimination"),
    ("grand final outside double", knockout(grand_final="reset"), None, "grand_final", "double elimination"),
    ("bad grand final", knockout("double_elimination", grand_final="twice"), None, "grand_final", "reset"),
    ("joined outside swiss", {"format": "round_robin", "entries": [{"name": "Ann", "joined": 2}, {"name": "Bob"}]},
     None, "entries.0.joined", "only a Swiss"),
    ("round robin rounds differ", {"format": "round_robin", "entries": FOUR, "rounds": 4}, None, "rounds",
     "plays 3 rounds"),
    ("not an entry", swiss(results=[match(1, "Ann", "Zed", "Ann")]), 1, "players.1", "not an entry"),
    ("round zero", swiss(results=[match(0, "Ann", "Cleo", "Ann")]), 1, "round", "numbered from 1"),
    ("round beyond the last", swiss(rounds=2, results=[match(3, "Ann", "Cleo", "Ann")]), 1, "round",
     "beyond the last"),
    ("plays twice in a round", swiss(results=[match(1, "Ann", "Cleo", "Ann"), match(1, "Ann", "Bob", "Bob")]), 2,
     "players.0", "already has a result in round 1"),
    ("winner did not play", swiss(results=[match(1, "Ann", "Cleo", "Bob")]), 1, "winner", "did not play"),
    ("winner missing", swiss(results=[{"round": 1, "players": ["Ann", "Cleo"]}]), 1, "winner", "is required"),
    ("negative margin", swiss(results=[match(1, "Ann", "Cleo", "Ann", margin=-5)]), 1, "margin", "at least 0"),
    ("draw with a margin", swiss(results=[match(1, "Ann", "Cleo", None, margin=5)]), 1, "margin",
     "a draw has no margin"),
    ("forfeit without a winner", swiss(results=[match(1, "Ann", "Cleo", None, forfeit=True)]), 1, "forfeit",
     "needs a winner"),
    ("draw in elimination", knockout(results=[{"match": "W1-1", "winner": None}]), 1, "winner", "cannot be drawn"),
    ("unknown match id", knockout(results=[{"match": "W9-1", "winner": "Ann"}]), 1, "match", "no match 'W9-1'"),
    ("result for a bye", {"format": "single_elimination", "entries": FOUR[:3],
                          "results": [{"match": "W1-1", "winner": "Ann"}]}, 1, "match", "is a bye"),
    ("match not ready", knockout(results=[{"match": "W2-1", "winner": "Ann"}]), 1, "match", "is not ready"),
    ("two results for one match", knockout(results=[{"match": "W1-1", "winner": "Ann"},
                                                    {"match": "W1-1", "winner": "Dev"}]), 2, "match",
     "already has a result"),
    ("elimination winner not in the match", knockout(results=[{"match": "W1-2", "winner": "Ann"}]), 1, "winner",
     "Ann did not play in match W1-2"),
    ("round robin off the schedule", {"format": "round_robin", "entries": FOUR,
                                      "results": [match(1, "Ann", "Bob", "Ann")]}, 1, "players",
     "not paired in round 1"),
    ("round robin bye off the schedule", {"format": "round_robin", "entries": FOUR,
                                          "results": [{"round": 1, "bye": "Ann"}]}, 1, "bye", "does not sit out"),
    ("result after a drop", swiss(dropped={"Ann": 1}, results=[match(2, "Ann", "Bob", "Ann")]), 1, "players.0",
     "dropped after round 1"),
    ("result before joining", {"format": "swiss", "entries": [*FOUR, {"name": "Eve", "joined": 2}],
                               "results": [match(1, "Ann", "Eve", "Ann")]}, 1, "players.1", "joined in round 2"),
    ("dropped names a non-entry", swiss(dropped={"Zed": 1}), None, "dropped.Zed", "not an entry"),
    ("dropped negative", swiss(dropped={"Ann": -1}), None, "dropped.Ann", "at least 0"),
    ("dropped not an object", swiss(dropped=["Ann"]), None, "dropped", "must be an object"),
    ("as of round out of range", swiss(rounds=2, as_of_round=3), None, "as_of_round", "at most 2"),
    ("as of round in elimination", knockout(as_of_round=1), None, "as_of_round", "leave as_of_round out"),
    ("match points too large", swiss(match_points={"win": 10**6}), None, "match_points.win", "at most 1000"),
    ("forfeit with another margin",
     swiss(forfeit_margin=50, results=[match(1, "Ann", "Cleo", "Ann", forfeit=True, margin=20)]), 1, "margin",
     "forfeit_margin"),
    ("GF2 before GF1", {"format": "double_elimination", "entries": FOUR[:2],
                        "results": [{"match": "W1-1", "winner": "Ann"}, {"match": "GF2", "winner": "Ann"}]}, 2,
     "match", "GF1 has no result yet"),
]
