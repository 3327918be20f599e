"""The rules: the seeds' examples, the reason codes, and the fast rules against a literal reference."""

from __future__ import annotations

import random

import pytest

import engine
from engine.cards import card_str, cards_to_mask, mask_cards
from engine.rules import beats, deal_score, legal_mask, locked_reasons
from tests.engine.reference import reference_legal_plays, reference_trick_winner

ALL_CARDS = [card_str(c) for c in range(52)]


# --- scoring (the seeds' examples) -------------------------------------------------------------

@pytest.mark.parametrize(
    ("bid", "won", "tenths", "shown"),
    [(4, 6, 42, "4.2"), (4, 3, -40, "-4.0"), (1, 13, 22, "2.2"), (5, 4, -50, "-5.0"), (4, 5, 41, "4.1"),
     (5, 5, 50, "5.0"), (13, 13, 130, "13.0"), (13, 0, -130, "-13.0"), (2, 0, -20, "-2.0")],
)
def test_deal_scores_in_tenths(bid: int, won: int, tenths: int, shown: str) -> None:
    assert deal_score(bid, won) == tenths
    assert engine.format_tenths(tenths) == shown


def test_underbidding_costs_little_and_overbidding_a_lot() -> None:
    # The seeds: won 5, bid 4 scores 4.1, bid 5 scores 5.0; bid 5 won 4 is -5.0, 9 worse than bid 4 made.
    assert deal_score(5, 5) - deal_score(4, 5) == 9
    assert deal_score(4, 4) - deal_score(5, 4) == 90


def test_format_tenths_small_negative() -> None:
    assert engine.format_tenths(-1) == "-0.1"
    assert engine.format_tenths(0) == "0.0"
    assert engine.format_tenths(7) == "0.7"


# --- the forced-play readings of rules.md as facts about legal sets -----------------------------

def test_follower_with_a_higher_card_must_beat() -> None:
    # Led 10♥, not trumped: whoever holds J♥..A♥ must play one of them, so following 3♥ proves none.
    hand = ["3H", "JH", "AS", "2D"]
    assert engine.legal_plays(hand, ["TH"], False) == ["JH"]
    assert engine.locked_plays(hand, ["TH"], False) == {"3H": "must_beat", "AS": "must_follow_suit",
                                                         "2D": "must_follow_suit"}
    # Any higher card will do, not necessarily the highest.
    assert engine.legal_plays(["QH", "KH", "3H"], ["TH"], False) == ["QH", "KH"]


def test_follower_without_a_higher_card_plays_any_of_the_suit() -> None:
    assert engine.legal_plays(["3H", "9H", "AS"], ["TH", "JH"], False) == ["3H", "9H"]


def test_void_with_a_spade_on_an_untrumped_trick_must_trump() -> None:
    # So a player who discards a ♦ on an untrumped ♥ trick holds no spade at all.
    hand = ["2S", "5D", "KC"]
    assert engine.legal_plays(hand, ["TH"], False) == ["2S"]
    assert engine.locked_plays(hand, ["TH"], False) == {"5D": "must_trump", "KC": "must_trump"}
    assert engine.legal_plays(["5D", "KC"], ["TH"], False) == ["5D", "KC"]


def test_void_must_overtrump_when_a_higher_spade_is_held() -> None:
    hand = ["2S", "QS", "5D"]
    assert engine.legal_plays(hand, ["TH", "9S"], False) == ["QS"]
    assert engine.locked_plays(hand, ["TH", "9S"], False) == {"2S": "must_overtrump", "5D": "must_overtrump"}


def test_a_losing_spade_is_not_forced() -> None:
    # Spade on the table and no higher spade held: any card, the low spade included.
    hand = ["2S", "5S", "5D", "KC"]
    assert engine.legal_plays(hand, ["TH", "9S"], False) == hand
    assert engine.locked_plays(hand, ["TH", "9S"], False) == {}


def test_a_trumped_trick_lifts_the_duty_to_beat_in_the_led_suit() -> None:
    hand = ["3H", "AH", "KS"]
    assert engine.legal_plays(hand, ["TH", "2S"], False) == ["3H", "AH"]
    assert engine.legal_plays(hand, ["TH"], False) == ["AH"]


def test_spades_led_must_beat_the_highest_spade() -> None:
    assert engine.legal_plays(["3S", "KS", "AH"], ["TS", "QS"], False) == ["KS"]
    assert engine.legal_plays(["3S", "5S", "AH"], ["TS"], False) == ["3S", "5S"]
    # Void in spades when spades are led: anything.
    assert engine.legal_plays(["3H", "AD"], ["TS"], False) == ["3H", "AD"]


def test_first_trick_lead_no_spade_with_a_mixed_hand() -> None:
    hand = ["AS", "KS", "2H", "3C"]
    assert engine.legal_plays(hand, [], True) == ["2H", "3C"]
    assert engine.locked_plays(hand, [], True) == {"AS": "no_spade_lead_first_trick",
                                                   "KS": "no_spade_lead_first_trick"}
    # From the second trick on, spades may be led: no "spades broken" rule.
    assert engine.legal_plays(hand, [], False) == hand


def test_first_trick_lead_all_spades_may_lead_a_spade() -> None:
    hand = ["AS", "KS", "2S"]
    assert engine.legal_plays(hand, [], True) == hand


