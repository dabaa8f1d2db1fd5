"""A knockout seeded from another event's standings names that event (its id, name and link: API
``seeded_from`` and ``seeding.source_event``, the event page, the default name) only to whoever may read
it: a public knockout of a private Swiss does not give the Swiss away, and a public Swiss does not list
its private knockout."""

import pytest
from django.test import Client

from core.refusals import Refusal
from tournaments import services
from tournaments.models import Event

from ..factories import api_client, user
from .stored import Officials, new_event, open_matches, play_match

pytestmark = pytest.mark.django_db


def finished_swiss(people, *, public):
    swiss = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=1, is_public=public)
    swiss.name = "Secret Invitational"
    swiss.save(update_fields=["name"])
    services.pair_next_round(actor=people.dir, event=swiss)
    for m in open_matches(swiss, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    return swiss


def page(u, url):
    client = Client()
    if u is not None:
        client.force_login(u)
    return client.get(url)


def test_a_public_knockout_of_a_private_event_never_names_it_to_those_who_may_not_read_it():
    people = Officials()
    swiss = finished_swiss(people, public=False)
    made = api_client(people.director).post(f"/api/v1/events/{swiss.pk}/knockout/", {"top_n": 2, "is_public": True},
                                            format="json")
    assert made.status_code == 201, made.json()
    knockout = Event.objects.get(pk=made.json()["id"])
    assert knockout.name == "Knockout: top 2"
    assert made.json()["seeded_from"] == swiss.pk  # its director may read the Swiss
    for who in (None, user(), people.recorder):  # the recorder stays a referee of both: sees both
        api = api_client(who)
        detail = api.get(f"/api/v1/events/{knockout.pk}/").json()
        listed = next(e for e in api.get("/api/v1/events/").json()["results"] if e["id"] == knockout.pk)
        shown = page(who, f"/events/{knockout.pk}/").content.decode()
        if who is people.recorder:
            assert detail["seeded_from"] == listed["seeded_from"] == swiss.pk
            assert detail["seeding"]["source_event"] == swiss.pk
            assert f'href="/events/{swiss.pk}/"' in shown
            continue
        for answer in (detail, listed):
            assert answer["seeded_from"] is None
            assert answer["seeding"]["source_event"] is None
            assert "order" not in answer["seeding"]
            assert answer["seeding"]["method"] == "standings"
            assert "Secret" not in str(answer)
        assert "Seeded from the final standings of an earlier event." in shown
        assert "Secret" not in shown
        assert f'href="/events/{swiss.pk}/"' not in shown
        assert api.get(f"/api/v1/events/{swiss.pk}/").status_code == 404


def test_the_default_name_names_the_source_when_every_reader_of_the_knockout_may_read_it():
    people = Officials()
    private = finished_swiss(people, public=False)
    made = services.create_knockout_from_standings(actor=people.dir, source_event=private, top_n=2)
    assert (made.name, made.is_public) == ("Secret Invitational: top 2", False)
    public = finished_swiss(Officials(), public=True)
    other = services.create_knockout_from_standings(actor=people.boss, source_event=public, top_n=2, is_public=False)
    assert other.name == "Secret Invitational: top 2"


@pytest.mark.parametrize("public", [True, False])
def test_a_public_event_page_names_its_knockout_only_to_whoever_may_read_it(public):
    people = Officials()
    swiss = finished_swiss(people, public=True)
    final = services.create_knockout_from_standings(actor=people.boss, source_event=swiss, top_n=2,
                                                    name="The final", is_public=public)
    stranger = page(user(), f"/events/{swiss.pk}/").content.decode()
    assert ("The final" in stranger) is public
    assert (f'href="/events/{final.pk}/"' in stranger) is public
    director = page(people.director, f"/events/{swiss.pk}/").content.decode()
    assert "The final" in director
    assert f'href="/events/{final.pk}/"' in director


@pytest.mark.parametrize("public", [True, False])
def test_the_standings_link_the_knockout_made_from_them_even_after_the_page_was_kept(public):
    people = Officials()
    swiss = finished_swiss(people, public=True)
    before = page(None, f"/events/{swiss.pk}/standings/").content.decode()  # kept for phones with no session
    assert "Next stage" not in before
    final = services.create_knockout_from_standings(actor=people.boss, source_event=swiss, top_n=2,
                                                    name="The final", is_public=public)
    link = f'Next stage: <a href="/events/{final.pk}/bracket/">The final</a>'
    assert (link in page(None, f"/events/{swiss.pk}/standings/").content.decode()) is public
    assert (link in page(user(), f"/events/{swiss.pk}/standings/").content.decode()) is public
    assert link in page(people.director, f"/events/{swiss.pk}/standings/").content.decode()


def test_a_second_knockout_is_refused_naming_the_first_only_to_whoever_may_read_it():
    people = Officials()
    swiss = finished_swiss(people, public=True)
    final = services.create_knockout_from_standings(actor=people.boss, source_event=swiss, top_n=2,
                                                    name="The final", is_public=False)
    final.directors.clear()  # the Swiss's director no longer runs (nor may read) the private final
    with pytest.raises(Refusal) as refused:
        services.create_knockout_from_standings(actor=people.dir, source_event=swiss, top_n=4)
    assert [(p.field, p.message) for p in refused.value.problems] == [
        ("source_event", "Secret Invitational already has its knockout: a knockout is made once from an "
                         "event's standings")]
    with pytest.raises(Refusal) as refused:
        services.create_knockout_from_standings(actor=people.boss, source_event=swiss, top_n=4)
    assert refused.value.problems[0].message == (
        f"Secret Invitational already has its knockout, The final (event {final.pk}): a knockout is made once "
        "from an event's standings")
    assert list(Event.objects.filter(seeded_from=swiss)) == [final]
