"""Issue 12's engine part through every door: ``manage.py score``, ``POST /api/v1/score/`` and stored games.

The figures are the hand-worked examples of tests/engine/test_club_conventions.py and
tests/engine/test_jersey_cards.py, repeated here so a break in any door shows on its own.
"""

import json

import pytest

from core.refusals import Refusal
from scoring import services
from scoring.models import Game

from ..factories import as_actor, game, gin, knock, user
from .test_calculator import post, run_command

pytestmark = pytest.mark.django_db

# online: gin 25, box 25; ties to the knocker, a flat shutout bonus of 75, boxes toward the target.
# Ann's tie: 0 + box 25; Ann's gin 50 + 25 = 75 + box 25: 125, game; Bob scoreless.
ALL_THREE = {"preset": "online", "tie_rule": "knocker", "shutout": "flat", "shutout_bonus": 75,
             "boxes_count_toward_target": True}
ALL_THREE_HANDS = [knock("Ann", 6, 6), gin("Ann", 50)]
ANN_SETTLED = {"points": 75, "hands_won": 2, "boxes": 2, "box_bonus": 50, "game_bonus": 100, "shutout_bonus": 75,
               "total": 300}

# RULES.md's Jersey example with cards: A knocks with 5, B has 12 after laying off 4S, C 20: A scores 22.
JERSEY_CARDS = {"result": "knock", "knocker": "Ann",
                "knocker_cards": "AS 2S 3S 7H 7D 7C JD QD KD 5C".split(),
                "opponents_cards": {"Bob": "4S 8C 9C TC 9H TH JH 6D 4D 2C".split(),
                                    "Cleo": "5S 8D 9D TD QS QH QC 6H 6C 3D".split()}}


def both_doors(body, monkeypatch):
    """The command's answer, having checked that the API gives the very same one."""
    code, answer = run_command(json.dumps(body), monkeypatch)
    response = post(body)
    assert response.json() == answer
    assert (code, response.status_code) in ((0, 200), (2, 400))
    return answer


def test_the_new_conventions_score_the_worked_example_through_both_doors(monkeypatch):
    answer = both_doors({"conventions": ALL_THREE, "players": ["Ann", "Bob"], "hands": ALL_THREE_HANDS},
                        monkeypatch)
    assert [(h["outcome"], h["winner"], h["points"]) for h in answer["hands"]] == [("knock", "Ann", 0),
                                                                                   ("gin", "Ann", 75)]
    assert [h["totals"] for h in answer["hands"]] == [{"Ann": 25, "Bob": 0}, {"Ann": 125, "Bob": 0}]
    assert answer["players"]["Ann"] == ANN_SETTLED
    assert (answer["complete"], answer["winner"], answer["margin"]) == (True, "Ann", 300)
    resolved = answer["conventions"]
    assert (resolved["tie_rule"], resolved["shutout"], resolved["shutout_bonus"],
            resolved["boxes_count_toward_target"]) == ("knocker", "flat", 75, True)


