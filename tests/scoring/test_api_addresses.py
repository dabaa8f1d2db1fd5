"""An API write sent to an address without its trailing slash is sent on, method and body kept."""

import pytest

from scoring.models import Hand

from ..factories import api_client, game, knock, organiser

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [False, True])
def test_a_write_to_an_address_without_its_slash_is_answered_308_to_it_and_nothing_is_recorded(settings, debug):
    settings.DEBUG = debug  # under DEBUG, Django's APPEND_SLASH raised for a POST: a 500
    org = organiser()
    g = game(by=org)
    api = api_client(org)
    answer = api.post(f"/api/v1/games/{g.pk}/hands?note=1", knock("Ann", 3, 9), format="json")
    assert answer.status_code == 308
    assert answer["Location"] == f"/api/v1/games/{g.pk}/hands/?note=1"
    assert f"/api/v1/games/{g.pk}/hands/?note=1" in answer.json()["errors"][0]["message"]
    assert not Hand.objects.filter(game=g).exists()
    again = api.post(answer["Location"], knock("Ann", 3, 9), format="json")  # as a client repeats it there
    assert again.status_code == 201
    assert Hand.objects.filter(game=g).count() == 1


def test_a_read_without_its_slash_keeps_djangos_redirect_and_an_unknown_address_is_still_404():
    org = organiser()
    g = game(by=org)
    api = api_client(org)
    assert api.get(f"/api/v1/games/{g.pk}").status_code == 301
    assert api.post("/api/v1/no-such-thing", {}, format="json").status_code == 404
    assert api.post("/api/v1/games/", {}, format="json").status_code == 400  # with its slash: as before


def test_a_page_form_without_its_slash_is_left_to_django(client):
    assert client.post("/accounts/login").status_code == 301
