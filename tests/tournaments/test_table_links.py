"""Table links without breaking a table: a round's new links leave a game already started with its
working link (its referee carries on) unless the director asks for those too; one table gets a new link
without touching any other; a table with no working link (a bracket match that opened by itself) gets
one; the token is in that answer only."""

from types import SimpleNamespace

import pytest
from django.test import Client

from scoring.models import Game, RefereeLink
from tournaments import services

from ..factories import api_client
from .stored import Officials, new_event, open_matches

pytestmark = pytest.mark.django_db

KNOCK = {"result": "knock", "knocker": None, "knocker_deadwood": 3, "opponent_deadwood": 20}


def round_of_two_tables():
    """Round 1 of four players: table 1's referee has recorded a hand through its link; table 2 not yet."""
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=3)
    opened = services.pair_next_round(actor=people.dir, event=event)
    playing, waiting = sorted(open_matches(event, 1), key=lambda m: m.table)
    game_of = {m.pk: m.match_games.get().game for m in (playing, waiting)}
    referee = api_client(referee_token=opened.tokens[game_of[playing.pk].pk])
    hand = {**KNOCK, "knocker": game_of[playing.pk].player_names[0]}
    assert referee.post(f"/api/v1/games/{game_of[playing.pk].pk}/hands/", hand, format="json").status_code == 201
    return SimpleNamespace(people=people, event=event, opened=opened, playing=playing, waiting=waiting,
                           game_of=game_of, referee=referee, hand=hand)


def test_a_rounds_new_links_leave_the_tables_playing_with_theirs_and_their_referee_keeps_recording():
    t = round_of_two_tables()
    people, event, playing, waiting, game_of, referee, hand = (t.people, t.event, t.playing, t.waiting,
                                                               t.game_of, t.referee, t.hand)
    answer = api_client(people.director).post(f"/api/v1/events/{event.pk}/links/", {"round": 1}, format="json")
    assert answer.status_code == 200
    assert [m["id"] for m in answer.json()["matches"]] == [waiting.pk]
    assert referee.post(f"/api/v1/games/{game_of[playing.pk].pk}/hands/", hand, format="json").status_code == 201
    old_waiting = api_client(referee_token=t.opened.tokens[game_of[waiting.pk].pk])
    assert old_waiting.get(f"/api/v1/games/{game_of[waiting.pk].pk}/").status_code == 401


def test_the_director_may_replace_the_links_of_the_tables_playing_too():
    t = round_of_two_tables()
    people, event, playing, waiting, game_of, referee, hand = (t.people, t.event, t.playing, t.waiting,
                                                               t.game_of, t.referee, t.hand)
    answer = api_client(people.director).post(f"/api/v1/events/{event.pk}/links/", {"round": 1, "started_too": True},
                                              format="json")
    assert sorted(m["id"] for m in answer.json()["matches"]) == sorted([playing.pk, waiting.pk])
    assert referee.post(f"/api/v1/games/{game_of[playing.pk].pk}/hands/", hand, format="json").status_code == 401
    new_token = answer.json()["matches"][[m["id"] for m in answer.json()["matches"]].index(playing.pk)]["referee_url"]
    fresh = api_client(referee_token=new_token.split("#")[1])
    assert fresh.post(f"/api/v1/games/{game_of[playing.pk].pk}/hands/", hand, format="json").status_code == 201
    assert Game.objects.get(pk=game_of[playing.pk].pk).hand_count == 2  # nothing recorded was lost


def test_one_table_gets_a_new_link_and_no_other_table_is_touched():
    t = round_of_two_tables()
    people, event, playing, waiting, game_of, referee, hand = (t.people, t.event, t.playing, t.waiting,
                                                               t.game_of, t.referee, t.hand)
    before = set(RefereeLink.objects.filter(game=game_of[waiting.pk], revoked_at__isnull=True).values_list("pk"))
    answer = api_client(people.director).post(f"/api/v1/events/{event.pk}/matches/{playing.pk}/link/", {},
                                              format="json")
    assert answer.status_code == 200, answer.content
    (row,) = answer.json()["matches"]
    assert row["id"] == playing.pk
    assert referee.post(f"/api/v1/games/{game_of[playing.pk].pk}/hands/", hand, format="json").status_code == 401
    token = row["referee_url"].split("#")[1]
    assert api_client(referee_token=token).post(f"/api/v1/games/{game_of[playing.pk].pk}/hands/", hand,
                                                format="json").status_code == 201
    assert set(RefereeLink.objects.filter(game=game_of[waiting.pk], revoked_at__isnull=True).values_list("pk")) \
        == before
    assert api_client(people.director).get(f"/api/v1/events/{event.pk}/matches/{playing.pk}/").json()[
        "referee_url"] is None  # the token was in that answer only


def test_a_decided_match_or_one_not_in_the_event_has_no_link_to_make():
    t = round_of_two_tables()
    people, event, waiting = t.people, t.event, t.waiting
    director = api_client(people.director)
    services.record_forfeit(actor=people.dir, match=waiting, winner=waiting.players.order_by("side").first().entry,
                            reason="no show")
    refused = director.post(f"/api/v1/events/{event.pk}/matches/{waiting.pk}/link/", {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "match"
    other = new_event(Officials(), names=["Cat", "Dan"])
    assert director.post(f"/api/v1/events/{event.pk}/matches/999999/link/", {}, format="json").status_code == 404
    assert other.pk


def test_the_round_sheet_says_which_tables_keep_their_card_and_makes_links_for_the_others():
    t = round_of_two_tables()
    people, event, playing, game_of, referee, hand = t.people, t.event, t.playing, t.game_of, t.referee, t.hand
    director = Client()
    director.force_login(people.director)
    page = director.get(f"/events/{event.pk}/sheet/?round=1")
    text = page.content.decode()
    assert "Also the tables already playing" in text
    once = text.split('name="once" value="')[1].split('"')[0]
    shown = director.post(f"/events/{event.pk}/sheet/?round=1", {"once": once}, follow=True).content.decode()
    assert "its referee keeps the link on the card printed before" in shown
    assert shown.count("scan to record the hands") == 1
    assert referee.post(f"/api/v1/games/{game_of[playing.pk].pk}/hands/", hand, format="json").status_code == 201


def test_a_director_makes_one_tables_new_link_from_its_match_page_and_the_sheet_shows_that_card_only():
    t = round_of_two_tables()
    director = Client()
    director.force_login(t.people.director)
    page = director.get(f"/events/{t.event.pk}/matches/{t.waiting.pk}/").content.decode()
    assert "New link for this table" in page
    once = page.split('name="once" value="')[1].split('"')[0]
    sheet = director.post(f"/events/{t.event.pk}/matches/{t.waiting.pk}/link/", {"once": once}, follow=True)
    text = sheet.content.decode()
    assert "A new link for this table" in text
    assert text.count("scan to record the hands") == 1
    assert text.count('class="print-card') == 1  # that table's card alone, not the round's
    assert "its referee keeps the link on the card printed before" not in text
    assert t.referee.post(f"/api/v1/games/{t.game_of[t.playing.pk].pk}/hands/", t.hand,
                          format="json").status_code == 201
    stranger = Client()
    stranger.force_login(t.people.recorder)
    assert stranger.post(f"/events/{t.event.pk}/matches/{t.waiting.pk}/link/", {"once": "x"}).status_code == 403
