"""The tournament services' rules, errors, constraints, permissions and query counts."""

import random

import pytest
from django.db import IntegrityError, transaction

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Game, Player
from scoring.policy import NotAllowed, is_official
from tournaments import policy, selectors, services
from tournaments.models import Entry, Event, Match, MatchGame, MatchPlayer, MatchResult, Round

from ..factories import as_actor, gin, organiser, player, user
from .stored import Officials, entry, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def _fields(exc_info):
    return [(p.field, p.message) for p in exc_info.value.problems]


def _play_round(people, event, number, winner_of=min):
    for m in open_matches(event, number):
        names = sorted(p.entry.player.display_name for p in m.players.select_related("entry__player"))
        play_match(people, m, winner_of(names))


# --- events and entries -----------------------------------------------------------------------------

def test_create_event_freezes_conventions_and_resolves_options():
    people = Officials()
    event = services.create_event(actor=people.boss, name=" Club night ", format="swiss", conventions="oklahoma",
                                  match_points={"win": 3}, directors=[people.director])
    assert event.name == "Club night"
    assert event.conventions["target"] == 150
    assert event.conventions["oklahoma"] is True
    assert event.match_points == {"win": 3, "draw": 1, "loss": 0, "bye": 2}
    assert event.tiebreaks == ["match_points", "buchholz", "margin", "head_to_head"]
    assert event.status == Event.Status.REGISTRATION


def test_create_event_names_every_bad_field():
    people = Officials()
    with pytest.raises(Refusal) as exc:
        services.create_event(actor=people.boss, name="", format="swiss", conventions={"preset": "nope"},
                              tiebreaks=["match_points", "luck"], match_points={"win": -1}, match_format="bo5")
    fields = [f for f, _ in _fields(exc)]
    assert fields == ["name", "match_format", "conventions.preset", "match_points.win", "tiebreaks.1"]
    with pytest.raises(Refusal) as exc:
        services.create_event(actor=people.boss, name="RR", format="round_robin", rounds=3, third_place=True)
    assert [f for f, _ in _fields(exc)] == ["rounds", "third_place"]
    with pytest.raises(Refusal) as exc:
        services.create_event(actor=people.boss, name="X", format="ladder")
    assert _fields(exc) == [("format", "must be one of round_robin, swiss, single_elimination, double_elimination; "
                                       "'ladder' given")]


def test_entries_from_a_pasted_csv_with_ratings_and_clear_line_errors():
    people = Officials()
    event = services.create_event(actor=people.boss, name="E", format="swiss", directors=[people.director])
    existing = player("Zed")
    with pytest.raises(Refusal) as exc:
        services.add_entries_from_text(actor=people.dir, event=event,
                                       text="name,rating\nAnn,1500\nBob,strong\n\nann\nCleo,1,2\n")
    assert _fields(exc) == [
        ("lines.3", "line 3: the rating must be a whole number; 'strong' given"),
        ("lines.6", "line 6: expected a name, or name,rating; 3 columns given"),
    ]
    with pytest.raises(Refusal) as exc:
        services.add_entries_from_text(actor=people.dir, event=event, text="Ann,1500\nann\n")
    assert _fields(exc) == [("lines.2", "line 2: ann is already on line 1")]
    assert Entry.objects.count() == 0
    made = services.add_entries_from_text(actor=people.dir, event=event, text="Ann,1500\nBob\nzed,1200\n")
    assert [(e.player.display_name, e.rating) for e in made] == [("Ann", 1500), ("Bob", None), ("Zed", 1200)]
    assert made[2].player == existing  # found case-insensitively, not duplicated
    with pytest.raises(Refusal) as exc:
        services.add_entries_from_text(actor=people.dir, event=event, text="BOB\n")
    assert _fields(exc) == [("lines.1", "line 1: Bob is already entered")]
    with pytest.raises(Refusal) as exc:
        services.add_entry(actor=people.dir, event=event, player=existing)
    assert _fields(exc) == [("player", "Zed is already entered in E")]
    with pytest.raises(Refusal) as exc:
        services.add_entry(actor=people.dir, event=event, name="  ")
    assert _fields(exc) == [("player", "give a player, or a name for a new one")]
    services.add_entry(actor=people.dir, event=event, name="Dan", seed=1)
    with pytest.raises(Refusal) as exc:
        services.add_entry(actor=people.dir, event=event, name="Cleo", seed=1)
    assert _fields(exc) == [("seed", "seed 1 is already taken in E")]
    assert Player.objects.filter(display_name__iexact="zed").count() == 1


