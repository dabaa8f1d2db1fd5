"""Table cards to print (issue 23): a bracket match that opens by itself has no link and no printed card,
so it is counted and listed; the Cards to print sheet makes its link (a table already playing with a
working link keeps it unless asked), shows the cards once and marks them printed; pairing, publishing,
a sheet's and one match's new links mark theirs. Only directors and organisers use it (a private event
is a 404 to whoever may not read it); the pairing pages name the paired players who have no PIN."""

from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.refusals import Refusal
from scoring import services as scoring
from scoring.models import Player, RefereeLink
from tournaments import selectors, services
from tournaments.models import Match
from tournaments.policy import NotAllowed

from ..factories import api_client, as_actor, organiser, user
from .stored import Officials, entry, new_event, open_matches, play_match, replace_officials

pytestmark = pytest.mark.django_db

SIX = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"]
KNOCK = {"result": "knock", "knocker_deadwood": 2, "opponent_deadwood": 9}


def bracket_with_a_match_that_opened_itself(capture, **options):
    """Six seeded players, double elimination: Dev wins W1-2, and W2-1 (Ann, who had a bye, v Dev) opens by
    itself, its game made with no link; W1-4 is still being played with its printed card. The officials
    were changed since (a removed director, an added one...)."""
    people = Officials()
    event = new_event(people, names=SIX, fmt="double_elimination", **options)
    services.seed_entries(actor=people.dir, event=event, method="manual", order=[entry(event, n).pk for n in SIX])
    w12, w14 = services.pair_next_round(actor=people.dir, event=event).matches
    with capture(execute=True):
        play_match(people, w12, "Dev")
    opened = Match.objects.get(event=event, bracket_id="W2-1", reset_at__isnull=True)
    return SimpleNamespace(people=people, event=event, w12=w12, w14=w14, opened=opened,
                           game=opened.match_games.get().game, changed=replace_officials(people, event))


def signed_in(u):
    client = Client()
    if u is not None:
        client.force_login(u)
    return client


def once_of(page: str) -> str:
    return page.split('name="once" value="')[1].split('"')[0]


# ---------------------------------------------------------------------------------------------------
# The service and the selector


def test_a_bracket_match_that_opened_itself_is_listed_and_the_cards_sheet_makes_its_link(
        django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks)
    assert [(r["match"], r["players"], r["card_printed"]) for r in selectors.cards_to_print(t.event)] == [
        ("W2-1", ["Ann", "Dev"], False)]
    assert t.game.referee_links.count() == 0
    printed = services.print_table_cards(actor=t.people.dir, event=t.event)
    assert [m.bracket_id for m in printed.matches] == ["W2-1"]
    assert list(printed.tokens) == [t.game.pk]
    referee = api_client(referee_token=printed.tokens[t.game.pk])
    hand = {**KNOCK, "knocker": t.game.player_names[0]}
    assert referee.post(f"/api/v1/games/{t.game.pk}/hands/", hand, format="json").status_code == 201
    assert Match.objects.get(pk=t.opened.pk).card_printed_at is not None
    assert Match.objects.get(pk=t.w14.pk).card_printed_at is not None  # printed when paired: untouched
    assert selectors.cards_to_print(t.event) == []
    with pytest.raises(Refusal) as refused:
        services.print_table_cards(actor=t.people.dir, event=t.event)
    assert refused.value.problems[0].field == "cards"
    assert RefereeLink.objects.filter(game=t.game).count() == 1  # nothing made twice


