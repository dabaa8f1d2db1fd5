"""The webhooks API's permission matrix: every route for every role. A subscription and its deliveries are its
owner's alone (a 404 to everyone else, organisers included; a 401 without credentials; a referee link is not a
user: 403); its secret is in the answer that made it and nowhere after; an event's directors subscribe to their
event only, and a private event is a 404 to whoever may not read it."""

import pytest

from notifications.models import Message, Subscription

from ..factories import api_client, organiser, user
from ..tournaments.stored import Officials, new_event, replace_officials

pytestmark = pytest.mark.django_db

URL = "https://example.org/hook"


def _routes(sub_id, message_id):
    base = f"/api/v1/webhooks/{sub_id}"
    return [("get", f"{base}/", None), ("patch", f"{base}/", {"description": "mine now"}),
            ("post", f"{base}/test/", {}), ("get", f"{base}/deliveries/", None),
            ("post", f"{base}/deliveries/{message_id}/redeliver/", {}), ("delete", f"{base}/", None)]


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("player", 404), ("referee", 404), ("referee_link", 403), ("other_director", 404),
     ("organiser", 404), ("added_director", 404), ("owner", None)],
)
def test_a_webhook_and_its_deliveries_are_its_owners_alone(who, expected, public):
    from tournaments import services

    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=public)
    opened = services.pair_next_round(actor=people.dir, event=event)
    changed = replace_officials(people, event)
    other = new_event(Officials(), names=["Cat", "Dan"])
    owner = api_client(people.director)
    made = owner.post("/api/v1/webhooks/", {"url": URL, "types": ["round.published"], "event": event.pk},
                      format="json")
    assert made.status_code == 201
    sub_id = made.json()["id"]
    message = Message.objects.create(subscription_id=sub_id, msg_id="msg_test", type="ping", body="{}",
                                     status=Message.Status.DELIVERED)
    client = {
        "anonymous": lambda: api_client(), "player": lambda: api_client(user()),
        "referee": lambda: api_client(people.recorder),
        "referee_link": lambda: api_client(referee_token=next(iter(opened.tokens.values()))),
        "other_director": lambda: api_client(other.directors.get()), "organiser": lambda: api_client(organiser()),
        "added_director": lambda: api_client(changed["added_director"]), "owner": lambda: owner,
    }[who]()
    listed = client.get("/api/v1/webhooks/")
    if who == "anonymous":
        assert listed.status_code == 401
    elif who == "referee_link":
        assert listed.status_code == 403
    else:
        assert listed.status_code == 200
        assert [s["id"] for s in listed.json()] == ([sub_id] if who == "owner" else [])
    for method, url, body in _routes(sub_id, message.pk):
        answer = getattr(client, method)(url, body, format="json") if body is not None else getattr(client, method)(url)
        if expected is None:
            assert answer.status_code in (200, 202, 204), (url, answer.status_code, answer.content)
            if answer.status_code != 204:
                assert "secret" not in answer.json()
                assert "whsec_" not in answer.content.decode()
        else:
            assert answer.status_code == expected, (url, answer.status_code, answer.content)
            assert set(answer.json()["errors"][0]) == {"hand", "field", "message"}
    assert Subscription.objects.filter(pk=sub_id).exists() is (expected is not None)


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("player", 403), ("referee", 403), ("other_director", 403), ("removed_director", 403),
     ("added_director", 201), ("director", 201), ("organiser", 201)],
)
def test_an_events_webhooks_are_for_its_directors_and_organisers(who, expected, public):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=public)
    changed = replace_officials(people, event)
    other = new_event(Officials(), names=["Cat", "Dan"])
    client = {
        "anonymous": lambda: api_client(), "player": lambda: api_client(user()),
        "referee": lambda: api_client(people.recorder), "other_director": lambda: api_client(other.directors.get()),
        **{role: (lambda u=u: api_client(u)) for role, u in changed.items()},
        "director": lambda: api_client(people.director), "organiser": lambda: api_client(organiser()),
    }[who]()
    if not public and who in ("player", "other_director", "removed_director"):
        expected = 404  # a private event does not exist for whoever may not read it
    answer = client.post("/api/v1/webhooks/", {"url": URL, "types": ["round.published"], "event": event.pk},
                         format="json")
    assert answer.status_code == expected, answer.content
    if expected == 201:
        assert answer.json()["secret"].startswith("whsec_")
        assert Subscription.objects.get(pk=answer.json()["id"]).secret == answer.json()["secret"]
    else:
        assert not Subscription.objects.exists()
    everything = client.post("/api/v1/webhooks/", {"url": URL, "types": ["ping"], "event": None}, format="json")
    assert everything.status_code == {"anonymous": 401, "organiser": 201}.get(who, 403)


def test_a_subscription_whose_owner_lost_the_event_is_sent_nothing():
    from notifications.services.deliveries import wanted_by
    from tournaments import services

    people = Officials()
    event = new_event(people, names=["Ann", "Bob"])
    gone = user()
    services.set_officials(actor=people.boss, event=event, directors=[people.director, gone], referees=[])
    made = api_client(gone).post("/api/v1/webhooks/", {"url": URL, "types": ["round.published"], "event": event.pk},
                                 format="json")
    assert [s.pk for s in wanted_by("round.published", event)] == [made.json()["id"]]
    services.set_officials(actor=people.boss, event=event, directors=[people.director], referees=[])
    assert wanted_by("round.published", event) == []


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 403), ("player", 403), ("referee", 403), ("referee_link", 403), ("removed_director", 403),
    ("added_director", 200), ("director", 200), ("organiser", 200)])
def test_a_rounds_email_log_with_its_addresses_is_for_the_events_directors_and_organisers_only(who, expected, public):
    from notifications.models import Email
    from tournaments import services

    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=public)
    opened = services.pair_next_round(actor=people.dir, event=event)
    changed = replace_officials(people, event)
    Email.objects.create(event=event, kind="pairings", to="ann@example.org", subject="s", body="b", round_number=1)
    client = {"anonymous": lambda: api_client(), "player": lambda: api_client(user()),
              "referee": lambda: api_client(people.recorder),
              "referee_link": lambda: api_client(referee_token=next(iter(opened.tokens.values()))),
              "director": lambda: api_client(people.director), "organiser": lambda: api_client(organiser()),
              **{role: (lambda u=u: api_client(u)) for role, u in changed.items()}}[who]()
    if not public and who in ("anonymous", "player", "removed_director", "referee_link"):
        expected = 404  # a private event does not exist for whoever may not read it
    answer = client.get(f"/api/v1/events/{event.pk}/rounds/1/email/")
    assert answer.status_code == expected, answer.content
    if expected == 200:
        assert [(r["to"], r["status"]) for r in answer.json()] == [("ann@example.org", "queued")]
    else:
        assert "ann@example.org" not in answer.content.decode()
