"""The stored-event API's rules on every write: who may (the permission matrix, public and private
events, referee links), what a refusal looks like (the field named, nothing changed), and every
director's tool through the API: entries, seeding, drops, drafts and swaps, links, results, resets."""

import pytest

from scoring import services as scoring
from scoring.models import Game, Player
from tournaments import services
from tournaments.models import AvoidPair, Entry, Event, Match, MatchResult, Registration, RequestedBye, Round

from ..factories import api_client, as_actor, organiser, user
from .stored import Officials, entry, new_event, open_matches, play_match, replace_officials

pytestmark = pytest.mark.django_db


def _tables():
    """What a refused write must leave as it was of each match: its card printed, its clock, its extra time."""
    return list(Match.objects.order_by("pk").values_list("card_printed_at", "clock_ends_at", "extra_seconds"))


def api(u=None, referee_token=None):
    return api_client(u, referee_token=referee_token)


def _writes(event, match, first, second):
    base = f"/api/v1/events/{event.pk}"
    directors = list(event.directors.values_list("pk", flat=True))
    waiting = Registration.objects.create(event=event, player=Player.objects.create(display_name="Wai Ting"),
                                          email="wai@example.org", status="waitlisted", token_digest="x" * 64)
    return [
        (f"{base}/registrations/{waiting.pk}/enter/", {}),
        (f"{base}/officials/", {"directors": directors, "referees": []}),
        (f"{base}/entries/", {"name": "Zed"}),
        (f"{base}/entries/import/", {"text": "Yan\nXi"}),
        (f"{base}/entries/{second.pk}/check-in/", {}),
        (f"{base}/entries/{second.pk}/check-out/", {}),
        (f"{base}/entries/{first.pk}/drop/", {"reason": "ill"}),
        (f"{base}/seed/", {"method": "rating"}),
        (f"{base}/rounds/", {}),
        (f"{base}/rounds/1/publish/", {}),
        (f"{base}/rounds/1/clock/", {"action": "start", "minutes": 10}),
        (f"{base}/matches/{match.pk}/clock/", {"action": "start", "minutes": 10}),
        (f"{base}/rounds/1/swap/", {"first": first.pk, "second": second.pk}),
        (f"{base}/links/", {"round": 1}),
        (f"{base}/cards/", {}),
        (f"{base}/matches/{match.pk}/link/", {}),
        (f"{base}/matches/{match.pk}/forfeit/", {"winner": first.pk, "reason": "no show"}),
        (f"{base}/matches/{match.pk}/adjust/", {"winner": None, "margin": 0, "reason": "agreed draw"}),
        (f"{base}/matches/{match.pk}/clear/", {"reason": "the games stand"}),
        (f"{base}/bracket/reset/", {}),
        (f"{base}/knockout/", {"top_n": 2}),
        (f"{base}/warnings/acknowledge/", {"key": "no-such-warning", "note": ""}),
        (f"{base}/entries/{second.pk}/byes/", {"round": 3}),
        (f"{base}/avoid/", {"entries": [first.pk, second.pk], "strength": "never"}),
        (f"{base}/rounds/1/email/", {"what": "pairings"}),  # notifications: each player their table
        (f"{base}/cancel/", {"reason": "the hall flooded"}),  # last: nothing is written to a cancelled event
    ]


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("player", 403), ("referee", 403), ("referee_link", 403), ("other_director", 403),
     ("removed_director", 403), ("removed_referee", 403), ("added_referee", 403), ("added_director", None),
     ("director", None), ("organiser", None)],
)
def test_every_event_write_through_the_api_is_for_its_directors_and_organisers(who, expected, public):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], is_public=public, rounds=3)
    opened = services.pair_next_round(actor=people.dir, event=event)
    changed = replace_officials(people, event)
    other = new_event(Officials(), names=["Cat", "Dan"])
    ann_login = user("ann-login")
    Player.objects.filter(display_name="Ann").update(user=ann_login)
    match = opened.matches[0]
    first, second = (p.entry for p in match.players.order_by("side"))
    client = {
        "anonymous": lambda: api(),
        "player": lambda: api(ann_login),
        "referee": lambda: api(people.recorder),
        "referee_link": lambda: api(referee_token=next(iter(opened.tokens.values()))),
        "other_director": lambda: api(other.directors.get()),
        **{role: (lambda u=u: api(u)) for role, u in changed.items()},
        "director": lambda: api(people.director),
        "organiser": lambda: api(organiser()),
    }[who]()
    if not public and expected == 403 and who in ("player", "other_director", "referee_link", "removed_director",
                                                  "removed_referee"):
        expected = 404  # a private event does not exist for whoever may not read it
    before = (Entry.objects.count(), Round.objects.count(), MatchResult.objects.count(), Event.objects.count(),
              Game.objects.count(), _tables(), RequestedBye.objects.count(), AvoidPair.objects.count(),
              sorted(Event.objects.values_list("pk", "status")),
              list(Round.objects.order_by("pk").values_list("clock_ends_at", "clock_left_seconds")))
    for url, body in _writes(event, match, first, second):
        answer = client.post(url, body, format="json")
        if expected is None:
            assert answer.status_code not in (401, 403, 404), (url, answer.json())
        else:
            assert answer.status_code == expected, (url, answer.status_code, answer.json())
            (error,) = answer.json()["errors"]
            assert set(error) == {"result", "field", "message"}
            assert error["message"]
    creating = client.post("/api/v1/events/", {"name": "Mine", "format": "swiss"}, format="json")
    assert creating.status_code == (201 if who == "organiser" else 401 if who == "anonymous" else 403)
    if expected is not None:
        assert (Entry.objects.count(), Round.objects.count(), MatchResult.objects.count(), Event.objects.count(),
                Game.objects.count(), _tables(), RequestedBye.objects.count(), AvoidPair.objects.count(),
                sorted(Event.objects.values_list("pk", "status")),
                list(Round.objects.order_by("pk").values_list("clock_ends_at", "clock_left_seconds"))) == before
    else:
        assert Event.objects.get(pk=event.pk).status == "cancelled"


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("player", 403), ("referee", 403), ("referee_link", 403), ("removed_director", 403),
     ("added_director", 200), ("director", 200), ("organiser", 200)],
)
def test_the_prizes_are_set_through_patch_by_the_events_directors_and_organisers_only(who, expected, public):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=public)
    opened = services.pair_next_round(actor=people.dir, event=event)
    changed = replace_officials(people, event)
    client = {
        "anonymous": lambda: api(), "player": lambda: api(user()), "referee": lambda: api(people.recorder),
        "referee_link": lambda: api(referee_token=next(iter(opened.tokens.values()))),
        **{role: (lambda u=u: api(u)) for role, u in changed.items()},
        "director": lambda: api(people.director), "organiser": lambda: api(organiser()),
    }[who]()
    if not public and who in ("player", "referee_link", "removed_director"):
        expected = 404  # a private event does not exist for whoever may not read it
    answer = client.patch(f"/api/v1/events/{event.pk}/", {"prizes": [{"place": 1, "prize": "a cup"}]},
                          format="json")
    assert answer.status_code == expected, answer.json()
    stored = Event.objects.get(pk=event.pk).prizes
    if expected == 200:
        assert answer.json()["prizes"] == stored == [{"place": 1, "prize": "a cup"}]
    else:
        assert stored == []
        assert set(answer.json()["errors"][0]) == {"result", "field", "message"}


