"""Issue 11, the table looked at: each point through the web pages (Django's test client)."""

import re

import pytest

from scoring import services
from scoring.models import Game, Hand, Player

from ..factories import as_actor, game, gin, knock, organiser, player, seat_user, user

pytestmark = pytest.mark.django_db


def entry_page(client, g):
    return client.get(f"/games/{g.pk}/enter/").content.decode()


def form_keys(page):
    once = re.search(r'name="once" value="([^"]+)"', page).group(1)
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    return {"once": once, "number": number}


def pending_card(page, number=1):
    card = re.search(rf'<section class="pending-card" data-pending="{number}"[^>]*>(.*?)</section>', page, re.S)
    return card.group(1)


# ---- Accepting a hand


def test_the_accept_card_and_the_sheet_read_the_hand_back_in_the_engines_numbers(client):
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Bob", 8, 8))
    client.force_login(ref)
    said = "Bob knocks with 8, Ann has 8: undercut, Ann scores 10 (+1 box)"
    assert said in pending_card(entry_page(client, g))
    assert said in client.get(f"/games/{g.pk}/").content.decode()


def test_the_accept_form_offers_only_who_may_accept_likely_first_and_no_pin_path_without_a_pin(client):
    ref = user()
    g = game(names=("Ann", "Bob", "Cat"), pins=("1111", "", "3333"), fmt="jersey", referees=[ref])
    # Ann knocks with 8, Bob undercuts with 6: Bob wins; Ann (penalised) and Cat may accept; Ann first.
    services.record_hand(actor=as_actor(ref), game=g, data={"result": "knock", "knocker": "Ann",
                                                            "knocker_deadwood": 8, "deadwood": {"Bob": 6, "Cat": 20}})
    client.force_login(ref)
    card = pending_card(entry_page(client, g))
    offered = re.findall(r'name="player" value="([^"]+)"', card)
    assert offered == ["Ann", "Cat"]  # never Bob, who won it; the undercut knocker first
    # nobody is chosen beforehand: a PIN typed for a preselected player would count against them
    assert "checked" not in card
    # a referee who entered the hand is not offered to confirm it as a second official
    assert "second official" not in card
    g2 = game(names=("Dan", "Eve"), pins=("1111", ""), referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g2, data=knock("Dan", 6, 19))
    card = pending_card(entry_page(client, g2))
    assert 'name="pin"' not in card  # Eve has no PIN: no PIN box to type into
    assert "Eve has no PIN" in card


def test_a_second_official_sees_the_confirm_button_and_the_enterer_does_not(client):
    enterer, other = user(), user()
    g = game(referees=[enterer, other])
    services.record_hand(actor=as_actor(enterer), game=g, data=knock("Ann", 6, 19))
    client.force_login(enterer)
    assert "Confirm as second official" not in client.get(f"/games/{g.pk}/").content.decode()
    client.force_login(other)
    assert "Confirm as second official" in client.get(f"/games/{g.pk}/").content.decode()


def test_a_player_signed_in_is_offered_to_accept_as_themselves_only_when_the_hand_goes_against_them(client):
    ref = user()
    g = game(referees=[ref])
    ann, bob = seat_user(g, 0, "ann"), seat_user(g, 1, "bob")
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    client.force_login(bob)
    assert "Accept as Bob" in client.get(f"/games/{g.pk}/").content.decode()
    client.force_login(ann)
    assert "Accept as" not in client.get(f"/games/{g.pk}/").content.decode()


# ---- Never twice, never stuck


def test_a_form_for_a_hand_already_recorded_records_nothing_and_says_which_hand_is_there(client):
    ref = user()
    g = game(referees=[ref])
    client.force_login(ref)
    stale = form_keys(entry_page(client, g))
    client.post(f"/games/{g.pk}/enter/", {**knock("Ann", 6, 19), **form_keys(entry_page(client, g))})
    response = client.post(f"/games/{g.pk}/enter/", {**knock("Bob", 2, 30), **stale}, follow=True)
    text = response.content.decode()
    assert Hand.objects.filter(game=g).count() == 1
    assert "hand 1 is already recorded" in text
    assert "Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)" in text
    assert "nothing was recorded" not in text  # "Nothing recorded: ..." says it once, at the start


