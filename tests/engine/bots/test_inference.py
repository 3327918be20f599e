"""The forced-play readings, one rule at a time, on constructed tricks; and their soundness on real deals."""

from __future__ import annotations

import random

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.inference import forbidden_by_play, forbidden_from_plays, knowledge
from engine.cards import ABOVE, FULL_DECK, NON_SPADES_MASK, SPADES_MASK, SUIT_MASKS, cards_to_mask, parse_card
from engine.match import Play
from engine.rules import legal_mask

H, D = SUIT_MASKS[1], SUIT_MASKS[2]


def plays(*pairs: tuple[int, str]) -> list[tuple[int, int]]:
    return [(s, parse_card(c)) for s, c in pairs]


def test_following_low_proves_nothing_above_the_table() -> None:
    # Led 10♥, not trumped; seat 1 follows 3♥: no J♥ Q♥ K♥ A♥ (the seeds' example).
    out = forbidden_from_plays(plays((0, "TH"), (1, "3H")), first_trick=False)
    assert out[1] == cards_to_mask(["JH", "QH", "KH", "AH"])


def test_beating_the_table_proves_nothing() -> None:
    out = forbidden_from_plays(plays((0, "TH"), (1, "QH"), (2, "JH")), first_trick=False)
    assert 1 not in out
    assert out[2] == cards_to_mask(["KH", "AH"])  # below the Q♥ on the table


def test_off_suit_discard_on_untrumped_trick_proves_void_and_no_spade() -> None:
    out = forbidden_from_plays(plays((0, "TH"), (1, "4D")), first_trick=False)
    assert out[1] == H | SPADES_MASK


def test_trumping_proves_only_the_void() -> None:
    out = forbidden_from_plays(plays((0, "TH"), (1, "2S")), first_trick=False)
    assert out[1] == H


def test_discard_over_a_spade_proves_no_higher_spade() -> None:
    out = forbidden_from_plays(plays((0, "TH"), (1, "9S"), (2, "4D")), first_trick=False)
    assert out[2] == H | ABOVE[parse_card("9S")]
    assert not out[2] & cards_to_mask(["8S", "2S"])


def test_under_trump_proves_no_higher_spade() -> None:
    out = forbidden_from_plays(plays((0, "TH"), (1, "9S"), (2, "5S")), first_trick=False)
    assert out[2] == H | ABOVE[parse_card("9S")]


def test_following_anything_on_a_trumped_trick_proves_nothing_more() -> None:
    out = forbidden_from_plays(plays((0, "TH"), (1, "9S"), (2, "3H")), first_trick=False)
    assert 2 not in out


def test_spade_lead_followed_low_proves_no_higher_spade() -> None:
    out = forbidden_from_plays(plays((0, "QS"), (1, "3S"), (2, "5D")), first_trick=False)
    assert out[1] == ABOVE[parse_card("QS")]
    assert out[2] == SPADES_MASK  # void in spades


def test_spade_lead_to_the_first_trick_proves_only_spades() -> None:
    out = forbidden_from_plays(plays((0, "QS"),), first_trick=True)
    assert out[0] == NON_SPADES_MASK
    assert forbidden_from_plays(plays((0, "QS"),), first_trick=False) == {}


def test_wraparound_seats_are_tracked() -> None:
    out = forbidden_from_plays(plays((3, "TD"), (0, "2D"), (1, "AD"), (2, "5H")), first_trick=False)
    assert out[0] == ABOVE[parse_card("TD")]
    assert out[2] == D | SPADES_MASK


def test_readings_never_exclude_a_card_actually_held() -> None:
    """Soundness on real deals: every hidden hand stays inside what the view says it may hold."""
    for m in range(6):
        state = new_match(f"infer-{m}")
        rng = random.Random(m)
        bots = ["random", "heuristic", "random", "heuristic"]
        while not state.is_finished and state.deal_number <= 2:
            seat = state.turn
            assert seat is not None
            if state.phase == "playing":
                for viewer in range(4):
                    kn = knowledge(player_view(state, viewer))
                    for s in range(4):
                        if s != viewer:
                            assert state.hands[s] & ~kn.allowed[s] == 0
                            assert kn.counts[s] == state.hands[s].bit_count()
            state = apply(state, decide(bots[seat], player_view(state, seat), rng.random()))


def test_forbidden_by_play_is_what_legality_proves() -> None:
    """A play proves exactly: no card whose presence in the hand would have made that play illegal.

    Checked against :func:`engine.rules.legal_mask` for every play of 20 real deals (random and
    heuristic players), together with soundness: no reading ever excludes a card actually held.
    """
    checked = 0
    for m in range(20):
        state = new_match(f"forbidden-{m}")
        while state.phase == "bidding":
            state = apply(state, decide("heuristic", player_view(state, state.turn), m))
        may_hold = [FULL_DECK] * 4
        while state.deal_number == 1:
            seat = state.turn
            assert seat is not None
            first = not state.tricks
            trick = list(state.trick)
            action = decide("random" if m % 2 else "heuristic", player_view(state, seat), m)
            assert isinstance(action, Play)
            card = parse_card(action.card)
            got = forbidden_by_play(trick, card, first)
            for x in range(52):
                if x == card or x in trick:
                    continue
                proves = not legal_mask((1 << card) | (1 << x), trick, first) >> card & 1
                assert bool(got >> x & 1) == proves, (trick, card, x)
            may_hold[seat] &= ~got
            state = apply(state, action)
            if state.deal_number == 1:
                for s in range(4):
                    assert state.hands[s] & ~may_hold[s] == 0  # sound: never excludes a held card
            checked += 1
    assert checked == 20 * 52