def test_seeding_by_hand_by_rating_and_at_random_with_the_order_stored():
    people = Officials()
    event = services.create_event(actor=people.boss, name="E", format="single_elimination",
                                  directors=[people.director])
    services.add_entries_from_text(actor=people.dir, event=event, text="Ann,1400\nBob\nCleo,1600\nDev,1500\n")
    ids = {e.player.display_name: e.pk for e in Entry.objects.filter(event=event).select_related("player")}
    seeded = services.seed_entries(actor=people.dir, event=event, method="rating")
    assert [(e.player.display_name, e.seed) for e in seeded] == [("Cleo", 1), ("Dev", 2), ("Ann", 3), ("Bob", 4)]
    seeded = services.seed_entries(actor=people.dir, event=event, method="manual", order=[ids["Bob"], ids["Ann"]])
    assert [e.seed for e in seeded] == [1, 2]
    assert dict(Entry.objects.filter(event=event).values_list("player__display_name", "seed")) == {
        "Bob": 1, "Ann": 2, "Cleo": None, "Dev": None}
    seeded = services.seed_entries(actor=people.dir, event=event, method="random", rng=random.Random(7))
    order = [e.pk for e in seeded]
    event.refresh_from_db()
    assert event.seeding["method"] == "random"
    assert event.seeding["order"] == order
    assert sorted(order) == sorted(ids.values())
    assert [r["id"] for r in selectors.entries(event)] == order
    with pytest.raises(Refusal) as exc:
        services.seed_entries(actor=people.dir, event=event, method="manual", order=[ids["Ann"], ids["Ann"], 999])
    assert _fields(exc) == [("order.2", "999 is not an entry of E"), ("order", "an entry is listed twice")]
    with pytest.raises(Refusal, match="manual, rating, openskill or random"):
        services.seed_entries(actor=people.dir, event=event, method="alphabet")


def test_late_entry_joins_a_running_swiss_with_nothing_before():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    late = services.add_entry(actor=people.dir, event=event, name="Eve")
    assert late.joined_round == 2
    _play_round(people, event, 1)
    opened = services.pair_next_round(actor=people.dir, event=event)
    assert any(m.is_bye for m in opened.matches)
    row = next(r for r in selectors.standings(event) if r["name"] == "Eve")
    # 0 match points before round 2; the lowest of five, so round 2's bye is hers
    assert (row["played"], row["byes"], row["match_points"]) == (0, 1, 2)
    assert selectors.event_document(event)["entries"][-1] == {"name": "Eve", "joined": 2}
    rr = new_event(people, names=["Ann", "Bob", "Cleo"], fmt="round_robin")
    services.pair_next_round(actor=people.dir, event=rr)
    with pytest.raises(Refusal, match="only during registration"):
        services.add_entry(actor=people.dir, event=rr, name="Dev")


def test_drop_entry_keeps_results_and_is_not_paired_again():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    dev = entry(event, "Dev")
    with pytest.raises(Refusal) as exc:
        services.drop_entry(actor=people.dir, entry=dev, after_round=0)
    assert _fields(exc)[0][0] == "after_round"
    services.drop_entry(actor=people.dir, entry=dev, reason="train")
    with pytest.raises(Refusal, match="already dropped after round 1"):
        services.drop_entry(actor=people.dir, entry=dev)
    _play_round(people, event, 1)
    opened = services.pair_next_round(actor=people.dir, event=event)
    assert dev.pk not in {p.entry_id for m in opened.matches for p in m.players.all()}
    assert next(r for r in selectors.standings(event) if r["name"] == "Dev")["dropped"] is True