def test_a_one_time_key_sent_again_says_what_happened_whatever_it_holds(client):
    ref = user()
    g = game(referees=[ref])
    client.force_login(ref)
    keys = form_keys(entry_page(client, g))
    first = client.post(f"/games/{g.pk}/enter/", {**knock("Ann", 6, 19), **keys}, follow=True).content.decode()
    assert "Hand 1 recorded." in first
    again = client.post(f"/games/{g.pk}/enter/", {**knock("Ann", 6, 19), **keys}, follow=True).content.decode()
    assert "hand 1 was already recorded from this form" in again
    other = client.post(f"/games/{g.pk}/enter/", {**knock("Ann", 2, 19), **keys}, follow=True).content.decode()
    assert "this form already recorded hand 1, so the values sent now were not recorded" in other
    assert "Hand recorded." not in again + other
    assert Hand.objects.filter(game=g).count() == 1


def test_fix_last_hand_is_offered_for_a_pending_hand_and_corrects_it(client):
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    client.force_login(ref)
    page = entry_page(client, g)
    assert f'href="/games/{g.pk}/hands/1/correct/"' in page
    assert "Fix last hand" in page
    # the game page's correction list names the pending hand too
    assert f'href="/games/{g.pk}/hands/1/correct/"' in client.get(f"/games/{g.pk}/").content.decode()
    client.post(f"/games/{g.pk}/hands/1/correct/", {**knock("Ann", 5, 19), "reason": "recount"})
    assert Hand.objects.get(game=g, is_current=True).data["knocker_deadwood"] == 5
    # anonymous visitors and other referees get no such button
    client.force_login(user())
    assert "Fix last hand" not in client.get(f"/games/{g.pk}/").content.decode()


def test_the_correction_page_shows_the_hand_in_words_in_the_entry_fields_with_a_live_preview(client):
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    client.force_login(ref)
    page = client.get(f"/games/{g.pk}/hands/1/correct/").content.decode()
    assert "Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)" in page
    assert "{&#x27;" not in page  # no Python dict
    assert 'name="knocker_deadwood" value="6"' in page
    assert f'data-preview="/games/{g.pk}/preview/?correct=1"' in page
    preview = client.post(f"/games/{g.pk}/preview/?correct=1", knock("Ann", 2, 19)).json()
    assert preview["said"] == "Ann knocks with 2, Bob has 19: Ann scores 17 (+1 box)"
    assert Hand.objects.filter(game=g).count() == 1


def test_the_history_page_shows_versions_in_words(client):
    ref, org = user(), organiser()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    services.correct_hand(actor=as_actor(org), game=g, number=1, data=gin("Ann", 19), reason="it was gin")
    page = client.get(f"/games/{g.pk}/history/").content.decode()
    assert "Ann knocks with 6, Bob has 19: Ann scores 13 (+1 box)" in page
    assert "Ann goes gin, Bob has 19: Ann scores 39 (+1 box)" in page
    assert "&#x27;result&#x27;" not in page


def test_buttons_a_referee_may_not_use_are_not_shown(client):
    ref = user()
    g = game(referees=[ref], requires_confirmation=False)
    for data in (knock("Ann", 6, 19), knock("Bob", 2, 10)):
        services.record_hand(actor=as_actor(ref), game=g, data=data)
    client.force_login(ref)
    page = client.get(f"/games/{g.pk}/").content.decode()
    assert f"/games/{g.pk}/hands/1/correct/" not in page  # hand 2 is confirmed: past the referee's window
    assert f"/games/{g.pk}/hands/2/correct/" in page
    assert client.get(f"/games/{g.pk}/hands/1/correct/").status_code == 403
    assert client.get("/games/new/").status_code == 403
    assert client.get("/players/new/").status_code == 403
    assert "New game" not in page


