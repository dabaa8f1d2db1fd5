"""Presets carry exactly RULES.md's table; overrides go field by field; bad values are refused clearly."""

import pytest

from scoring.engine import PRESETS, SheetError, resolve_conventions

# preset: gin, big gin, undercut, target, game, box, box_mode, shutout, dealer, dead hand
RULES_TABLE = {
    "classic": (20, None, 10, 100, 100, 20, "per_hand", "double_game_bonus", "loser_deals", "same_dealer"),
    "cardgames": (25, 31, 25, 100, 100, 25, "per_hand", "double_hand_points", "alternate", "same_dealer"),
    "modern": (25, 50, 15, 100, 100, 25, "per_hand", "double_hand_points", "alternate", "same_dealer"),
    "online": (25, None, 25, 100, 100, 25, "per_hand", "double_game_bonus", "alternate", "same_dealer"),
    "parlett": (20, None, 20, 100, 100, 20, "net", "double_difference", "alternate", "pass_deal"),
    "oklahoma": (20, None, 10, 150, 100, 20, "per_hand", "double_game_bonus", "loser_deals", "same_dealer"),
}
COLUMNS = ("gin_bonus", "big_gin_bonus", "undercut_bonus", "target", "game_bonus", "box_bonus",
           "box_mode", "shutout", "dealer_rule", "dead_hand_rule")


@pytest.mark.parametrize("name", sorted(RULES_TABLE))
def test_each_preset_matches_the_rules_table(name):
    resolved = resolve_conventions(name).as_dict()
    assert tuple(resolved[c] for c in COLUMNS) == RULES_TABLE[name]
    assert resolved["knock_limit"] == 10
    assert resolved["tie_rule"] == "undercut"
    assert resolved["preset"] == name


def test_only_the_cardgames_preset_requires_winning_every_hand_for_a_shutout():
    assert [n for n, c in PRESETS.items() if c.shutout_requires_all_hands] == ["cardgames"]


def test_oklahoma_is_classic_with_oklahoma_on_ace_gin_only_spades_double_no_extra_boxes():
    ok = resolve_conventions("oklahoma").as_dict()
    classic = resolve_conventions("classic").as_dict()
    differing = {k for k in ok if ok[k] != classic[k]}
    assert differing == {"preset", "oklahoma", "target"}
    assert (ok["oklahoma_ace"], ok["spade_doubles"], ok["oklahoma_extra_boxes"]) == ("gin_only", True, False)


def test_an_override_changes_only_its_own_field():
    base = resolve_conventions("classic").as_dict()
    changed = resolve_conventions({"preset": "classic", "gin_bonus": 25, "knock_limit": 0}).as_dict()
    assert {k for k in base if base[k] != changed[k]} == {"gin_bonus", "knock_limit"}
    assert changed["gin_bonus"] == 25


def test_a_stored_resolved_set_resolves_to_itself():
    stored = resolve_conventions({"preset": "parlett", "undercut_bonus": 25, "oklahoma": True}).as_dict()
    assert resolve_conventions(stored).as_dict() == stored


def test_an_object_without_a_preset_starts_from_classic():
    assert resolve_conventions({"gin_bonus": 30}).as_dict()["undercut_bonus"] == 10


def test_big_gin_bonus_may_be_null_meaning_scored_as_gin():
    assert resolve_conventions({"preset": "modern", "big_gin_bonus": None}).big_gin_bonus is None


@pytest.mark.parametrize(
    ("spec", "field", "message"),
    [
        ("bridge", "conventions", "unknown preset 'bridge'"),
        ({"preset": "bridge"}, "conventions.preset", "unknown preset 'bridge'"),
        ({"gin_bonnus": 25}, "conventions.gin_bonnus", "unknown convention 'gin_bonnus'"),
        ({"gin_bonus": "25"}, "conventions.gin_bonus", "must be a whole number"),
        ({"gin_bonus": True}, "conventions.gin_bonus", "must be a whole number"),
        ({"gin_bonus": -5}, "conventions.gin_bonus", "between 0 and 1000"),
        ({"knock_limit": 11}, "conventions.knock_limit", "between 0 and 10"),
        ({"target": 0}, "conventions.target", "between 1 and 10000"),
        ({"box_mode": "gross"}, "conventions.box_mode", "one of per_hand, net"),
        ({"oklahoma": "yes"}, "conventions.oklahoma", "true or false"),
        ({"undercut_bonus": None}, "conventions.undercut_bonus", "must not be null"),
        (42, "conventions", "preset name or an object"),
    ],
)
def test_bad_conventions_are_refused_naming_the_field(spec, field, message):
    with pytest.raises(SheetError) as caught:
        resolve_conventions(spec)
    (problem,) = caught.value.problems
    assert problem.field == field
    assert message in problem.message
    assert problem.hand is None


def test_every_bad_field_is_reported_at_once():
    with pytest.raises(SheetError) as caught:
        resolve_conventions({"gin_bonus": -1, "nonsense": 1, "tie_rule": "coin_toss"})
    assert {p.field for p in caught.value.problems} == {
        "conventions.gin_bonus", "conventions.nonsense", "conventions.tie_rule"}


@pytest.mark.parametrize(("field", "accepted", "refused"), [("gin_bonus", 1, True), ("oklahoma", True, 1),
                                                        ("gin_bonus", 0, False), ("oklahoma", False, 0)])
@pytest.mark.parametrize("accepted_first", [True, False])
def test_a_remembered_set_is_not_taken_for_one_whose_values_only_compare_equal(field, accepted, refused,
                                                                              accepted_first):
    # Sets are remembered by their items, and 1 == True in Python: a bonus of true and a switch of 1 are
    # still refused, whichever was resolved first.
    def accept():
        value = resolve_conventions({"preset": "classic", field: accepted}).as_dict()[field]
        assert (value, type(value)) == (accepted, type(accepted))

    def refuse():
        with pytest.raises(SheetError) as caught:
            resolve_conventions({"preset": "classic", field: refused})
        assert caught.value.problems[0].field == f"conventions.{field}"

    for step in (accept, refuse) if accepted_first else (refuse, accept, refuse):
        step()


def test_a_set_with_a_list_in_it_is_still_refused_naming_the_field():
    with pytest.raises(SheetError) as caught:
        resolve_conventions({"preset": "classic", "gin_bonus": [25]})
    (problem,) = caught.value.problems
    assert problem.field == "conventions.gin_bonus"


def test_as_dict_is_a_new_dict_each_time():
    first = resolve_conventions("classic").as_dict()
    first["gin_bonus"] = 999
    assert resolve_conventions("classic").as_dict()["gin_bonus"] == 20
