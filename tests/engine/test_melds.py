"""The fast meld solver against the brute-force reference, and hand-made cases of every lay-off kind."""

import random

import pytest

from scoring.engine import CardError, analyse, min_deadwood, parse_cards
from scoring.engine.cards import ALL_CARDS
from scoring.engine.melds import best_layoffs, check_meld, knockers_choice

from . import reference

SEED = 20261122


def dense_pool(rng):
    """The cards of a few neighbouring ranks: hands drawn from it are full of melds and conflicts."""
    low = rng.randrange(0, 10)
    ranks = set(range(low, low + rng.choice((3, 4))))
    return [c for c in ALL_CARDS if c.rank in ranks]


def random_hands(count, size, *, dense, seed=SEED):
    rng = random.Random(seed + size + (1000 if dense else 0))
    for _ in range(count):
        pool = dense_pool(rng) if dense else list(ALL_CARDS)
        yield rng.sample(pool, size)


def names(cards):
    return [str(c) for c in cards]


@pytest.mark.parametrize("dense", [False, True], ids=["whole deck", "meld dense"])
def test_ten_cards_agree_with_the_reference(dense):
    for cards in random_hands(2000, 10, dense=dense):
        assert min_deadwood(parse_cards(cards)) == reference.min_deadwood(cards), names(cards)


@pytest.mark.parametrize("dense", [False, True], ids=["whole deck", "meld dense"])
def test_eleven_cards_agree_with_the_reference_after_the_best_discard(dense):
    for cards in random_hands(800, 11, dense=dense):
        assert min_deadwood(parse_cards(cards)) == reference.min_deadwood_after_discard(cards), names(cards)


def test_the_tied_meld_group_trap_has_17_after_the_best_discard():
    # A widely used compiled solver answers 18 here.
    cards = "4S 8S 3H 6H 4D 6D 7D 8D 6C 7C 8C".split()
    assert min_deadwood(cards) == 17
    assert analyse(cards).as_dict()["deadwood"] == 17


def test_strings_and_parsed_cards_give_the_same_count():
    cards = "AS 2S 3S 7H 7D 7C 9C KD QD JD".split()
    assert min_deadwood(cards) == min_deadwood(parse_cards(cards)) == 9


@pytest.mark.parametrize("size", [10, 11])
def test_the_full_analysis_is_a_valid_arrangement_with_the_least_deadwood(size):
    for cards in random_hands(400, size, dense=True, seed=SEED + 7):
        result = analyse(cards)
        kept = [c for m in result.melds for c in m.cards] + list(result.deadwood_cards)
        assert len(kept) == len(set(kept)) == (11 if result.big_gin else 10)
        for meld in result.melds:
            check_meld(meld.cards)
        assert result.deadwood == sum(c.value for c in result.deadwood_cards) == min_deadwood(cards)
        if size == 11 and not result.big_gin:
            assert set(names(kept)) | {str(result.discard)} == set(names(cards))


def test_eleven_cards_all_melded_is_big_gin_with_no_discard():
    result = analyse("AS 2S 3S 4S 7H 7D 7C 9C TC JC QC".split()).as_dict()
    assert (result["big_gin"], result["discard"], result["deadwood"]) == (True, None, 0)


def test_eleven_cards_with_one_loose_card_discard_it_for_gin():
    result = analyse("AS 2S 3S 4S 7H 7D 7C 9C TC JC KH".split()).as_dict()
    assert (result["big_gin"], result["discard"], result["deadwood"]) == (False, "KH", 0)


class TestParseCards:
    def test_every_spelling_of_rules_md(self):
        assert names(parse_cards(["AS", "10h", "7♠", " qd ", "K♣", "t♦"])) == ["AS", "TH", "7S", "QD", "KC", "TD"]

    @pytest.mark.parametrize(("cards", "message"), [
        (["AS", "1S"], "card 2: '1S' is not a card"),
        (["AS", "ZZ"], "card 2: 'ZZ' is not a card"),
        (["AS", 7], "card 2: 7 is not a card"),
        (["AS", "as"], "AS appears twice"),
        ("AS 2S", "must be a list"),
    ])
    def test_bad_cards_are_refused_clearly(self, cards, message):
        with pytest.raises(CardError, match=message):
            parse_cards(cards)

    def test_a_wrong_number_of_cards(self):
        with pytest.raises(CardError, match="10 or 11 cards needed; 3 given"):
            min_deadwood(["AS", "2S", "3S"])
        with pytest.raises(CardError, match="10 cards needed; 9 given"):
            parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S".split(), sizes=(10,))


def melds(*texts):
    return [check_meld(parse_cards(t.split()).cards) for t in texts]