def test_private_events_are_invisible_to_those_who_may_not_read_them():
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], is_public=False)
    public = new_event(Officials(), names=["Cat", "Dan"])
    ann = Entry.objects.get(event=event, player__display_name="Ann")
    for path in ("", "entries/", f"entries/{ann.pk}/", "rounds/", "matches/", "matches/?format=csv", "standings/",
                 "standings/?format=csv", "export/"):
        assert api().get(f"/api/v1/events/{event.pk}/{path}").status_code == 404
        assert api(user()).get(f"/api/v1/events/{event.pk}/{path}").status_code == 404
        assert api(people.recorder).get(f"/api/v1/events/{event.pk}/{path}").status_code == 200
    listed = [e["id"] for e in api().get("/api/v1/events/").json()["results"]]
    assert listed == [public.pk]
    mine = [e["id"] for e in api(people.director).get("/api/v1/events/").json()["results"]]
    assert mine == [public.pk, event.pk]  # newest first
    assert api().get("/api/v1/events/?status=registration&format=swiss&is_public=true").json()["count"] == 1


def test_refusals_name_the_field_and_change_nothing():
    people = Officials()
    boss, td = api(people.organiser), api(people.director)
    bad = boss.post("/api/v1/events/", {"name": "", "format": "ladder", "match_points": {"win": "lots"}},
                    format="json")
    assert bad.status_code == 400
    assert {e["field"] for e in bad.json()["errors"]} == {"name", "format", "match_points.win"}
    refused = boss.post("/api/v1/events/", {"name": "RR", "format": "round_robin", "rounds": 3,
                                            "tiebreaks": ["luck"], "conventions": {"preset": "nope"}}, format="json")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["conventions.preset", "rounds", "tiebreaks.0"]
    assert not Event.objects.exists()

    event = new_event(people, names=["Ann", "Bob", "Cleo"])
    base = f"/api/v1/events/{event.pk}"
    lines = td.post(f"{base}/entries/import/", {"text": "Dee,1500\nEd,strong\nann"}, format="json")
    assert lines.status_code == 400
    assert lines.json()["errors"] == [
        {"result": None, "field": "lines.2", "message": "line 2: the rating must be a whole number; 'strong' given"}]
    assert td.post(f"{base}/entries/", {"player": 99999}, format="json").json()["errors"][0]["field"] == "player"
    assert td.post(f"{base}/entries/", {"name": "Ann"}, format="json").json()["errors"] == [
        {"result": None, "field": "name", "message": f"Ann is already entered in {event.name}"}]
    assert td.post(f"{base}/seed/", {"method": "luck"}, format="json").json()["errors"][0]["field"] == "method"
    assert td.post(f"{base}/entries/999999/drop/", {}, format="json").status_code == 404
    assert Entry.objects.filter(event=event).count() == 3
    standings = api().get(f"{base}/standings/?round=-1")
    assert standings.status_code == 400
    assert standings.json()["errors"][0]["field"] == "round"
    assert api().get(f"{base}/standings/?format=xml").json()["errors"][0]["field"] == "format"
    assert api().get(f"{base}/matches/?status=won").json()["errors"][0]["field"] == "status"


