"""The entry page on phones 390 and 360 px wide, as a referee and the players use it: a field the page
hides is never sent (knock, then gin, records gin; the correction page too), a refused form always
says why, the touches a knock and a gin take (the loser's PIN after reading the hand back included),
a dead hand's accept card chooses nobody, and a PIN with a letter gets our words.

Same browser set-up as test_referee_phone (Debian's chromium through Playwright; data prepared before
the browser opens, checked after it closes).
"""

import re
from urllib.parse import parse_qsl

import pytest

from scoring import services
from scoring.models import Hand, PinFailure

from ..factories import as_actor, game, knock, user
from .table import SIZES, Touches, key, on_screen, play
from .test_referee_phone import phone_browser, sign_in, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_knock_then_gin_records_gin_and_the_hidden_deadwood_is_never_sent(live_server, width, height):
    """Knock, the knocker's deadwood 4, then Gin: the deadwood is hidden, so it is neither previewed
    ("Gin means no deadwood; 4 recorded") nor sent, and Record records the gin."""
    referee = user("phoneref")
    g = game(referees=[referee])
    posted = []
    with phone_browser(width, height) as page:
        page.on("request", lambda r: posted.append((r.url, r.post_data or "")) if r.method == "POST" else None)
        sign_in(page, live_server.url, g.pk)
        play(page, "knock", "Ann").click()
        key(page, 4).click()
        play(page, "gin", "Ann").click()
        sync_api.expect(page.locator("fieldset.keys")).to_be_hidden()
        page.locator("input[name=opponent_deadwood]").fill("25")
        preview = page.locator("#preview")
        sync_api.expect(preview).to_contain_text("Ann goes gin, Bob has 25: Ann scores 45 (+1 box)")
        assert "deadwood" not in preview.inner_text().replace("Bob has", "")
        page.click("button:has-text('Record hand 1')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 recorded")
    assert Hand.objects.get(game=g).data == {"result": "gin", "knocker": "Ann", "opponent_deadwood": 25}
    # What the page sent once Gin was chosen: its previews and the record. (A knock's preview may go out
    # before that, with its deadwood, if the tap on Gin comes more than the preview's 250 ms later.)
    gin = [(url, fields) for url, fields in ((url, form_fields(body)) for url, body in posted)
           if fields.get("play") == "gin:Ann"]
    assert {url.endswith("/preview/") for url, _ in gin} == {True, False}
    assert [fields for _, fields in gin if "knocker_deadwood" in fields] == []


def form_fields(body: str) -> dict[str, str]:
    """A form's fields as the browser posted them, name to value: the previews' multipart/form-data,
    the submitted form's urlencoded."""
    if body.startswith("--"):
        return dict(re.findall(r'name="([^"]+)"\r\n\r\n([^\r]*)', body))
    return dict(parse_qsl(body, keep_blank_values=True))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_correcting_a_knock_to_gin_saves_the_gin(live_server, width, height):
    """The correction page opens with the knock's values; choosing Gin hides (and stops sending) its
    deadwood, and the correction is saved as gin."""
    referee = user("phoneref")
    g = game(referees=[referee])
    services.record_hand(actor=as_actor(referee), game=g, data=knock("Ann", 6, 19))
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        page.goto(f"{live_server.url}/games/{g.pk}/hands/1/correct/")
        sync_api.expect(page.locator("#preview")).to_contain_text("Ann knocks with 6, Bob has 19")
        play(page, "gin", "Ann").click()
        sync_api.expect(page.locator("#preview")).to_contain_text("Ann goes gin, Bob has 19")
        page.fill("input[name=reason]", "it was gin")
        page.click("button:has-text('Save correction')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 corrected")
    current = Hand.objects.get(game=g, is_current=True)
    assert (current.version, current.data) == (2, {"result": "gin", "knocker": "Ann", "opponent_deadwood": 19})


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_refused_form_comes_back_saying_why_at_the_top(live_server, width, height):
    """Record with nothing chosen, and a knock the engine refuses (over an Oklahoma upcard's limit):
    the page comes back with what was not recorded and why, on screen without scrolling."""
    referee = user("phoneref")
    g = game(referees=[referee], conventions={"preset": "oklahoma"})
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        page.click("button:has-text('Record hand 1')")
        summary = page.locator("#form-errors")
        sync_api.expect(summary).to_contain_text("Hand 1 not recorded")
        sync_api.expect(summary).to_contain_text("Choose the result: who knocked or went gin, or a dead hand")
        assert on_screen(summary)
        page.fill("input[name=upcard]", "5S")
        play(page, "knock", "Ann").click()
        key(page, 8).click()
        page.locator("input[name=opponent_deadwood]").fill("30")
        page.locator("input[name=opponent_deadwood]").press("Enter")  # the keypad's Go key records
        sync_api.expect(summary).to_contain_text("Hand 1 not recorded")
        sync_api.expect(summary).to_contain_text("Knock needs deadwood <= 5")
        assert on_screen(summary)
    assert not Hand.objects.filter(game=g).exists()


