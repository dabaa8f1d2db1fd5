"""Ratings recomputed from the stored results: a settled game defers the job (run once committed), the
stored ratings equal openskill's answer for the results in date order, a second recompute writes the same
rows, and a correction of an old game that flips its winner moves the ratings to openskill's answer for
the new results. Partnership and three-player games, tournament matches (a forfeit left out) and a
merge of duplicate players are rated as the README says."""

import pytest

from ratings.models import PlayerRating, RatingPoint
from ratings.services import recompute_ratings
from scoring import services as scoring
from scoring.models import Game
from tournaments import services as events

from ..factories import as_actor, gin, organiser, player
from ..tournaments.stored import Officials, new_event, open_matches, play_match
from .library import library_ratings

pytestmark = pytest.mark.django_db

QUICK = {"preset": "classic", "target": 50}  # one gin with 30 deadwood ends the game


def _stored():
    return {r.player_id: (r.mu, r.sigma) for r in PlayerRating.objects.all()}


def _club_game(players, winner, fmt="standard"):
    boss = as_actor(organiser())
    g = scoring.create_game(actor=boss, format=fmt, players=players, conventions=QUICK, requires_confirmation=False)
    scoring.record_hand(actor=boss, game=g, data=gin(winner, 30))
    g.refresh_from_db()
    assert g.status == Game.Status.COMPLETE
    return g


def test_settling_a_game_recomputes_the_ratings_once_committed(django_capture_on_commit_callbacks):
    ann, bob = player("Ann"), player("Bob")
    with django_capture_on_commit_callbacks(execute=True):
        _club_game([ann, bob], "Ann")
    assert _stored() == library_ratings([(((ann.pk,), (bob.pk,)), [1, 2])])
    assert list(PlayerRating.objects.order_by("rank").values_list("player_id", "rank", "games")) == [
        (ann.pk, 1, 1), (bob.pk, 2, 1)]


def test_a_corrected_old_game_moves_the_ratings_to_openskills_answer_for_the_new_results(
        django_capture_on_commit_callbacks):
    ann, bob, cleo = player("Ann"), player("Bob"), player("Cleo")
    with django_capture_on_commit_callbacks(execute=True):
        first = _club_game([ann, bob], "Ann")
        _club_game([bob, cleo], "Bob")
        _club_game([ann, cleo], "Cleo")
    a, b, c = (ann.pk,), (bob.pk,), (cleo.pk,)
    before = library_ratings([((a, b), [1, 2]), ((b, c), [1, 2]), ((a, c), [2, 1])])
    assert _stored() == before
    with django_capture_on_commit_callbacks(execute=True):
        scoring.correct_hand(actor=as_actor(organiser()), game=first, number=1, data=gin("Bob", 30), reason="misread")
    after = library_ratings([((a, b), [2, 1]), ((b, c), [1, 2]), ((a, c), [2, 1])])
    assert _stored() == after
    assert after[ann.pk][0] < before[ann.pk][0]
    assert after[bob.pk][0] > before[bob.pk][0]
    # The corrected game keeps its place in time: Bob's first point is still game 1's.
    assert list(RatingPoint.objects.filter(player=bob).order_by("number").values_list("number", flat=True)) == [1, 2]


def test_a_recompute_from_scratch_equals_the_stored_ratings_row_for_row():
    ann, bob, cleo = player("Ann"), player("Bob"), player("Cleo")
    _club_game([ann, bob], "Bob")
    _club_game([cleo, ann], "Cleo")
    assert recompute_ratings() == 2

    def rows():
        return (list(PlayerRating.objects.order_by("rank").values_list("player_id", "mu", "sigma", "rating", "games",
                                                                       "rank")),
                list(RatingPoint.objects.order_by("player_id", "number").values_list("player_id", "number", "at", "mu",
                                                                                     "sigma")))

    first = rows()
    assert recompute_ratings() == 2
    assert rows() == first
    assert len(first[1]) == 4