def test_a_jersey_card_hand_through_both_doors(monkeypatch):
    answer = both_doors({"format": "jersey", "players": ["Ann", "Bob", "Cleo"], "hands": [JERSEY_CARDS]},
                        monkeypatch)
    hand = answer["hands"][0]
    assert hand["deadwood"] == {"Ann": 5, "Bob": 12, "Cleo": 20}
    assert (hand["winner"], hand["points"]) == ("Ann", 22)
    assert hand["opponents_layoffs"] == {"Bob": [{"card": "4S", "meld": ["AS", "2S", "3S"]}], "Cleo": []}
    assert sorted(hand["opponents_deadwood_cards"]["Cleo"]) == ["3D", "5S", "6C", "6H"]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"conventions": {"preset": "parlett", "boxes_count_toward_target": True}, "players": ["Ann", "Bob"]},
         "conventions.boxes_count_toward_target", "box_mode per_hand"),
        ({"conventions": {"tie_rule": "dealer"}, "players": ["Ann", "Bob"]}, "conventions.tie_rule",
         "undercut, no_score, knocker"),
        ({"conventions": {"shutout": "flat", "shutout_bonus": 5000}, "players": ["Ann", "Bob"]},
         "conventions.shutout_bonus", "between 0 and 1000"),
        ({"format": "jersey", "players": ["Ann", "Bob", "Cleo"], "hands": [{**JERSEY_CARDS, "deadwood": {"Bob": 16}}]},
         "deadwood.Bob", "16 recorded, but Bob's cards leave 12 after lay-offs (4D 6D 2C)"),
        ({"format": "jersey", "players": ["Ann", "Bob", "Cleo"], "hands": [
            {**JERSEY_CARDS, "opponents_cards": {"Bob": JERSEY_CARDS["opponents_cards"]["Bob"],
                                                 "Cleo": ["4S", *JERSEY_CARDS["opponents_cards"]["Cleo"][1:]]}}]},
         "opponents_cards.Cleo", "4S cannot be in both Bob's and Cleo's hands"),
    ],
)
def test_bad_new_conventions_and_jersey_cards_are_refused_the_same_at_both_doors(body, field, message, monkeypatch):
    answer = both_doors(body, monkeypatch)
    (error,) = answer["errors"]
    assert error["field"] == field
    assert message in error["message"]


# ---------------------------------------------------------------------------------------------------
# Stored games: the sheet is scored through scoring/sheets.py from the stored hands and conventions


def stored_game(names, conventions, fmt="standard"):
    return game(names=names, conventions=conventions, fmt=fmt, requires_confirmation=False,
                referees=[user()])


def record_all(g, hands):
    referee = as_actor(g.referees.get())
    sheet = None
    for data in hands:
        _, sheet = services.record_hand(actor=referee, game=g, data=data)
    return sheet


def test_a_stored_game_with_the_new_conventions_scores_the_worked_example():
    g = stored_game(("Ann", "Bob"), ALL_THREE)
    sheet = record_all(g, ALL_THREE_HANDS)
    assert [h["totals"] for h in sheet["hands"]] == [{"Ann": 25, "Bob": 0}, {"Ann": 125, "Bob": 0}]
    assert sheet["players"]["Ann"] == ANN_SETTLED
    g.refresh_from_db()
    assert (g.status, g.summary["winner"], g.summary["margin"]) == (Game.Status.COMPLETE, "Ann", 300)
    assert g.conventions["shutout_bonus"] == 75
    with pytest.raises(Refusal, match="already complete after hand 2"):
        services.record_hand(actor=as_actor(g.referees.get()), game=g, data=knock("Bob", 2, 9))


def test_a_stored_jersey_game_scores_card_hands():
    g = stored_game(("Ann", "Bob", "Cleo"), {"preset": "classic", "tie_rule": "knocker"}, fmt="jersey")
    sheet = record_all(g, [JERSEY_CARDS, {"result": "knock", "knocker": "Bob", "knocker_deadwood": 6,
                                          "deadwood": {"Cleo": 6, "Ann": 15}}])
    # hand 2: Cleo level with Bob does not undercut under the knocker tie rule: Bob wins 0 + 9
    assert [(h["winner"], h["points"]) for h in sheet["hands"]] == [("Ann", 22), ("Bob", 9)]
    assert sheet["hands"][0]["opponents_layoffs"]["Bob"] == [{"card": "4S", "meld": ["AS", "2S", "3S"]}]
    g.refresh_from_db()
    assert g.summary["totals"] == {"Ann": 22 + 20, "Bob": 9 + 20, "Cleo": 0}


def test_a_game_stored_before_these_conventions_existed_scores_as_it_did():
    """Stored convention sets written before the new fields lack them: they resolve to today's scoring."""
    g = stored_game(("Ann", "Bob"), "classic")
    g.conventions = {k: v for k, v in g.conventions.items()
                     if k not in ("shutout_bonus", "boxes_count_toward_target")}
    g.save(update_fields=["conventions"])
    sheet = record_all(g, [knock("Ann", 7, 7)])
    hand = sheet["hands"][0]
    assert (hand["outcome"], hand["winner"], hand["points"]) == ("undercut", "Bob", 10)
    assert sheet["conventions"]["boxes_count_toward_target"] is False
