"""An event's prize list: its directors set it at any time through PATCH (``prizes``, each problem named by
``prizes.N.place`` and the like) or on the event page (one "place: prize" a line, each problem named by its
line), nothing changed by a refusal; shown as "Prizes" under the standings while the event runs, beside the
final standings once complete ("1st Ann — 50 € voucher", on the standings and the event page, the engine's
order deciding a shared place) and in the standings CSV's ``prize`` column."""

import csv
import html
import io
import re

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Event

from ..factories import api_client
from .stored import Officials, entry, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def signed_in(u):
    client = Client()
    client.force_login(u)
    return client


def words(page) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.content.decode())).strip())


def once(page) -> str:
    return re.search(r'name="once" value="([^"]+-prizes)"', page.content.decode()).group(1)


def test_a_director_sets_the_prizes_through_the_api_sorted_by_place():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    answer = api_client(people.director).patch(f"/api/v1/events/{event.pk}/", {"prizes": [
        {"place": 2, "prize": " 25 € voucher "}, {"place": 1, "prize": "50 € voucher"}]}, format="json")
    assert answer.status_code == 200
    assert answer.json()["prizes"] == [{"place": 1, "prize": "50 € voucher"}, {"place": 2, "prize": "25 € voucher"}]
    assert api_client().get(f"/api/v1/events/{event.pk}/").json()["prizes"] == answer.json()["prizes"]
    cleared = api_client(people.director).patch(f"/api/v1/events/{event.pk}/", {"prizes": []}, format="json")
    assert cleared.json()["prizes"] == []


def test_refused_prizes_name_each_field_and_change_nothing():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    services.update_event(actor=people.dir, event=event, changes={"prizes": [{"place": 1, "prize": "a cup"}]})
    base = f"/api/v1/events/{event.pk}/"
    td = api_client(people.director)
    refused = td.patch(base, {"name": "Renamed", "prizes": [
        {"place": 0, "prize": "x"}, {"place": 1, "prize": ""}, {"place": "2", "prize": "y" * 121},
        {"place": 1.0, "prize": "z"}, "a cup", {"place": 3, "prize": "w"}, {"place": 3, "prize": "v"}]},
        format="json")
    assert refused.status_code == 400
    assert [(e["field"], e["message"]) for e in refused.json()["errors"]] == [
        ("prizes.0.place", "a place is a whole number from 1 to 4096; 0 given"),
        ("prizes.1.prize", "say what the prize is (text)"),
        ("prizes.2.place", "a place is a whole number from 1 to 4096; '2' given"),
        ("prizes.2.prize", "at most 120 characters; 121 given"),
        ("prizes.3.place", "a place is a whole number from 1 to 4096; 1.0 given"),
        ("prizes.4", 'each prize is {"place": 1, "prize": "..."}'),
        ("prizes.6.place", "place 3 is given twice (prizes.5 has it)"),
    ]
    too_many = td.patch(base, {"prizes": [{"place": n, "prize": "x"} for n in range(1, 66)]}, format="json")
    assert too_many.json()["errors"] == [{"result": None, "field": "prizes",
                                          "message": "at most 64 prizes; 65 given"}]
    not_a_list = td.patch(base, {"prizes": {"1": "a cup"}}, format="json")
    assert not_a_list.json()["errors"][0]["field"] == "prizes"
    assert Event.objects.get(pk=event.pk).prizes == [{"place": 1, "prize": "a cup"}]
    assert Event.objects.get(pk=event.pk).name == "Test swiss"


