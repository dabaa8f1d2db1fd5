"""Pages everyone can read (WCAG 2.0/2.1 A and AA, checked by axe-core in the browser, the copy that
axe-playwright-python ships: no CDN): every kind of page at a phone's width, as a spectator, a referee and a
director, and the projector at 1920x1080: no serious or critical violation."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from scoring import services as scoring
from tournaments import services

from ..factories import as_actor, gin, knock, organiser, player, user
from .test_referee_phone import phone_browser
from .test_round_to_time import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
         "resultTypes": ["violations"]}


def _scene():
    boss, director, referee = organiser(), user("axetd"), user("axeref")
    for name, pin in {"Ann": "1111", "Bob": "2222", "Cleo": "3333", "Dev": "4444"}.items():
        player(name, pin=pin, club="Riverside")
    event = services.create_event(actor=as_actor(boss), name="Axe Swiss", format="swiss", rounds=2,
                                  conventions={"preset": "classic", "target": 50}, directors=[director],
                                  referees=[referee], check_in=False, registration_open=True)
    services.add_entries_from_text(actor=as_actor(director), event=event, club="Riverside",
                                   text="Ann\nBob\nCleo\nDev")
    opened = services.pair_next_round(actor=as_actor(director), event=event)
    first, second = opened.matches
    g1 = first.match_games.get().game
    scoring.record_hand(actor=as_actor(referee), game=g1, data=knock(g1.player_names[0], 6, 19))
    g2 = second.match_games.get().game
    scoring.record_hand(actor=as_actor(referee), game=g2, data=gin(g2.player_names[0], 40))
    scoring.confirm_hand(actor=as_actor(boss), game=g2, number=1)
    return event, first, g1, g2, boss


def _serious(axe, page, url):
    page.goto(url)
    found = axe.run(page, options=RULES)
    return [f"{url}: {v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
            for v in found.response["violations"] if v["impact"] in ("serious", "critical")]


def test_every_kind_of_page_has_no_serious_or_critical_violation_at_phone_width(live_server):
    event, match, g1, g2, _ = _scene()
    base, e = live_server.url, f"/events/{event.pk}"
    spectator = ["/", "/games/", f"/games/{g2.pk}/", f"/games/{g2.pk}/history/", "/events/", f"{e}/",
                 f"{e}/pairings/", f"{e}/standings/", f"{e}/entries/", f"{e}/matches/{match.pk}/", f"{e}/register/",
                 "/ratings/", "/seasons/", "/calculator/", "/events/calculator/", "/accounts/login/"]
    referee = [f"/games/{g1.pk}/enter/", "/events/my-tables/"]
    director = [f"{e}/", f"{e}/entries/", f"{e}/rounds/1/", f"{e}/matches/{match.pk}/", f"{e}/cards/"]
    problems = []
    axe = Axe()
    with phone_browser() as page:
        problems += [p for url in spectator for p in _serious(axe, page, base + url)]
        _sign_in(page, base, "axeref", referee[0])
        problems += [p for url in referee for p in _serious(axe, page, base + url)]
    with phone_browser() as page:
        _sign_in(page, base, "axetd", director[0])
        problems += [p for url in director for p in _serious(axe, page, base + url)]
    with phone_browser(1920, 1080) as screen:  # the projector, and a laptop's width for the pairings
        problems += _serious(axe, screen, f"{base}{e}/display/")
        problems += _serious(axe, screen, f"{base}{e}/pairings/")
    assert problems == []
