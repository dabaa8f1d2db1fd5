"""Hypothesis strategies for random *valid* score sheets and convention sets."""

from hypothesis import strategies as st

from scoring.engine import PRESETS, SheetError, score_sheet

NAMES = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij ", min_size=1, max_size=8).filter(str.strip)


@st.composite
def conventions(draw):
    spec = {"preset": draw(st.sampled_from(sorted(PRESETS)))}
    for name, strategy in {
        "gin_bonus": st.integers(0, 50),
        "undercut_bonus": st.integers(0, 30),
        "box_bonus": st.integers(0, 30),
        "target": st.integers(20, 200),
        "tie_rule": st.sampled_from(["undercut", "no_score", "knocker"]),
        "box_mode": st.sampled_from(["per_hand", "net"]),
        "boxes_count_toward_target": st.booleans(),
        "shutout": st.sampled_from(["double_game_bonus", "double_total", "double_hand_points",
                                    "double_difference", "flat", "none"]),
        "shutout_bonus": st.integers(0, 200),
        "shutout_requires_all_hands": st.booleans(),
        "dealer_rule": st.sampled_from(["alternate", "loser_deals", "winner_deals"]),
        "dead_hand_rule": st.sampled_from(["same_dealer", "pass_deal"]),
        "oklahoma": st.booleans(),
        "oklahoma_extra_boxes": st.booleans(),
        "oklahoma_ace": st.sampled_from(["gin_only", "one"]),
    }.items():
        if draw(st.booleans()):
            spec[name] = draw(strategy)
    if spec.get("boxes_count_toward_target"):
        spec["box_mode"] = "per_hand"  # boxes count toward the target only when paid hand by hand
    return spec


def boxes_count(answer):
    """The box points each won box adds to the running total (0 unless boxes count toward the target)."""
    conventions = answer["conventions"]
    return conventions["box_bonus"] if conventions["boxes_count_toward_target"] else 0


@st.composite
def two_player_hand(draw, players, *, limit=10, allow_dead=True):
    """A hand that is legal whatever the deal's upcard: knocks stay within the upcard's limit."""
    results = ["knock", "gin", "big_gin"] + (["dead"] if allow_dead else [])
    result = draw(st.sampled_from(results))
    rank, suit = draw(st.sampled_from("A23456789TJQK")), draw(st.sampled_from("SHDC"))
    if result == "knock" and rank == "A":
        rank = "T"  # an ace upcard may allow gin only: keep every knock legal under any ace rule
    upcard = rank + suit
    if result == "dead":
        return {"result": "dead", "upcard": upcard}
    hand = {"result": result, "knocker": draw(st.sampled_from(players)),
            "opponent_deadwood": draw(st.integers(0, 98)), "upcard": upcard}
    if result == "knock":
        upcard_limit = 10 if rank in "TJQK" else int(rank)
        hand["knocker_deadwood"] = draw(st.integers(1, min(limit, upcard_limit)))
    return hand


def valid_sheet(draw, *, max_hands=25):
    conv = draw(conventions())
    players = draw(st.lists(NAMES, min_size=2, max_size=2, unique=True))
    hands = draw(st.lists(two_player_hand(players), max_size=max_hands))
    request = {"conventions": conv, "players": players, "hands": hands,
               "first_dealer": draw(st.sampled_from(players))}
    return truncate_at_completion(request)


def truncate_at_completion(request):
    """Drop the hands after the one that completed the game (they are rightly refused)."""
    try:
        score_sheet(request)
    except SheetError as exc:
        (problem,) = exc.problems
        assert "already complete" in problem.message, problem
        request = {**request, "hands": request["hands"][: problem.hand - 1]}
    return request


@st.composite
def sheets(draw, max_hands=25):
    return valid_sheet(draw, max_hands=max_hands)