# ---- Pages that fit, in words


def test_messages_use_the_fields_label_shown_once_beside_the_field(client):
    ref = user()
    g = game(referees=[ref])
    client.force_login(ref)
    page = client.post(f"/games/{g.pk}/enter/", {"result": "knock", "knocker": "Ann", "knocker_deadwood": "4",
                                                 "opponent_deadwood": "e"}).content.decode()
    # beside its field, and in the list at the top that says the hand was not recorded
    message = "Opponent&#x27;s deadwood (after lay-offs): type a number of points, like 12"
    assert page.count(message) == 2
    summary = re.search(r'<div class="errors form-errors".*?</div>', page, re.S).group(0)
    assert "Hand 1 not recorded" in summary
    assert message in summary
    assert "opponent_deadwood" not in re.sub(r'(name|for|id|data-errors-for|aria-describedby)="[^"]*"', "", page)
    no_knocker = client.post(f"/games/{g.pk}/enter/", {"result": "gin", "opponent_deadwood": "4"}).content.decode()
    assert "Say who knocked or went gin" in no_knocker
    assert "None is not" not in no_knocker
    preview = client.post(f"/games/{g.pk}/preview/", {"result": "knock", "knocker": "Ann"}).json()
    assert {"field": "knocker_deadwood", "label": "Knocker's deadwood",
            "message": "Knocker's deadwood is required"} in preview["errors"]
    client.post(f"/games/{g.pk}/enter/", knock("Ann", 6, 19))
    wrong = client.post(f"/games/{g.pk}/hands/1/confirm/", {"player": "", "pin": ""}, follow=True).content.decode()
    assert "Choose who is accepting" in wrong
    assert "None is not" not in wrong


def test_count_inputs_open_the_numeric_keypad_and_the_pin_box_too(client):
    ref = user()
    g = game(referees=[ref])
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    client.force_login(ref)
    page = entry_page(client, g)
    for name in ("opponent_deadwood", "pin", "accept_pin"):
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)
        assert 'inputmode="numeric"' in tag, tag
    # the knocker's deadwood is a key per count up to the knock limit: one tap, no keypad
    assert re.findall(r'name="knocker_deadwood" value="(\d+)"', page) == [str(n) for n in range(1, 11)]


def test_the_sheet_lists_hands_in_number_order_with_voids_in_place_and_corrections_marked(client):
    org = organiser()
    g = game(by=org, referees=[org], requires_confirmation=False)
    for data in (knock("Ann", 6, 19), knock("Bob", 2, 10), gin("Ann", 20)):
        services.record_hand(actor=as_actor(org), game=g, data=data)
    services.void_hand(actor=as_actor(org), game=g, number=1, reason="misdeal")
    services.correct_hand(actor=as_actor(org), game=g, number=2, data=knock("Bob", 3, 10), reason="recount")
    page = client.get(f"/games/{g.pk}/").content.decode()
    rows = re.findall(r'<tr id="hand-(\d+)"', page)
    assert rows == ["1", "2", "3"]
    void = re.search(r'<tr id="hand-1" class="void">(.*?)</tr>', page, re.S).group(1)
    assert "misdeal" in void
    corrected = re.search(r'<tr id="hand-2" class="corrected">(.*?)</tr>', page, re.S).group(1)
    assert f'/games/{g.pk}/history/#hand-2' in corrected


def test_complete_after_hand_n_names_the_hand_as_the_sheet_numbers_it(client):
    """Hand 1 is void, so stored hand 2 is the engine's first: the refusal names hand 2, not 1."""
    org = organiser()
    g = game(by=org, referees=[org], requires_confirmation=False)
    for data in (knock("Ann", 6, 19), knock("Bob", 2, 10), gin("Ann", 20)):
        services.record_hand(actor=as_actor(org), game=g, data=data)
    services.void_hand(actor=as_actor(org), game=g, number=1, reason="misdeal")
    client.force_login(org)
    page = client.post(f"/games/{g.pk}/hands/2/correct/", {**gin("Ann", 98), "reason": "it was gin"}).content.decode()
    assert "The game was already complete after hand 2; no hand can follow it" in page
    assert Hand.objects.filter(game=g, action="correction").count() == 0