# --- rounds ------------------------------------------------------------------------------------------

def test_pairing_refuses_while_a_round_is_being_played_and_the_first_round_folds_the_seeds():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    services.seed_entries(actor=people.dir, event=event, method="manual",
                          order=[entry(event, n).pk for n in ["Ann", "Bob", "Cleo", "Dev"]])
    opened = services.pair_next_round(actor=people.dir, event=event)
    assert [[p.entry.player.display_name for p in m.players.order_by("side")] for m in opened.matches] == [
        ["Ann", "Cleo"], ["Bob", "Dev"]]
    with pytest.raises(Refusal) as exc:
        services.pair_next_round(actor=people.dir, event=event)
    assert _fields(exc) == [("round", "round 1 is still being played: pair the next round once every match in "
                                      "it has a result")]
    assert Round.objects.filter(event=event).count() == 1


def test_swap_in_a_draft_round_reports_rematches_and_the_bye_rule_and_needs_confirming():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3)
    services.seed_entries(actor=people.dir, event=event, method="manual",
                          order=[entry(event, n).pk for n in ["Ann", "Bob", "Cleo", "Dev", "Eve"]])
    services.pair_next_round(actor=people.dir, event=event)  # Ann-Cleo, Bob-Dev, Eve bye
    _play_round(people, event, 1)
    opened = services.pair_next_round(actor=people.dir, event=event, publish=False)
    rnd = opened.round
    assert rnd.status == Round.Status.DRAFT
    assert not MatchGame.objects.filter(match__round=rnd).exists()  # games are made when it is published
    def pairs():
        return sorted(sorted(p.entry.player.display_name for p in m.players.all())
                      for m in Match.objects.filter(round=rnd))

    assert pairs() == [["Ann", "Bob"], ["Cleo", "Eve"], ["Dev"]]
    ann, bob, cleo, dev, eve = (entry(event, n) for n in ["Ann", "Bob", "Cleo", "Dev", "Eve"])
    with pytest.raises(Refusal) as exc:
        services.swap_entries(actor=people.dir, round=rnd, first=bob, second=cleo)
    assert _fields(exc) == [("confirm", "this swap makes a rematch: Cleo and Ann have already played each other. "
                                        "Confirm to swap anyway")]
    assert services.swap_warnings(round=rnd, first=dev, second=eve) == [
        "breaks the bye rule: Eve already had a bye, and Ann has not: the bye goes to an entry without one first"]
    assert pairs() == [["Ann", "Bob"], ["Cleo", "Eve"], ["Dev"]]  # nothing changed by a refusal
    assert services.swap_entries(actor=people.dir, round=rnd, first=bob, second=eve) == []
    assert pairs() == [["Ann", "Eve"], ["Bob", "Cleo"], ["Dev"]]
    assert services.swap_entries(actor=people.dir, round=rnd, first=dev, second=eve, confirm=True) == [
        "breaks the bye rule: Eve already had a bye, and Ann has not: the bye goes to an entry without one first"]
    assert pairs() == [["Ann", "Dev"], ["Bob", "Cleo"], ["Eve"]]
    with pytest.raises(Refusal, match="already play each other"):
        services.swap_entries(actor=people.dir, round=rnd, first=ann, second=dev)
    published = services.publish_round(actor=people.dir, round=rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert len(published.tokens) == 2
    assert Game.objects.filter(pk__in=published.tokens).count() == 2
    with pytest.raises(Refusal, match="published"):
        services.swap_entries(actor=people.dir, round=rnd, first=bob, second=eve)


def test_a_correction_in_round_one_warns_that_round_two_was_paired_from_it():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    _play_round(people, event, 1)
    services.pair_next_round(actor=people.dir, event=event)
    assert selectors.event_warnings(event) == []
    first = open_matches(event, 1)[0]
    game = first.match_games.get().game
    loser = next(n for n in game.player_names if n != game.summary["winner"])
    before = {r["name"]: r["match_points"] for r in selectors.standings(event)}
    scoring.correct_hand(actor=as_actor(organiser()), game=game, number=1, data=gin(loser, 30), reason="misread")
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=game, number=1)
    after = {r["name"]: r["match_points"] for r in selectors.standings(event)}
    assert after[loser] == before[loser] + 2  # the standings follow at once
    (warning,) = selectors.event_warnings(event)
    assert warning["kind"] == "round_paired_from_changed_results"
    assert warning["round"] == 2
    assert warning["changed_matches"] == [first.pk]
    assert warning["message"].startswith(f"Round 2 was paired from results that have since changed: round 1 table "
                                         f"{first.table} (")
    assert Round.objects.filter(event=event).count() == 2  # nothing re-paired


