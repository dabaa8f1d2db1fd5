"""The rating engine (no database): its ratings equal what openskill's Plackett-Luce answers when fed the
same results in date order, whatever order they are given in; draws are equal ranks, a partnership is
two teams of two, a three-player game a ranking of three; a rating is provisional until 10 games."""


from openskill.models import PlackettLuce

from ratings.engine import Result, conservative, rate

from .library import library_ratings


def test_the_ratings_equal_openskills_own_answer_for_the_results_in_date_order_given_in_any_order():
    played = [
        (1, ((1,), (2,)), (1, 2)),
        (2, ((2,), (3,)), (1, 2)),
        (3, ((1,), (3,)), (2, 1)),
        (4, ((1,), (2,)), (1, 2)),
    ]
    results = [Result(at, ("game", at), sides, ranks) for at, sides, ranks in played]
    standings, points = rate(reversed(results))
    expected = library_ratings([(s, list(r)) for _, s, r in played])
    assert {p: (s.mu, s.sigma) for p, s in standings.items()} == expected
    assert {p: s.games for p, s in standings.items()} == {1: 3, 2: 3, 3: 2}
    assert [(pt.player, pt.at) for pt in points] == [(1, 1), (2, 1), (2, 2), (3, 2), (1, 3), (3, 3), (1, 4), (2, 4)]
    assert (points[-2].mu, points[-2].sigma) == expected[1]


def test_a_first_win_moves_both_players_by_openskills_exact_amounts():
    standings, _ = rate([Result(0, ("game", 1), ((10,), (20,)), (1, 2))])
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert (standings[10].mu, standings[10].sigma) == (winner.mu, winner.sigma)
    assert (standings[20].mu, standings[20].sigma) == (loser.mu, loser.sigma)
    assert standings[10].mu > 25 > standings[20].mu
    assert standings[10].rating == conservative(winner.mu, winner.sigma) == winner.ordinal()


def test_a_draw_is_equal_ranks_and_leaves_two_new_players_level():
    standings, _ = rate([Result(0, ("match", 1), ((1,), (2,)), (1, 1))])
    assert standings[1].mu == standings[2].mu == 25.0
    assert standings[1].sigma == standings[2].sigma == library_ratings([(((1,), (2,)), [1, 1])])[1][1]
    assert standings[1].sigma < 25 / 3


def test_a_partnership_is_two_teams_and_a_three_player_game_a_ranking():
    partnership = (((1, 2), (3, 4)), (2, 1))
    rotation = (((1,), (3,), (5,)), (3, 1, 2))
    standings, _ = rate([Result(0, ("game", 1), *partnership), Result(1, ("game", 2), *rotation)])
    expected = library_ratings([(partnership[0], [2, 1]), (rotation[0], [3, 1, 2])])
    assert {p: (s.mu, s.sigma) for p, s in standings.items()} == expected
    assert standings[3].mu > standings[5].mu > standings[1].mu  # won twice; second; lost twice
    assert (standings[3].games, standings[4].games) == (2, 1)


def test_a_rating_is_provisional_until_ten_games():
    results = [Result(i, ("game", i), ((1,), (2 + i % 2,)), (1, 2)) for i in range(10)]
    standings, _ = rate(results[:9])
    assert (standings[1].games, standings[1].provisional) == (9, True)
    standings, _ = rate(results)
    assert (standings[1].games, standings[1].provisional) == (10, False)
    assert (standings[2].games, standings[2].provisional) == (5, True)