def test_directors_tools_through_the_api():
    people = Officials()
    td = api(people.director)
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev", "Eve"], rounds=3)
    base = f"/api/v1/events/{event.pk}"
    seeded = td.post(f"{base}/seed/", {"method": "manual", "order": [entry(event, n).pk for n in
                                                                      ["Eve", "Dev", "Cleo", "Bob", "Ann"]]},
                     format="json").json()
    assert [(e["name"], e["seed"]) for e in seeded] == [("Eve", 1), ("Dev", 2), ("Cleo", 3), ("Bob", 4), ("Ann", 5)]
    added = td.post(f"{base}/entries/", {"name": "Finn", "rating": 1400}, format="json")
    assert added.status_code == 201
    assert added.json()["rating"] == 1400
    assert added.json()["seed"] is None

    draft = td.post(f"{base}/rounds/", {"publish": False}, format="json").json()
    assert draft["round"] == 1
    assert {m["status"] for m in draft["matches"]} == {"draft"}
    assert all(m["games"] == [] for m in draft["matches"])
    pairs = [m["entries"] for m in draft["matches"]]
    swapped = td.post(f"{base}/rounds/1/swap/", {"first": pairs[0][0], "second": pairs[1][0]}, format="json").json()
    assert swapped["warnings"] == []
    assert sorted(m["entries"] for m in swapped["matches"]) == sorted(
        [[pairs[1][0], pairs[0][1]], [pairs[0][0], pairs[1][1]], pairs[2]])
    published = td.post(f"{base}/rounds/1/publish/", {}, format="json").json()
    assert all(m["referee_url"].startswith("http://testserver/r/#") for m in published["matches"])
    first_links = {m["id"]: m["referee_url"] for m in published["matches"]}
    reissued = td.post(f"{base}/links/", {"round": 1}, format="json").json()
    assert {m["id"] for m in reissued["matches"]} == set(first_links)
    assert all(m["referee_url"] != first_links[m["id"]] for m in reissued["matches"])
    old_token = next(iter(first_links.values())).split("#")[1]
    assert api(referee_token=old_token).get("/api/v1/games/").status_code == 401  # revoked

    match = open_matches(event, 1)[0]
    a, _b = match.players.order_by("side")
    winner = a.entry.player.display_name
    forfeited = td.post(f"{base}/matches/{match.pk}/forfeit/", {"winner": winner, "reason": "no show"},
                        format="json").json()
    assert (forfeited["status"], forfeited["winner"], forfeited["forfeit"]) == ("decided", winner, True)
    adjusted = td.post(f"{base}/matches/{match.pk}/adjust/", {"winner": None, "margin": 0, "reason": "agreed draw"},
                       format="json").json()
    assert (adjusted["winner"], adjusted["margin"], adjusted["source"]) == (None, 0, "adjusted")
    cleared = td.post(f"{base}/matches/{match.pk}/clear/", {"reason": "play it"}, format="json").json()
    assert cleared["status"] == "waiting"
    assert [r["kind"] for r in cleared["director_results"]] == ["forfeit", "adjusted", "cleared"]
    assert cleared["director_results"][0]["entered_by"] == people.director.username
    wrong = td.post(f"{base}/matches/{match.pk}/forfeit/", {"winner": "Nobody", "reason": "x"}, format="json")
    assert wrong.json()["errors"] == [{"result": None, "field": "winner",
                                       "message": f"'Nobody' is not an entry of {event.name}"}]
    for m in open_matches(event, 1):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    dropped = td.post(f"{base}/entries/{entry(event, 'Finn').pk}/drop/", {"reason": "went home"},
                      format="json").json()
    assert (dropped["dropped"], dropped["dropped_after_round"], dropped["drop_reason"]) == (True, 1, "went home")
    second = td.post(f"{base}/rounds/", {}, format="json").json()
    assert second["round"] == 2
    assert all("Finn" not in m["players"] for m in second["matches"])
    assert api().get(f"{base}/matches/{second['matches'][0]['id']}/").json()["round"] == 2