def test_a_table_already_playing_with_a_working_link_keeps_it_unless_the_director_asks(
        django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks)
    made_elsewhere = scoring.create_referee_link(actor=as_actor(t.people.organiser), game=t.game)
    referee = api_client(referee_token=made_elsewhere.token)
    hand = {**KNOCK, "knocker": t.game.player_names[0]}
    assert referee.post(f"/api/v1/games/{t.game.pk}/hands/", hand, format="json").status_code == 201
    [row] = selectors.cards_to_print(t.event)
    assert (row["status"], row["working_link"]) == ("playing", True)
    with pytest.raises(Refusal) as refused:
        services.print_table_cards(actor=t.people.dir, event=t.event)
    assert refused.value.problems[0].field == "started_too"
    assert referee.post(f"/api/v1/games/{t.game.pk}/hands/", hand, format="json").status_code == 201
    assert Match.objects.get(pk=t.opened.pk).card_printed_at is None  # still to print
    printed = services.print_table_cards(actor=t.people.dir, event=t.event, started_too=True)
    assert list(printed.tokens) == [t.game.pk]
    assert referee.post(f"/api/v1/games/{t.game.pk}/hands/", hand, format="json").status_code == 401
    assert selectors.cards_to_print(t.event) == []


def test_a_table_started_without_any_link_gets_one_without_asking(django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks)
    scoring.record_hand(actor=as_actor(t.people.recorder), game=t.game,
                        data={**KNOCK, "knocker": t.game.player_names[0]})  # its referee, signed in
    printed = services.print_table_cards(actor=t.people.dir, event=t.event)
    assert list(printed.tokens) == [t.game.pk]


def test_only_the_events_directors_and_organisers_print_cards(django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks)
    for u in (t.people.recorder, t.changed["removed_director"], user()):
        with pytest.raises(NotAllowed):
            services.print_table_cards(actor=as_actor(u), event=t.event)
    assert Match.objects.get(pk=t.opened.pk).card_printed_at is None
    assert services.print_table_cards(actor=as_actor(organiser()), event=t.event).tokens


def test_pairing_the_sheets_and_one_matchs_new_link_mark_the_cards_they_show():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3)
    opened = services.pair_next_round(actor=people.dir, event=event)
    rows = selectors.matches(event, round=1)
    assert [r["card_printed"] for r in rows] == [True, True, None]  # two tables and a bye
    first, second = sorted(open_matches(event, 1), key=lambda m: m.table)
    Match.objects.filter(pk__in=[first.pk, second.pk]).update(card_printed_at=None)
    services.issue_table_links(actor=people.dir, event=event, match=first)
    assert [r["card_printed"] for r in selectors.matches(event, round=1)] == [True, False, None]
    services.issue_table_links(actor=people.dir, event=event, round=opened.round)
    assert [r["card_printed"] for r in selectors.matches(event, round=1)] == [True, True, None]
    draft = new_event(people, names=["Ann", "Bob"])
    services.pair_next_round(actor=people.dir, event=draft, publish=False)
    assert Match.objects.get(event=draft).card_printed_at is None
    assert selectors.cards_to_print(draft) == []  # a draft has no game, so no card yet
    services.publish_round(actor=people.dir, round=draft.event_rounds.get())
    assert Match.objects.get(event=draft).card_printed_at is not None


# ---------------------------------------------------------------------------------------------------
# The pages