def test_following_on_the_first_trick_is_not_restricted_beyond_the_usual() -> None:
    # The first-trick rule is about the lead only: a void follower must still trump.
    assert engine.legal_plays(["AS", "3D"], ["2H"], True) == ["AS"]


def test_hand_example_of_the_seeds_is_worth_about_four() -> None:
    # ♠K J 6 5 2, ♥A 8, ♦A Q 7, ♣9 6 3: leading ♥ the ace is forced to beat nothing yet
    hand = ["KS", "JS", "6S", "5S", "2S", "AH", "8H", "AD", "QD", "7D", "9C", "6C", "3C"]
    assert set(engine.legal_plays(hand, [], True)) == {"AH", "8H", "AD", "QD", "7D", "9C", "6C", "3C"}
    assert engine.legal_plays(hand, ["KH"], False) == ["AH"]


# --- trick winner ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("trick", "winner"),
    [(["TH", "AH", "2S", "KH"], 2), (["TH", "AH", "KH", "QH"], 1), (["TH", "AD", "KC", "2H"], 0),
     (["2S", "AH", "3S", "KS"], 3), (["5C", "3S", "9S", "AC"], 2), (["2D", "3D", "4D", "5D"], 3)],
)
def test_trick_winner(trick: list[str], winner: int) -> None:
    assert engine.trick_winner(trick) == winner


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["1S", "QX", "", "Q", "QHS", "10S", " ", "ZZ"])
def test_bad_cards_are_typed_errors(bad: str) -> None:
    with pytest.raises(engine.CardError) as err:
        engine.parse_card(bad)
    assert err.value.code == "bad_card"
    assert "not a card" in str(err.value)


@pytest.mark.parametrize("bad", [None, 5, 3.0, b"QH", ["QH"]])
def test_non_strings_are_not_cards(bad: object) -> None:
    with pytest.raises(engine.CardError):
        engine.parse_card(bad)


def test_lower_case_cards_are_accepted() -> None:
    assert engine.parse_card("qh") == engine.parse_card("QH")
    assert engine.card_label(engine.parse_card("TS")) == "10♠"
    assert engine.card_label(engine.parse_card("QH")) == "Q♥"


def test_string_api_rejects_malformed_positions() -> None:
    with pytest.raises(engine.CardError):
        engine.legal_plays(["QH", "QH"], [], False)  # duplicate
    with pytest.raises(engine.CardError):
        engine.legal_plays("QH", [], False)
    with pytest.raises(engine.EngineError):
        engine.legal_plays(["QH"], ["2H", "3H", "4H", "5H"], False)
    with pytest.raises(engine.EngineError):
        engine.legal_plays(["QH"], ["QH"], False)  # in hand and on the table
    with pytest.raises(engine.EngineError):
        engine.trick_winner(["QH", "2H"])
    with pytest.raises(engine.CardError):
        engine.trick_winner(["QH", "2H", "XX", "3H"])


# --- the fast rules against the reference -------------------------------------------------------

def _random_position(rng: random.Random) -> tuple[list[str], list[str], bool]:
    """A plausible position: a hand of 1..13 cards and a trick of 0..3 other cards."""
    deck = ALL_CARDS[:]
    rng.shuffle(deck)
    size = rng.randint(1, 13)
    hand = deck[:size]
    trick = deck[size:size + rng.randint(0, 3)]
    # Bias towards the interesting cases: same suit as the lead, spades on the table.
    if trick and rng.random() < 0.5:
        led = trick[0][1]
        extra = [c for c in deck[size + 3:] if c[1] == led][: rng.randint(0, 3)]
        hand = list(dict.fromkeys(hand + extra))
    return hand, trick, rng.random() < 0.3


def test_fast_legal_plays_equal_the_reference_on_200k_positions() -> None:
    rng = random.Random(20261129)
    for _ in range(200_000):
        hand, trick, first = _random_position(rng)
        fast = engine.legal_plays(hand, trick, first)
        assert fast == reference_legal_plays(hand, trick, first), (hand, trick, first)


def test_reasons_cover_exactly_the_illegal_cards() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        hand, trick, first = _random_position(rng)
        hm = cards_to_mask(hand)
        tc = [engine.parse_card(c) for c in trick]
        legal = legal_mask(hm, tc, first)
        reasons = locked_reasons(hm, tc, first)
        assert set(reasons) == set(mask_cards(hm & ~legal))
        assert set(reasons.values()) <= set(engine.REASON_CODES)


def test_trick_winner_equals_the_reference() -> None:
    rng = random.Random(11)
    for _ in range(50_000):
        trick = rng.sample(ALL_CARDS, 4)
        assert engine.trick_winner(trick) == reference_trick_winner(trick), trick


def test_beats_equals_the_reference_on_every_pair_of_cards() -> None:
    """``beats(card, best)`` on every pair: ``best`` led, or ``best`` a spade that trumped a side-suit lead."""
    for best in range(52):
        for card in range(52):
            if card == best:
                continue
            assert beats(card, best) == (reference_trick_winner([card_str(best), card_str(card)]) == 1)
            if best < 13:
                led = next(c for c in range(13, 52) if c != card)
                trick = [card_str(led), card_str(best), card_str(card)]
                assert beats(card, best) == (reference_trick_winner(trick) == 2)