class TestLayOffs:
    def opponent(self, text):
        return parse_cards(text.split())

    def test_the_fourth_card_of_a_set(self):
        result = best_layoffs(melds("7H 7D 7C"), self.opponent("7S 2C 4C 6C 9D JD KD 3H 5H 9H"))
        assert [(str(lo.card), str(lo.meld)) for lo in result.layoffs] == [("7S", "7H 7D 7C")]

    def test_either_end_of_a_run(self):
        result = best_layoffs(melds("5H 6H 7H"), self.opponent("4H 8H 2C 4C 6C 9D JD KD AS QS"))
        assert sorted(str(lo.card) for lo in result.layoffs) == ["4H", "8H"]

    def test_chained_onto_a_run(self):
        result = best_layoffs(melds("AS 2S 3S"), self.opponent("4S 5S 9H 2C 4C 6C 9D JD KD QH"))
        assert [str(lo.card) for lo in result.layoffs] == ["4S", "5S"]
        assert all(str(lo.meld) == "AS 2S 3S" for lo in result.layoffs)

    def test_a_chain_stops_at_the_first_missing_card(self):
        result = best_layoffs(melds("AS 2S 3S"), self.opponent("5S 6S 9H 2C 4C 6C 9D JD KD QH"))
        assert result.layoffs == ()

    def test_a_card_leaves_the_opponents_own_meld_when_that_leaves_less_deadwood(self):
        # 8S leaves the opponent's four eights (8H 8D 8C stay a set) so that 9S can chain after it
        result = best_layoffs(melds("5S 6S 7S"), self.opponent("8S 8H 8D 8C 9S 2C 4C 6C 9D KD"))
        assert [str(lo.card) for lo in result.layoffs] == ["8S", "9S"]
        assert [str(m) for m in result.melds] == ["8H 8D 8C"]
        assert result.deadwood == 2 + 4 + 6 + 9 + 10

    def test_an_own_run_is_not_broken_for_a_lay_off_that_gains_nothing(self):
        result = best_layoffs(melds("5S 6S 7S"), self.opponent("8S 9S TS 2C 4C 6C 9D JD KD QH"))
        assert result.layoffs == ()
        assert result.deadwood == 2 + 4 + 6 + 9 + 10 + 10 + 10

    def test_a_set_of_four_keeps_its_card_when_laying_it_off_gains_nothing(self):
        result = best_layoffs(melds("5S 6S 7S"), self.opponent("8S 8H 8D 8C 2C 4C 6C 9D KD QH"))
        assert [str(lo.card) for lo in result.layoffs] == []  # all four 8s already melded: nothing gained
        assert result.deadwood == 2 + 4 + 6 + 9 + 10 + 10

    def test_one_card_offered_to_two_melds_is_laid_off_once(self):
        result = best_layoffs(melds("8H 8D 8C", "5S 6S 7S"), self.opponent("8S 9S 2C 4C 6C 9D JD KD QH AH"))
        assert sorted(str(lo.card) for lo in result.layoffs) == ["8S", "9S"]

    def test_nothing_is_laid_off_onto_knocker_deadwood(self):
        # the knocker's pair of twos is deadwood, not a meld: the opponent's third two stays deadwood
        result = best_layoffs(melds("5H 6H 7H"), self.opponent("2C 9S JS 4C 6C 9D JD KD QH AH"))
        assert result.layoffs == ()

    def test_random_knocks_agree_with_the_reference(self):
        rng = random.Random(SEED)
        checked = 0
        while checked < 250:
            pool = dense_pool(rng) + rng.sample(list(ALL_CARDS), 12)
            pool = list(dict.fromkeys(pool))
            if len(pool) < 20:
                continue
            cards = rng.sample(pool, 20)
            knocker, opponent = parse_cards(cards[:10]), parse_cards(cards[10:])
            chosen, result = knockers_choice(knocker, opponent)
            best = [p for p in reference.partitions(knocker.cards)
                    if sum(c.value for c in p[1]) == chosen.deadwood]
            assert best, names(cards)
            expected = max(reference.opponent_deadwood(p[0], opponent.cards) for p in best)
            assert result.deadwood == expected, (names(cards), [str(m) for m in chosen.melds])
            assert result.deadwood == reference.opponent_deadwood(
                [frozenset(m.cards) for m in chosen.melds], opponent.cards)
            checked += 1


def test_the_knocker_spreads_the_arrangement_that_leaves_the_opponent_most():
    # 7S can go in the set 7S 7H 7D or the run 5S 6S 7S ... the knocker holds 7S 7H 7D 7C 4S 5S 6S:
    # set of four + 4-5-6S, or set 7H 7D 7C + run 4S-7S. The opponent holds 8S and 3S.
    knocker = parse_cards("7S 7H 7D 7C 4S 5S 6S 2D 3D AH".split())
    opponent = parse_cards("8S 3S 9H TH JC QC KC 2H 4H 9D".split())
    chosen, result = knockers_choice(knocker, opponent)
    assert chosen.deadwood == 6
    # with 4S-7S spread the opponent lays off 3S and 8S; with 7777 + 4S 5S 6S only 3S (and no 7 to add)
    assert sorted(str(m) for m in chosen.melds) == ["4S 5S 6S", "7S 7H 7D 7C"]
    assert [str(lo.card) for lo in result.layoffs] == ["3S"]