# --- directors' results --------------------------------------------------------------------------------

def test_forfeits_and_adjusted_results_are_kept_as_history_and_the_latest_counts():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1, forfeit_margin=50)
    (match,) = services.pair_next_round(actor=people.dir, event=event).matches
    ann, bob = entry(event, "Ann"), entry(event, "Bob")
    with pytest.raises(Refusal) as exc:
        services.record_forfeit(actor=people.dir, match=match, winner=ann, reason=" ")
    assert _fields(exc) == [("reason", "say why (a reason is kept with the result)")]
    outsider = services.add_entry(actor=people.boss, event=new_event(people, names=["Zoe", "Yan"]), name="Xi")
    with pytest.raises(Refusal, match="does not play in this match"):
        services.record_forfeit(actor=people.dir, match=match, winner=outsider, reason="r")
    with pytest.raises(Refusal, match="a draw has no margin"):
        services.record_adjusted_result(actor=people.dir, match=match, winner=None, margin=5, reason="r")
    services.record_forfeit(actor=people.dir, match=match, winner=ann, reason="Bob late")
    assert selectors.matches(event)[0]["margin"] == 50
    services.record_adjusted_result(actor=people.dir, match=match, winner=bob, margin=12, reason="appeal")
    row = selectors.matches(event)[0]
    assert (row["winner"], row["margin"], row["source"], row["forfeit"]) == ("Bob", 12, "adjusted", False)
    services.record_adjusted_result(actor=people.dir, match=match, winner=None, margin=0, reason="draw agreed")
    assert selectors.standings(event)[0]["draws"] == 1
    services.clear_director_result(actor=people.dir, match=match, reason="play it out")
    assert selectors.matches(event)[0]["status"] == "waiting"
    assert list(MatchResult.objects.filter(match=match).values_list("kind", flat=True)) == [
        "forfeit", "adjusted", "adjusted", "cleared"]
    assert [r["reason"] for r in selectors.matches(event)[0]["director_results"]] == [
        "Bob late", "appeal", "draw agreed", "play it out"]


def test_knockout_seeded_from_the_final_standings():
    people = Officials()
    swiss = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    with pytest.raises(Refusal, match="not complete"):
        services.create_knockout_from_standings(actor=people.boss, source_event=swiss, top_n=2)
    for number in (1, 2):
        services.pair_next_round(actor=people.dir, event=swiss)
        _play_round(people, swiss, number)
    ranked = [r["name"] for r in selectors.standings(swiss)]
    with pytest.raises(Refusal) as exc:
        services.create_knockout_from_standings(actor=people.boss, source_event=swiss, top_n=5)
    assert _fields(exc) == [("top_n", "take 2 to 4 entries (those still in); 5 given")]
    ko = services.create_knockout_from_standings(actor=people.dir, source_event=swiss, top_n=2)  # its director
    assert ko.seeded_from == swiss
    assert ko.conventions == swiss.conventions
    assert [(r["name"], r["seed"]) for r in selectors.entries(ko)] == [(ranked[0], 1), (ranked[1], 2)]
    assert list(ko.directors.all()) == [people.director]