def test_the_entry_page_headline_is_the_score_toward_the_target_then_the_grand_total_once_settled(client):
    ref = user()
    g = game(referees=[ref], requires_confirmation=False)
    services.record_hand(actor=as_actor(ref), game=g, data=knock("Ann", 6, 19))
    client.force_login(ref)
    line = re.search(r'<dl class="totals-line".*?</dl>', entry_page(client, g), re.S).group(0)
    assert "Toward 100" in line
    assert "Grand total" not in line
    # 13 points toward 100: the box (20) is in the grand total, not in the race to the target
    assert re.search(r"Ann</span> <strong>13</strong>.*Bob</span> <strong>0</strong>", line)
    services.record_hand(actor=as_actor(ref), game=g, data=gin("Ann", 90))
    page = entry_page(client, g)
    assert re.search(r'<p class="result-line" data-result><strong>Ann wins</strong> by \d+</p>', page)
    line = re.search(r'<dl class="totals-line".*?</dl>', page, re.S).group(0)
    assert "Grand total" in line


def test_partnership_games_are_titled_by_teams(client):
    g = game(names=("Ann", "Cleo", "Bob", "Dev"), fmt="partnership")
    assert "Ann &amp; Cleo v Bob &amp; Dev" in client.get(f"/games/{g.pk}/").content.decode()
    assert "Ann &amp; Cleo v Bob &amp; Dev" in client.get("/games/").content.decode()


def test_a_name_differing_only_in_case_is_refused_and_the_existing_player_offered(client):
    org = organiser()
    client.force_login(org)
    client.post("/players/new/", {"display_name": "Gail"})
    page = client.post("/players/new/", {"display_name": "gail"}).content.decode()
    gail = Player.objects.get(display_name="Gail")
    assert "Gail already exists" in page
    assert f"/games/new/?player_1={gail.pk}" in page
    assert Player.objects.filter(display_name__iexact="gail").count() == 1
    with pytest.raises(services.NameTaken):
        player("GAIL")


# ---- Without JSON


def test_a_games_conventions_are_chosen_field_by_field_and_the_sheet_names_what_differs(client):
    org = organiser()
    client.force_login(org)
    form = client.get("/games/new/").content.decode()
    assert 'name="overrides"' not in form
    assert "null" not in form
    for name in ("tie_rule", "shutout", "shutout_bonus", "boxes_count_toward_target", "gin_bonus"):
        assert f'name="conv_{name}"' in form
    for shown in ("0 to 1000", 'value="knocker"', 'value="flat"'):
        assert shown in form
    ann, bob = player("Ann2"), player("Bob2")
    client.post("/games/new/", {"format": "standard", "player_1": ann.pk, "player_2": bob.pk, "preset": "classic",
                                "conv_gin_bonus": "25", "conv_tie_rule": "knocker", "conv_shutout": "flat",
                                "conv_shutout_bonus": "50", "conv_boxes_count_toward_target": "yes",
                                "table_label": "T5"})
    g = Game.objects.get(table_label="T5")
    assert (g.conventions["gin_bonus"], g.conventions["tie_rule"], g.conventions["shutout"],
            g.conventions["shutout_bonus"], g.conventions["boxes_count_toward_target"]) == (25, "knocker", "flat",
                                                                                            50, True)
    assert g.conventions["undercut_bonus"] == 10  # untouched: the preset's
    sheet = client.get(f"/games/{g.pk}/").content.decode()
    assert ("classic, gin bonus 25, boxes count toward the target yes, shutout adds a flat bonus, "
            "flat shutout bonus 50, a tie goes to the knocker") in sheet
