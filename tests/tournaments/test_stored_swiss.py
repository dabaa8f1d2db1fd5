"""A whole Swiss event played through the services, hand by hand, to its final standings."""

import pytest

from core.refusals import Refusal
from scoring.models import Game
from tournaments import selectors, services
from tournaments.engine import run_event
from tournaments.models import Event, Match, Round

from .stored import Officials, entry, new_event, play_game

pytestmark = pytest.mark.django_db

NINE = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hal", "Ivy"]


def _names(match):
    return [p.entry.player.display_name for p in match.players.select_related("entry__player").order_by("side")]


def test_nine_player_swiss_through_the_services_ends_with_the_calculators_standings():
    """Every game is recorded and confirmed hand by hand through scoring's services; the stored
    event's standings equal the calculator's for the results the games settled (kept by the test)."""
    people = Officials()
    event = new_event(people, names=NINE)
    services.seed_entries(actor=people.dir, event=event, method="manual", order=[entry(event, n).pk for n in NINE])
    strength = {n: len(NINE) - i for i, n in enumerate(NINE)}  # Ann strongest
    results = []
    for round_number in range(1, 5):
        opened = services.pair_next_round(actor=people.dir, event=event)
        assert opened.round.number == round_number
        assert opened.round.status == Round.Status.PUBLISHED
        assert len(opened.matches) == 5  # four tables and a bye
        for m in opened.matches:
            names = _names(m)
            if m.is_bye:
                assert m.table is None
                assert not m.match_games.exists()
                results.append({"round": round_number, "bye": names[0]})
                continue
            assert len(opened.tokens) == 4
            # the stronger wins, except that Finn beats anyone in round 3 (an upset)
            winner = max(names, key=lambda n: (n == "Finn" and round_number == 3, strength[n]))
            game = m.match_games.get().game
            assert game.table_label == f"Round {round_number} · Table {m.table}"
            assert game.conventions["target"] == 50
            play_game(people, game, winner, 30 + 2 * abs(strength[names[0]] - strength[names[1]]))
            game = Game.objects.get(pk=game.pk)
            results.append({"round": round_number, "players": names, "winner": game.summary["winner"],
                            "margin": game.summary["margin"]})
        answer = selectors.event_answer(event)
        assert answer["rounds_played"] == round_number
        assert Round.objects.get(event=event, number=round_number).status == Round.Status.CLOSED

    answer = selectors.event_answer(event)
    assert answer["complete"] is True
    document = {"format": "swiss", "entries": [{"name": n, "seed": i} for i, n in enumerate(NINE, start=1)],
                "rounds": 4, "results": results}
    expected = run_event(document)
    assert [{k: v for k, v in row.items() if k != "entry"} for row in answer["standings"]] == expected["standings"]
    assert answer["champion"] == expected["champion"] == "Ann"
    assert [r["name"] for r in answer["standings"][:3]] == ["Ann", "Bob", "Finn"]
    assert answer["standings"][0]["match_points"] == 8
    assert selectors.event_document(event)["results"] == sorted(
        selectors.event_document(event)["results"], key=lambda r: r["round"])
    event.refresh_from_db()
    assert event.status == Event.Status.COMPLETE
    assert Match.objects.filter(event=event).count() == 20
    assert selectors.event_warnings(event) == []
    with pytest.raises(Refusal, match="complete"):
        services.pair_next_round(actor=people.dir, event=event)