def test_a_director_prints_the_cards_once_and_the_counts_go(django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks)
    director = signed_in(t.people.director)
    event_page = director.get(f"/events/{t.event.pk}/").content.decode()
    assert f'<a href="/events/{t.event.pk}/cards/">1 table card to print</a>' in event_page
    pairings = director.get(f"/events/{t.event.pk}/pairings/").content.decode()
    assert f'<a href="/events/{t.event.pk}/cards/">1 table card to print</a>' in pairings
    sheet = director.get(f"/events/{t.event.pk}/sheet/").content.decode()
    assert "no card printed yet: print it from" in sheet
    assert "printed before" not in sheet.split('aria-label="Table cards"')[1].split("W1-4")[0]
    page = director.get(f"/events/{t.event.pk}/cards/")
    text = page.content.decode()
    assert page["Cache-Control"] == "no-store"
    assert "W2-1 · Table 1</a>: Ann v Dev" in text
    assert "Also tables already playing" in text
    once = once_of(text)
    shown = director.post(f"/events/{t.event.pk}/cards/", {"once": once}, follow=True)
    assert shown.redirect_chain == [(f"/events/{t.event.pk}/cards/", 302)]
    cards = shown.content.decode()
    assert "1 table card made: print this page now" in cards
    assert cards.count("scan to record the hands") == 1
    assert cards.count("<svg") == 1
    token = cards.split("/r/#")[1].split("<")[0]
    hand = {**KNOCK, "knocker": t.game.player_names[0]}
    assert api_client(referee_token=token).post(f"/api/v1/games/{t.game.pk}/hands/", hand,
                                                format="json").status_code == 201
    assert "Every table being played has its card printed." in cards
    again = director.get(f"/events/{t.event.pk}/cards/").content.decode()  # a reload: shown once only
    assert "scan to record the hands" not in again
    assert token not in again
    links = RefereeLink.objects.count()
    resent = director.post(f"/events/{t.event.pk}/cards/", {"once": once}, follow=True).content.decode()
    assert "This form was already sent: nothing was done twice." in resent
    assert RefereeLink.objects.count() == links
    assert "table card to print" not in director.get(f"/events/{t.event.pk}/").content.decode()
    assert "table card to print" not in director.get(f"/events/{t.event.pk}/pairings/").content.decode()


def test_with_nothing_to_print_the_button_says_so_and_changes_nothing():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    services.pair_next_round(actor=people.dir, event=event)
    director = signed_in(people.director)
    page = director.get(f"/events/{event.pk}/cards/").content.decode()
    assert "Every table being played has its card printed." in page
    links = RefereeLink.objects.count()
    answer = director.post(f"/events/{event.pk}/cards/", {"once": "k1"}, follow=True).content.decode()
    assert "Every table still being played has its card printed: there is none to print" in answer
    assert RefereeLink.objects.count() == links


def test_the_cards_page_is_for_directors_and_organisers_only(django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks)
    url = f"/events/{t.event.pk}/cards/"
    assert Client().get(url)["Location"].startswith("/accounts/login/")
    assert Client().post(url, {"once": "x"})["Location"].startswith("/accounts/login/")
    for u in (t.people.recorder, t.changed["removed_director"], t.changed["added_referee"], user()):
        assert signed_in(u).get(url).status_code == 403
        assert signed_in(u).post(url, {"once": "x"}).status_code == 403
        for page in (f"/events/{t.event.pk}/", f"/events/{t.event.pk}/pairings/"):
            assert "to print" not in signed_in(u).get(page).content.decode()
    assert Match.objects.get(pk=t.opened.pk).card_printed_at is None
    for u in (t.changed["added_director"], organiser()):
        assert signed_in(u).get(url).status_code == 200


def test_a_private_events_cards_page_is_not_found_for_whoever_may_not_read_it(django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks, is_public=False)
    url = f"/events/{t.event.pk}/cards/"
    for client in (Client(), signed_in(user()), signed_in(t.changed["removed_director"])):
        assert client.get(url).status_code == 404
        assert client.post(url, {"once": "x"}).status_code == 404
    assert signed_in(t.people.recorder).get(url).status_code == 403  # a referee reads the event, not this
    assert signed_in(t.people.director).get(url).status_code == 200
    assert Match.objects.get(pk=t.opened.pk).card_printed_at is None


def test_the_cards_page_costs_the_same_queries_however_many_tables_it_lists():
    counts = []
    for size in (4, 16):
        people = Officials()
        event = new_event(people, names=[f"P{i:03d}" for i in range(size)], rounds=3)
        services.pair_next_round(actor=people.dir, event=event)
        Match.objects.filter(event=event, is_bye=False).update(card_printed_at=None)
        director = signed_in(people.director)
        director.get(f"/events/{event.pk}/cards/")  # the answer stored, the session made
        with CaptureQueriesContext(connection) as queries:
            page = director.get(f"/events/{event.pk}/cards/")
        assert page.content.decode().count("· Table ") == size // 2
        counts.append(len(queries))
    assert counts[0] == counts[1]


# ---------------------------------------------------------------------------------------------------
# The API