def knock_with_acceptance(page, touches):
    """Ann knocks with 6, Bob has 19; Bob reads it back and accepts with his PIN, all on one screen."""
    touches.tap(play(page, "knock", "Ann"), "Ann: Knock")
    touches.tap(key(page, 6), "key 6")
    touches.type("19", into=page.locator("input[name=opponent_deadwood]"))
    accept = page.locator("[data-accept-now]")
    sync_api.expect(page.locator("#preview")).to_contain_text("Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)")
    sync_api.expect(accept.locator("label[for=accept-pin]")).to_have_text("Bob's PIN")
    touches.type("2222", into=accept.locator("input[name=accept_pin]"))
    touches.tap(page.locator("button:has-text('Record hand 1 and accept it')"), "Record")
    sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 recorded and accepted by Bob")


def gin_with_acceptance(page, touches):
    """Bob goes gin, Ann has 31; Ann reads it back and accepts with her PIN."""
    touches.tap(play(page, "gin", "Bob"), "Bob: Gin")
    touches.type("31", into=page.locator("input[name=opponent_deadwood]"))
    accept = page.locator("[data-accept-now]")
    sync_api.expect(page.locator("#preview")).to_contain_text("Bob goes gin, Ann has 31: Bob scores 51 (+1 box)")
    sync_api.expect(accept.locator("label[for=accept-pin]")).to_have_text("Ann's PIN")
    touches.type("1111", into=accept.locator("input[name=accept_pin]"))
    touches.tap(page.locator("button:has-text('Record hand 2 and accept it')"), "Record")
    sync_api.expect(page.locator(".messages")).to_contain_text("Hand 2 recorded and accepted by Ann")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_knock_takes_9_touches_and_a_gin_8_with_the_losers_pin_after_the_readback(live_server, width, height):
    """Counted from the entry page as it opens to the hand recorded and accepted: every tap (and a swipe
    for anything off the screen) and every key typed. Aims: a knock at most 10, a gin at most 8."""
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        knock_touches = Touches(page)
        knock_with_acceptance(page, knock_touches)
        gin_touches = Touches(page)
        gin_with_acceptance(page, gin_touches)
    assert knock_touches.count == 9, str(knock_touches)  # 1 + 1 + 2 keys + 4 PIN keys + Record
    assert gin_touches.count == 8, str(gin_touches)  # 1 + 2 keys + 4 PIN keys + Record
    hands = list(Hand.objects.filter(game=g).order_by("number"))
    assert [(h.data["result"], h.confirmed_by_player.display_name) for h in hands] == [("knock", "Bob"), ("gin", "Ann")]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_wrong_pin_on_the_entry_page_records_the_hand_and_leaves_it_to_accept(live_server, width, height):
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        play(page, "knock", "Ann").click()
        key(page, 6).click()
        page.keyboard.type("19")
        sync_api.expect(page.locator("input[name=accept_pin]")).to_be_focused()
        page.keyboard.type("9999")
        page.keyboard.press("Enter")
        # Why, on the card the page scrolled to, beside the PIN box that waits: not at the top, out of view.
        card = page.locator(".pending-card")
        refused = card.locator(".refused")
        sync_api.expect(refused).to_contain_text(
            "Hand 1 recorded, not accepted yet: that is not Bob's PIN (4 more tries")
        assert on_screen(refused)
        assert page.locator(".messages li").count() == 0
        sync_api.expect(card.locator("input[name=pin]")).to_be_focused()
        page.keyboard.type("8888")  # wrong again, on the card itself
        page.keyboard.press("Enter")
        sync_api.expect(refused).to_contain_text("Hand 1 not confirmed: that is not Bob's PIN (3 more tries")
        assert on_screen(refused)
        sync_api.expect(card.locator("input[name=pin]")).to_be_focused()
        page.keyboard.type("2222")
        page.keyboard.press("Enter")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 confirmed")
    hand = Hand.objects.get(game=g)
    assert hand.confirmed_by_player.display_name == "Bob"
    assert PinFailure.objects.filter(player__display_name="Bob").count() == 2


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_pin_typed_after_a_one_digit_count_goes_into_the_pin_box(live_server, width, height):
    """Knock, key 3, the opponent's count "7" (one digit): the PIN box opens under the hand read back and
    takes the keyboard, so the PIN typed next is the PIN, never more of the count ("71..."), and the hand
    accepted is the hand read back."""
    referee = user("phoneref")
    g = game(referees=[referee])
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        play(page, "knock", "Ann").click()
        key(page, 3).click()
        sync_api.expect(page.locator("input[name=opponent_deadwood]")).to_be_focused()
        page.keyboard.type("7")
        sync_api.expect(page.locator("#preview")).to_contain_text("Ann knocks with 3, Bob has 7")
        sync_api.expect(page.locator("input[name=accept_pin]")).to_be_focused()
        page.keyboard.type("2222")
        sync_api.expect(page.locator("input[name=opponent_deadwood]")).to_have_value("7")
        sync_api.expect(page.locator("#preview")).to_contain_text("Ann knocks with 3, Bob has 7")
        page.keyboard.press("Enter")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 recorded and accepted by Bob")
    hand = Hand.objects.get(game=g)
    assert (hand.data["opponent_deadwood"], hand.confirmed_by_player.display_name) == (7, "Bob")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_dead_hands_accept_card_chooses_nobody_so_a_pin_never_counts_against_another_player(
        live_server, width, height):
    """A dead hand may be accepted by either player. Nobody is chosen beforehand: Bob typing his PIN
    without tapping his name is told to choose, and no wrong try is counted against anyone (Ann above
    all); then Bob taps his name and it is accepted. The entry page's own PIN box does the same."""
    referee = user("phoneref")
    g = game(referees=[referee])
    services.record_hand(actor=as_actor(referee), game=g, data={"result": "dead"})
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        card = page.locator(".pending-card")
        sync_api.expect(card.locator("h2")).to_have_text(re.compile(r"Hand 1 awaits (Ann or Bob|Bob or Ann)"))
        assert card.locator("input[name=player]:checked").count() == 0
        card.locator("input[name=pin]").fill("2222")
        page.click("button:has-text('Accept hand 1')")
        sync_api.expect(page.locator(".pending-card .refused")).to_contain_text("Choose who is accepting")
        card.locator("label.choice:has-text('Bob')").click()
        card.locator("input[name=pin]").fill("2222")
        page.click("button:has-text('Accept hand 1')")
        sync_api.expect(page.locator(".messages")).to_contain_text("Hand 1 confirmed")
        play(page, "dead").click()
        accept = page.locator("[data-accept-now]")
        sync_api.expect(accept).to_contain_text(re.compile(r"(Ann or Bob|Bob or Ann) accepts"))
        assert accept.locator("input[name=accept_player]:checked").count() == 0
        accept.locator("input[name=accept_pin]").fill("1111")
        page.click("button:has-text('Record hand 2')")
        sync_api.expect(page.locator("#form-errors")).to_contain_text("Choose who is accepting")
    assert PinFailure.objects.count() == 0
    assert Hand.objects.get(game=g, number=1).confirmed_by_player.display_name == "Bob"
    assert Hand.objects.filter(game=g).count() == 1  # hand 2 was sent back, not recorded


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_pin_with_a_letter_gets_our_words_and_spends_no_try(live_server, width, height):
    referee = user("phoneref")
    g = game(referees=[referee])
    services.record_hand(actor=as_actor(referee), game=g, data=knock("Ann", 6, 19))
    with phone_browser(width, height) as page:
        sign_in(page, live_server.url, g.pk)
        page.locator(".pending-card input[name=pin]").fill("22a2")
        page.click("button:has-text('Accept hand 1')")
        sync_api.expect(page.locator(".pending-card .refused")).to_contain_text(
            "Hand 1 not confirmed: a PIN is 4 to 8 digits (0-9): type it again")
        assert "match the requested format" not in page.content()
    assert PinFailure.objects.count() == 0
    assert not Hand.objects.get(game=g).is_confirmed
