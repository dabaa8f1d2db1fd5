"""The points race worked by hand, on the plain engine (no database): placement points, best N of M nights,
shared places, what counts, and a correction changing a placement."""

from datetime import date

import pytest

from seasons.engine import EventPlacings, PointsTable, combine_stages, ladder, placement_points, shared_places

TABLE = PointsTable(placement=[10, 7, 5, 4], finisher=1, night=2, best_nights=3, counts="both")
NAMES = {1: "Ann", 2: "Bob", 3: "Cleo", 4: "Dev", 5: "Eve", 6: "Fay"}


def nights(*days):
    return [date(2025, 3, d) for d in days]


def rows(found):
    return [(r.place, r.name, r.points, r.placement_points, r.night_points, r.events, r.nights_counted)
            for r in found]


def test_placement_points_come_from_the_table_then_every_finisher_gets_the_finishers_points():
    assert [placement_points(TABLE, p) for p in range(1, 8)] == [10, 7, 5, 4, 1, 1, 1]


def test_equal_scores_share_a_place_and_the_next_place_skips():
    assert shared_places([9, 7, 7, 3]) == [1, 2, 2, 4]
    assert shared_places([5, 5, 5]) == [1, 1, 1]
    assert shared_places([]) == []


def test_best_3_of_5_nights_counts_three_nights_the_earliest_three():
    found = ladder(TABLE, [], {1: nights(4, 11, 18, 25, 27), 2: nights(4, 11)}, NAMES)
    assert rows(found) == [(1, "Ann", 6, 0, 6, 0, 3), (2, "Bob", 4, 0, 4, 0, 2)]
    assert [(n.on.day, n.points, n.counted) for n in found[0].nights] == [
        (4, 2, True), (11, 2, True), (18, 2, True), (25, 0, False), (27, 0, False)]


def test_two_games_on_one_night_are_one_night():
    found = ladder(TABLE, [], {1: [date(2025, 3, 4), date(2025, 3, 4)]}, NAMES)
    assert rows(found) == [(1, "Ann", 2, 0, 2, 0, 1)]


def test_every_night_counts_when_best_nights_is_none():
    table = PointsTable(placement=[10], finisher=1, night=1, best_nights=None)
    assert rows(ladder(table, [], {1: nights(1, 2, 3, 4, 5)}, NAMES)) == [(1, "Ann", 5, 0, 5, 0, 5)]


def test_a_hand_worked_ladder_of_two_events_and_nights_with_ties_sharing_places():
    spring = EventPlacings(10, "Spring Swiss", date(2025, 3, 6), {1: 1, 2: 2, 3: 3, 4: 4, 5: 5})
    cup = EventPlacings(11, "Cup", date(2025, 3, 20), {2: 1, 1: 2, 3: 3, 4: 3})  # two semi-final losers share 3rd
    found = ladder(TABLE, [spring, cup], {3: nights(4, 11, 18, 25), 5: nights(4), 6: nights(4, 11)}, NAMES)
    # Ann 10+7=17; Bob 7+10=17; Cleo 5+5 + 3 nights of 4 counted = 16; Dev 4+5=9; Eve 1 + 2 = 3; Fay 4.
    assert rows(found) == [
        (1, "Ann", 17, 17, 0, 2, 0),
        (1, "Bob", 17, 17, 0, 2, 0),
        (3, "Cleo", 16, 10, 6, 2, 3),
        (4, "Dev", 9, 9, 0, 2, 0),
        (5, "Fay", 4, 0, 4, 0, 2),
        (6, "Eve", 3, 1, 2, 1, 1),
    ]
    assert [(r.name, r.place, r.points) for r in found[3].results] == [("Spring Swiss", 4, 4), ("Cup", 3, 5)]


def test_a_correction_changing_a_placement_is_worked_out_again_and_moves_the_ladder():
    before = EventPlacings(10, "Swiss", date(2025, 3, 6), {1: 1, 2: 2, 3: 3})
    after = EventPlacings(10, "Swiss", date(2025, 3, 6), {2: 1, 1: 2, 3: 3})  # the final hand corrected
    table = PointsTable(placement=[10, 7, 5], finisher=1, night=1)
    assert rows(ladder(table, [before], {1: nights(4)}, NAMES)) == [
        (1, "Ann", 11, 10, 1, 1, 1), (2, "Bob", 7, 7, 0, 1, 0), (3, "Cleo", 5, 5, 0, 1, 0)]
    assert rows(ladder(table, [after], {1: nights(4)}, NAMES)) == [
        (1, "Bob", 10, 10, 0, 1, 0), (2, "Ann", 8, 7, 1, 1, 1), (3, "Cleo", 5, 5, 0, 1, 0)]


@pytest.mark.parametrize(("counts", "expected"), [
    ("club", [(1, "Bob", 2, 0, 2, 0, 1)]),
    ("events", [(1, "Ann", 10, 10, 0, 1, 0)]),
    ("both", [(1, "Ann", 10, 10, 0, 1, 0), (2, "Bob", 2, 0, 2, 0, 1)]),
])
def test_a_season_counts_club_nights_events_or_both(counts, expected):
    table = PointsTable(placement=[10], finisher=0, night=2, counts=counts)
    event = EventPlacings(10, "Swiss", date(2025, 3, 6), {1: 1})
    assert rows(ladder(table, [event], {2: nights(4)}, NAMES)) == expected


def test_adding_results_never_lowers_anyones_total():
    table = PointsTable(placement=[10, 7, 5, 4], finisher=1, night=2, best_nights=2)
    first = EventPlacings(10, "A", date(2025, 3, 6), {1: 1, 2: 2})
    second = EventPlacings(11, "B", date(2025, 3, 13), {2: 1, 1: 2, 3: 3})
    before = {r.player: r.points for r in ladder(table, [first], {1: nights(1, 2)}, NAMES)}
    after = {r.player: r.points for r in ladder(table, [first, second], {1: nights(1, 2, 3), 2: nights(3)}, NAMES)}
    assert all(after[p] >= points for p, points in before.items())
    assert after == {1: 21, 2: 19, 3: 5}


def test_a_knockout_from_a_swiss_is_one_event_its_players_first_then_the_swiss_order():
    swiss = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5}
    knockout = {3: 1, 1: 2, 2: 3, 4: 3}
    assert combine_stages(knockout, swiss) == {3: 1, 1: 2, 2: 3, 4: 3, 5: 5, 6: 5}


def test_points_are_never_negative_and_best_nights_is_at_least_one():
    with pytest.raises(ValueError, match="never negative"):
        PointsTable(placement=[10, -1], finisher=0, night=1)
    with pytest.raises(ValueError, match="at least 1"):
        PointsTable(placement=[10], finisher=0, night=1, best_nights=0)