def test_partnership_and_three_player_games_are_rated_as_teams_and_as_a_ranking():
    ann, bob, cleo, dev = (player(n) for n in ("Ann", "Bob", "Cleo", "Dev"))
    boss = as_actor(organiser())
    teams = scoring.create_game(actor=boss, format="partnership", players=[ann, bob, cleo, dev], conventions=QUICK,
                                requires_confirmation=False)
    deals = [["Cleo", "Dev"], ["Dev", "Cleo"]]  # opponents alternate every deal
    for deal in range(6):
        if Game.objects.get(pk=teams.pk).status == Game.Status.COMPLETE:
            break
        scoring.record_hand(actor=boss, game=teams, data={"tables": [gin(n, 30) for n in deals[deal % 2]]})
    summary = Game.objects.get(pk=teams.pk).summary
    assert summary["winner"] == "Cleo & Dev", summary
    rotation = scoring.create_game(actor=boss, format="rotation", players=[ann, bob, cleo],
                                   conventions={"preset": "classic", "target": 100}, requires_confirmation=False)
    played = 0
    while Game.objects.get(pk=rotation.pk).status != Game.Status.COMPLETE:
        answer = scoring.record_hand(actor=boss, game=rotation, data=gin("Bob", 30))[1]
        played += 1
        assert played < 6, answer
    totals = Game.objects.get(pk=rotation.pk).summary["totals"]
    assert (totals["Ann"], totals["Cleo"]) == (0, 0)
    assert totals["Bob"] >= 100
    recompute_ratings()
    a, b, c = ((p.pk,) for p in (ann, bob, cleo))
    assert _stored() == library_ratings([(((ann.pk, bob.pk), (cleo.pk, dev.pk)), [2, 1]), ((a, b, c), [2, 1, 2])])
    assert PlayerRating.objects.get(player=dev).games == 1


def test_a_decided_match_counts_once_and_a_forfeit_not_at_all():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3, conventions=QUICK)
    events.pair_next_round(actor=people.dir, event=event)
    played, forfeited = open_matches(event, 1)
    play_match(people, played, played.players.get(side=1).entry.player.display_name)
    winner = forfeited.players.get(side=0).entry
    events.record_forfeit(actor=people.dir, match=forfeited, winner=winner, reason="no show")
    assert recompute_ratings() == 1
    sides = [p.entry.player_id for p in played.players.order_by("side")]
    assert _stored() == library_ratings([(((sides[0],), (sides[1],)), [2, 1])])
    assert not PlayerRating.objects.filter(player_id=winner.player_id).exists()


def test_a_directors_draw_of_a_played_match_is_rated_as_equal_ranks(django_capture_on_commit_callbacks):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1, conventions={"preset": "classic", "target": 500})
    events.pair_next_round(actor=people.dir, event=event)
    (match,) = open_matches(event, 1)
    g = match.match_games.get().game
    scoring.record_hand(actor=as_actor(people.recorder), game=g, data=gin(g.player_names[0], 10))
    with django_capture_on_commit_callbacks(execute=True):
        events.record_adjusted_result(actor=people.dir, match=match, winner=None, margin=0, reason="time")
    a, b = (p.entry.player_id for p in match.players.order_by("side"))
    assert _stored() == library_ratings([(((a,), (b,)), [1, 1])])


def test_merging_a_duplicate_rates_its_games_as_the_kept_players(django_capture_on_commit_callbacks):
    ann, bob, duplicate = player("Ann"), player("Bob"), player("Bob Dup")
    _club_game([ann, bob], "Ann")
    _club_game([duplicate, ann], "Bob Dup")
    recompute_ratings()
    assert PlayerRating.objects.count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        scoring.merge_player(actor=as_actor(organiser()), player=duplicate, into=bob)
    assert _stored() == library_ratings([(((ann.pk,), (bob.pk,)), [1, 2]), (((bob.pk,), (ann.pk,)), [1, 2])])