def test_the_api_prints_the_cards_with_their_tokens_in_that_answer_only(django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks)
    director = api_client(t.people.director)
    base = f"/api/v1/events/{t.event.pk}"
    before = {m["match"]: m["card_printed"] for m in director.get(f"{base}/matches/").json()}
    assert before == {"W1-2": True, "W1-4": True, "W2-1": False}
    answer = director.post(f"{base}/cards/", {"started_too": False}, format="json")
    assert answer.status_code == 200, answer.json()
    [row] = answer.json()["matches"]
    assert (row["match"], row["players"], row["card_printed"]) == ("W2-1", ["Ann", "Dev"], True)
    token = row["game_details"][0]["referee_url"].split("#")[1]
    assert row["referee_url"] == row["game_details"][0]["referee_url"]
    hand = {**KNOCK, "knocker": t.game.player_names[0]}
    assert api_client(referee_token=token).post(f"/api/v1/games/{t.game.pk}/hands/", hand,
                                                format="json").status_code == 201
    again = director.get(f"{base}/matches/W2-1/").json()
    assert (again["card_printed"], again["referee_url"]) == (True, None)
    assert "referee_url" not in again["game_details"][0]
    refused = director.post(f"{base}/cards/", {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "cards"
    assert director.post(f"{base}/cards/", {"started_too": "maybe"}, format="json").json()["errors"][0][
        "field"] == "started_too"


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 401), ("referee", 403), ("removed_director", 403), ("stranger", 403), ("director", 200),
    ("added_director", 200), ("organiser", 200)])
def test_printing_cards_through_the_api_is_for_directors_and_organisers(who, expected, public,
                                                                        django_capture_on_commit_callbacks):
    t = bracket_with_a_match_that_opened_itself(django_capture_on_commit_callbacks, is_public=public)
    u = {"anonymous": None, "referee": t.people.recorder, "stranger": user(), "director": t.people.director,
         "organiser": organiser(), **t.changed}[who]
    if not public and who in ("removed_director", "stranger"):
        expected = 404  # a private event does not exist for whoever may not read it
    answer = api_client(u).post(f"/api/v1/events/{t.event.pk}/cards/", {}, format="json")
    assert answer.status_code == expected, answer.json()
    assert (Match.objects.get(pk=t.opened.pk).card_printed_at is not None) is (expected == 200)
    if expected != 200:
        assert set(answer.json()["errors"][0]) == {"result", "field", "message"}
    if public or who not in ("removed_director", "stranger", "anonymous"):
        printed = {m["match"]: m["card_printed"] for m in api_client(u).get(
            f"/api/v1/events/{t.event.pk}/matches/").json()}
        official = who in ("referee", "director", "added_director", "organiser")
        assert printed["W1-4"] is (True if official else None)


# ---------------------------------------------------------------------------------------------------
# The paired players without a PIN


def test_the_round_and_pairings_pages_name_the_paired_players_without_a_pin_to_directors():
    people = Officials()
    event = new_event(people, names=["Ann Lee", "Bob Roe", "Cleo Ito", "Dev Rao", "Eve Kim"], rounds=3)
    for name in ("Cleo Ito", "Dev Rao"):
        scoring.set_player_pin(actor=people.boss, player=Player.objects.get(display_name=name), pin="2468")
    services.pair_next_round(actor=people.dir, event=event)
    bye = Match.objects.get(event=event, is_bye=True).players.get().entry.player.display_name
    paired = sorted({"Ann Lee", "Bob Roe", "Eve Kim"} - {bye})
    line = f'No PIN: {", ".join(paired)} — <a href="/events/{event.pk}/entries/">set them on the entries page</a>'
    director = signed_in(people.director)
    assert line in director.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert line in director.get(f"/events/{event.pk}/pairings/").content.decode()
    for u in (None, people.recorder, user()):
        for page in (f"/events/{event.pk}/rounds/1/", f"/events/{event.pk}/pairings/"):
            assert "No PIN" not in signed_in(u).get(page).content.decode()