def test_bracket_matches_by_their_ids_a_reset_and_a_knockout_through_the_api():
    people = Officials()
    td = api(people.director)
    swiss = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    base = f"/api/v1/events/{swiss.pk}"
    for number in (1, 2):
        td.post(f"{base}/rounds/", {}, format="json")
        for m in open_matches(swiss, number):
            play_match(people, m, min(p.entry.player.display_name for p in m.players.select_related("entry__player")))
    top = api(people.organiser).post(f"{base}/knockout/", {"top_n": 4, "format": "single_elimination",
                                                           "third_place": True}, format="json")
    assert top.status_code == 201, top.json()
    knockout = top.json()
    assert knockout["seeded_from"] == swiss.pk
    assert knockout["seeding"]["method"] == "standings"
    again = api(people.organiser).post(f"{base}/knockout/", {"top_n": 2}, format="json")
    assert again.status_code == 400
    assert again.json()["errors"] == [{"result": None, "field": "source_event", "message": (
        f"{swiss.name} already has its knockout, {knockout['name']} (event {knockout['id']}): a knockout is "
        "made once from an event's standings")}]
    assert Event.objects.filter(seeded_from=swiss).count() == 1
    kbase = f"/api/v1/events/{knockout['id']}"
    started = td.post(f"{kbase}/rounds/", {}, format="json").json()
    assert started["round"] is None
    assert sorted(m["match"] for m in started["matches"]) == ["W1-1", "W1-2"]
    seeds = [e["name"] for e in api().get(f"{kbase}/entries/").json()]
    assert seeds == [r["name"] for r in api().get(f"{base}/standings/").json()]
    assert api().get(f"{kbase}/matches/W1-1/").json()["players"] == [seeds[0], seeds[3]]
    assert api().get(f"{kbase}/matches/W9-9/").status_code == 404
    for m in Match.objects.filter(event_id=knockout["id"], reset_at__isnull=True):
        play_match(people, m, m.players.order_by("side").first().entry.player.display_name)
    assert {m["status"] for m in api().get(f"{kbase}/matches/").json()} == {"decided"}
    final = td.post(f"{kbase}/rounds/", {}, format="json").json()
    assert sorted(m["match"] for m in final["matches"]) == ["3P", "W2-1"]
    reset = td.post(f"{kbase}/bracket/reset/", {}, format="json")
    assert reset.status_code == 400
    assert reset.json()["errors"][0]["field"] == "bracket"
    assert Event.objects.get(pk=knockout["id"]).status == Event.Status.RUNNING
    g = Game.objects.get(pk=api().get(f"{kbase}/matches/W1-1/").json()["games"][0])
    scoring.correct_hand(actor=as_actor(people.organiser), game=g, number=1,
                         data={"result": "gin", "knocker": g.player_names[1], "opponent_deadwood": 30},
                         reason="the scores were swapped")
    scoring.confirm_hand(actor=as_actor(people.confirmer), game=g, number=1)
    detail = api().get(f"{kbase}/").json()
    assert sorted((w["kind"], w["match"]) for w in detail["warnings"]) == [
        ("bracket_players_changed", "3P"), ("bracket_players_changed", "W2-1")]
    assert "reset it to open the right match" in detail["warnings"][0]["message"]
    redone = td.post(f"{kbase}/bracket/reset/", {"reason": "W1-1 corrected"}, format="json")
    assert redone.status_code == 200, redone.json()
    assert len(redone.json()["reset"]) == 2  # the final and the third-place match were opened from W1-1
    assert sorted(m["match"] for m in redone.json()["matches"]) == ["3P", "W2-1"]
    assert api().get(f"{kbase}/").json()["warnings"] == []