# --- constraints and permissions ------------------------------------------------------------------------

def test_database_constraints_hold_without_the_services():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo"])
    ann = entry(event, "Ann")
    for bad in (
        lambda: Entry.objects.create(event=event, player=ann.player),
        lambda: Entry.objects.filter(pk__in=[entry(event, "Bob").pk, entry(event, "Cleo").pk]).update(seed=1),
        lambda: Round.objects.create(event=event, number=0, paired_from_key=""),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            bad()
    rnd = Round.objects.create(event=event, number=1, paired_from_key="")
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(event=event, number=1, paired_from_key="")
    one = Match.objects.create(event=event, round=rnd, table=1)
    two = Match.objects.create(event=event, round=rnd, table=2)
    MatchPlayer.objects.create(match=one, round=rnd, entry=ann, side=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchPlayer.objects.create(match=two, round=rnd, entry=ann, side=0)  # one match per entry per round
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(event=event, round=rnd, table=1)
    Match.objects.create(event=event, bracket_id="W1-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(event=event, bracket_id="W1-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(event=event, round=rnd, bracket_id="W1-2")
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchResult.objects.create(match=one, kind="forfeit", reason="no winner")


@pytest.mark.parametrize(
    ("who", "writes", "reads_private"),
    [("anonymous", False, False), ("player", False, False), ("referee", False, True),
     ("other_director", False, False), ("director", True, True), ("organiser", True, True)],
)
def test_who_may_write_and_read_an_event(who, writes, reads_private):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=False)
    other = new_event(Officials(), names=["Cat", "Dan"])
    ann_user = user("ann-login")
    Player.objects.filter(display_name="Ann").update(user=ann_user)
    actor = as_actor({"anonymous": None, "player": ann_user, "referee": people.recorder,
                      "other_director": other.directors.get(), "director": people.director,
                      "organiser": organiser()}[who])
    assert policy.can_direct(actor, event) is writes
    assert policy.can_read(actor, event) is reads_private
    assert (event in selectors.visible_events(actor)) is reads_private
    assert other in selectors.visible_events(actor)
    attempts = [
        lambda: services.add_entry(actor=actor, event=event, name="Cleo"),
        lambda: services.seed_entries(actor=actor, event=event, method="rating"),
        lambda: services.drop_entry(actor=actor, entry=entry(event, "Bob")),
        lambda: services.pair_next_round(actor=actor, event=event),
    ]
    for attempt in attempts:
        if writes:
            attempt()
        else:
            with pytest.raises(NotAllowed):
                attempt()
    if not writes:
        (match,) = services.pair_next_round(actor=people.dir, event=event).matches
        for attempt in (
            lambda: services.record_forfeit(actor=actor, match=match, winner=entry(event, "Ann"), reason="r"),
            lambda: services.record_adjusted_result(actor=actor, match=match, winner=None, margin=0, reason="r"),
            lambda: services.reset_dependent_bracket_matches(actor=actor, event=event),
            lambda: services.issue_table_links(actor=actor, event=event),
            lambda: services.create_event(actor=actor, name="Mine", format="swiss"),
        ):
            with pytest.raises(NotAllowed):
                attempt()


def test_games_of_an_event_are_refereed_by_its_officials_only():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=False)
    (match,) = services.pair_next_round(actor=people.dir, event=event).matches
    game = match.match_games.get().game
    assert game.is_public is False
    assert not game.referees.exists()  # the event's officials referee it: the game keeps no list of its own
    officials = [people.director, people.recorder, people.confirmer, people.organiser, user()]
    assert [is_official(as_actor(u), game) for u in officials] == [True, True, True, True, False]
    with pytest.raises(Game.DoesNotExist):  # a private event's game does not exist for a stranger
        scoring.record_hand(actor=as_actor(user()), game=game, data=gin("Ann", 30))
    row = selectors.matches(event)[0]
    assert row["game_details"][0]["referee_links"][0]["active"] is True
    assert "token" not in str(row["game_details"][0]["referee_links"][0]).lower()
    tables = selectors.my_tables(as_actor(people.recorder))
    assert [(t["event_name"], t["table"], t["players"]) for t in tables] == [(event.name, 1, ["Ann", "Bob"])]
    assert selectors.my_tables(as_actor(user())) == []


# --- query counts ------------------------------------------------------------------------------------------

def _swiss_in_round_two(size):
    people = Officials()
    names = [f"P{i:03d}" for i in range(size)]
    event = new_event(people, names=names, rounds=3)
    services.pair_next_round(actor=people.dir, event=event)
    for m in open_matches(event, 1):
        services.record_forfeit(actor=people.dir, match=m, winner=m.players.order_by("side").first().entry,
                                reason="quick")
    services.pair_next_round(actor=people.dir, event=event)
    return people, event


@pytest.mark.parametrize("size", [12, 120])
def test_reads_cost_the_same_number_of_queries_for_12_and_120_entries(size, django_assert_num_queries):
    people, event = _swiss_in_round_two(size)
    selectors.event_answer(event)  # computed once and stored
    with django_assert_num_queries(1):
        answer = selectors.event_answer(event)
    assert len(answer["standings"]) == size
    with django_assert_num_queries(1):
        selectors.standings(event)
    with django_assert_num_queries(6):
        rows = selectors.matches(event)
    assert len(rows) == size
    with django_assert_num_queries(6):
        assert len(selectors.matches(event, round=2)) == size // 2
    with django_assert_num_queries(1):
        assert [(r["round"], r["tables"]) for r in selectors.round_summaries(event)] == [(1, size // 2),
                                                                                        (2, size // 2)]
    with django_assert_num_queries(7):
        rounds = selectors.rounds_with_matches(event)
    assert [len(r["matches"]) for r in rounds] == [size // 2, size // 2]
    with django_assert_num_queries(1):
        assert len(selectors.entries(event)) == size
    with django_assert_num_queries(2):
        assert len(list(selectors.event_list(as_actor(None)))) >= 1
    with django_assert_num_queries(7):
        assert len(selectors.my_tables(as_actor(people.recorder))) == size // 2


def test_officials_changed_during_the_event_referee_every_game_of_the_event_at_once():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    first, second = open_matches(event, 1)
    play_match(people, first, first.players.order_by("side").first().entry.player.display_name)
    finished = first.match_games.get().game
    playing = second.match_games.get().game
    newcomer = user("newcomer")
    services.set_officials(actor=people.dir, event=event, directors=[people.director],
                           referees=[people.recorder, newcomer])
    for game in (playing, finished):  # whatever the game's status: the event's officials as they are now
        game = Game.objects.get(pk=game.pk)
        officials = [people.director, people.recorder, newcomer, people.confirmer]
        assert [is_official(as_actor(u), game) for u in officials] == [True, True, True, False]
    scoring.record_hand(actor=as_actor(newcomer), game=playing, data=gin(playing.player_names[0], 30))
    with pytest.raises(NotAllowed):
        scoring.record_hand(actor=as_actor(people.confirmer), game=playing, data=gin(playing.player_names[0], 30))
    with pytest.raises(NotAllowed):
        scoring.void_hand(actor=as_actor(people.confirmer), game=finished, number=1, reason="removed, still trying")
    with pytest.raises(NotAllowed, match="only an organiser may change an event's directors"):
        services.set_officials(actor=people.dir, event=event, directors=[people.director, newcomer], referees=[])
    with pytest.raises(NotAllowed):
        services.set_officials(actor=as_actor(newcomer), event=event, directors=[people.director], referees=[])
    services.set_officials(actor=people.boss, event=event, directors=[newcomer], referees=[])
    assert list(event.directors.all()) == [newcomer]
    playing = Game.objects.get(pk=playing.pk)
    assert [is_official(as_actor(u), playing) for u in (newcomer, people.director, people.recorder)] == [
        True, False, False]


def test_entry_names_stay_distinct_in_the_event_document_however_players_are_named():
    people = Officials()
    event = services.create_event(actor=people.boss, name="Names", format="swiss", directors=[people.director])
    ann_a = player("Ann", club="Riverside")
    ann_b = player("Ann", club="Hilltop")
    tricky = player("Ann (Riverside)", club="Elsewhere")
    for p in (ann_a, ann_b, tricky):
        services.add_entry(actor=people.dir, event=event, player=p)
    names = set(selectors.entry_names(event).values())
    assert names == {"Ann (Hilltop)", f"Ann (#{ann_a.pk})", f"Ann (Riverside) (#{tricky.pk})"}
    assert len(selectors.event_answer(event)["standings"]) == 3


def test_a_pasted_name_finds_the_clubs_player_without_a_club_typed_and_never_makes_a_namesake():
    people = Officials()
    event = services.create_event(actor=people.boss, name="E", format="swiss", directors=[people.director])
    ann = player("Ann", club="Riverside Gin Club", pin="1111")
    made = services.add_entries_from_text(actor=people.dir, event=event, text="ann,1850\nNewcomer\n")
    assert made[0].player == ann  # found in her club, with her PIN: she can accept hands
    assert made[1].player.club == ""
    player("Bob", club="Riverside Gin Club")
    player("Bob", club="Hilltop")
    with pytest.raises(Refusal) as exc:
        services.add_entries_from_text(actor=people.dir, event=event, text="Bob\n")
    assert _fields(exc) == [("lines.1", "'Bob' is the name of more than one player: Bob (Hilltop), "
                                        "Bob (Riverside Gin Club); say which club")]
    (bob,) = services.add_entries_from_text(actor=people.dir, event=event, text="Bob\n", club="Hilltop")
    assert bob.player.club == "Hilltop"
    assert Player.objects.filter(display_name__iexact="ann").count() == 1


def test_a_directors_result_freezes_the_tables_game_and_going_back_to_the_games_reopens_it():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    match = open_matches(event, 1)[0]
    game = match.match_games.get().game
    first = match.players.order_by("side").first().entry
    scoring.record_hand(actor=as_actor(people.recorder), game=game,
                        data={"result": "knock", "knocker": game.player_names[0], "knocker_deadwood": 3,
                              "opponent_deadwood": 10})
    services.record_forfeit(actor=people.dir, match=match, winner=first, reason="Bob had to leave")
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    with pytest.raises(NotAllowed, match="abandoned"):
        scoring.record_hand(actor=as_actor(people.recorder), game=game, data=gin(game.player_names[0], 30))
    services.record_adjusted_result(actor=people.dir, match=match, winner=None, margin=0, reason="agreed draw")
    services.clear_director_result(actor=people.dir, match=match, reason="Bob came back")
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert game.hand_count == 1  # nothing recorded was lost
    scoring.record_hand(actor=as_actor(people.recorder), game=game, data=gin(game.player_names[0], 30))
    other = open_matches(event, 1)[1].match_games.get().game
    scoring.abandon_game(actor=people.boss, game=other, reason="the table collapsed")
    other_match = open_matches(event, 1)[1]
    services.record_forfeit(actor=people.dir, match=other_match, winner=other_match.players.first().entry,
                            reason="x")
    services.clear_director_result(actor=people.dir, match=other_match, reason="y")
    assert Game.objects.get(pk=other.pk).status == Game.Status.ABANDONED  # an organiser's abandon stands