def test_the_event_pages_prize_text_is_read_line_by_line_and_refusals_name_the_line():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    td = signed_in(people.director)
    page = td.get(f"/events/{event.pk}/")
    assert "Prizes: none yet" in words(page)
    refused = td.post(f"/events/{event.pk}/prizes/", {"once": once(page),
                                                      "prizes": "1: 50 € voucher\nsecond: a bottle\n1: a cup\n3:"},
                      follow=True)
    assert ("Prizes not saved. Line 2: write the place, a colon and the prize, like “1: 50 € voucher”; “second: a "
            "bottle” given; line 3: place 1 is already on line 1; line 4: say what the prize for place 3 is"
            in words(refused))
    assert Event.objects.get(pk=event.pk).prizes == []
    # What was typed comes back in the box, open, to mend rather than retype; once only.
    assert "1: 50 € voucher\nsecond: a bottle\n1: a cup\n3:</textarea>" in html.unescape(refused.content.decode())
    assert '<details class="prizes-form" open>' in refused.content.decode()
    page = td.get(f"/events/{event.pk}/")
    assert "second: a bottle" not in html.unescape(page.content.decode())
    saved = td.post(f"/events/{event.pk}/prizes/", {"once": once(page), "prizes": "2nd: a bottle\n\n1: 50 € voucher"},
                    follow=True)
    assert "Prizes saved: 2 places." in words(saved)
    assert Event.objects.get(pk=event.pk).prizes == [{"place": 1, "prize": "50 € voucher"},
                                                     {"place": 2, "prize": "a bottle"}]
    assert "1: 50 € voucher\n2: a bottle</textarea>" in html.unescape(saved.content.decode())


def test_the_standings_show_the_prize_list_while_running_and_who_won_each_once_complete():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=1)
    services.update_event(actor=people.dir, event=event, changes={"prizes": [{"place": 1, "prize": "50 € voucher"},
                                                                             {"place": 2, "prize": "a bottle"}]})
    services.pair_next_round(actor=people.dir, event=event)
    running = words(Client().get(f"/events/{event.pk}/standings/"))
    assert "Prizes 1st : 50 € voucher 2nd : a bottle Awarded by the final standings" in running
    assert "Prizes" not in words(Client().get(f"/events/{event.pk}/"))  # the event page: once complete
    first, second = open_matches(event, 1)
    play_match(people, first, first.players.order_by("side").first().entry.player.display_name, 30)
    play_match(people, second, second.players.order_by("side").first().entry.player.display_name, 31)
    assert api_client().get(f"/api/v1/events/{event.pk}/").json()["answer"]["complete"] is True
    standings = api_client().get(f"/api/v1/events/{event.pk}/standings/").json()
    top, runner_up = standings[0], standings[1]
    final = words(Client().get(f"/events/{event.pk}/standings/"))
    assert (f"Prizes 1st {top['name']} — 50 € voucher 2nd {runner_up['name']} — a bottle By the final standings; "
            "where a place is shared, the standings' order (the engine's ranking) decides who is shown at it.") in final
    body = Client().get(f"/events/{event.pk}/").content.decode()
    assert f'<a href="/events/{event.pk}/entries/{top["entry"]}/">{top["name"]}</a> — 50 € voucher' in body
    as_of = words(Client().get(f"/events/{event.pk}/standings/?round=1"))
    assert "1st : 50 € voucher" in as_of  # as of a round: the list, never who won it


def test_the_standings_csv_has_each_places_prize_once_complete():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=1)
    services.update_event(actor=people.dir, event=event, changes={"prizes": [{"place": 1, "prize": "50 € voucher"},
                                                                             {"place": 2, "prize": "=cup"}]})
    services.pair_next_round(actor=people.dir, event=event)
    url = f"/api/v1/events/{event.pk}/standings/?format=csv"
    running = list(csv.DictReader(io.StringIO(api_client().get(url).content.decode())))
    assert [row["prize"] for row in running] == ["", "", "", ""]
    for m in open_matches(event, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name, 30)
    done = api_client().get(url).content.decode()
    assert done.splitlines()[0].endswith(",tiebreaks.head_to_head,prize")
    rows = list(csv.DictReader(io.StringIO(done)))
    assert [row["prize"] for row in rows] == ["50 € voucher", "'=cup", "", ""]  # a formula is never run
    ranked = [r["name"] for r in api_client().get(f"/api/v1/events/{event.pk}/standings/").json()]
    assert [row["name"] for row in rows] == ranked


def test_a_cancelled_event_refuses_prizes():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    services.cancel_event(actor=people.dir, event=event, reason="the hall flooded")
    refused = api_client(people.director).patch(f"/api/v1/events/{event.pk}/", {"prizes": [
        {"place": 1, "prize": "a cup"}]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "event"
    assert Event.objects.get(pk=event.pk).prizes == []
    assert entry(event, "Ann").event_id == event.pk
