"""The rule styles' cards in the play-outs (engine/bots/playout.py's ``py_rule_card`` and ``py_policy_card``, their C
twins in _kernel.c): the card the league's bot plays (engine/bots/league.py, from its view through
engine/bots/spar_rules.py) in every position of real matches, at the real bid and at others, and the kernel's card
the Python one at every step of play-outs with the seats' styles coded in their policy bids."""

from __future__ import annotations

import random

import pytest

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.inference import forbidden_by_play, knowledge
from engine.bots.league import bid_card, cheap_card, greedy_card
from engine.bots.playout import (
    CHEAP_RULE,
    GREEDY_BID,
    LENGTH_RULE,
    OVERTAKE_RULE,
    RULE_POLICY,
    SplitMix64,
    py_knowledge_limited_card,
    py_play_out_mixed,
    py_policy_card,
    py_rule_card,
    real_bids,
)
from engine.bots.spar_rules import bid_choice, cheap_choice, greedy_choice
from engine.bots.styles import CAUTIOUS, GREEDY, LENGTH, NAMED, draw_named_policy
from engine.cards import mask_cards
from engine.rules import DealInPlay
from tests.engine.kernel import KERNEL, needs_kernel
from tests.engine.positions import into_first_deal

RULES = (CHEAP_RULE, LENGTH_RULE, OVERTAKE_RULE)


def _choices(legal: int, trick: list[int], need: bool, unseen: int) -> dict[int, int]:
    cards = mask_cards(legal)
    return {
        CHEAP_RULE: cheap_choice(cards, trick, need),
        LENGTH_RULE: bid_choice(cards, trick, need, unseen),
        OVERTAKE_RULE: greedy_choice(cards, trick),
    }


def test_the_play_outs_rule_cards_are_the_league_bots_cards_in_real_matches() -> None:
    """In every card decision of matches of mixed players: at the seat's real bid the card is the league bot's (from
    its view), and at other bids (needing tricks or not) the rule's on the same position."""
    rng = random.Random(3)
    checked = needs = made = 0
    for m in range(10):
        state = new_match(f"rule-policies-{m}")
        names = (
            ["spar-cautious", "random", "spar-length", "heuristic"]
            if m % 2
            else ["heuristic", "spar-greedy", "random", "spar-length"]
        )
        while not state.is_finished:
            seat = state.turn
            assert seat is not None
            view = player_view(state, seat)
            if state.phase == "playing":
                trick, won = list(view.trick), list(view.tricks_won)
                bid = view.bids[seat] or 0
                args = (state.hands, seat, trick, won)
                league = {CHEAP_RULE: cheap_card(view), LENGTH_RULE: bid_card(view), OVERTAKE_RULE: greedy_card(view)}
                for rule in RULES:
                    assert py_rule_card(*args, bid, view.first_trick, rule) == league[rule], (rule, args)
                unseen = knowledge(view).unseen
                for other in (won[seat], won[seat] + rng.randrange(1, 5)):
                    rules = _choices(view.legal_cards, trick, won[seat] < other, unseen)
                    for rule in RULES:
                        assert py_rule_card(*args, other, view.first_trick, rule) == rules[rule]
                    needs += won[seat] < other
                    made += won[seat] >= other
                checked += 1
            state = apply(state, decide(names[seat], view, m))
    assert checked == 10 * 5 * 52 and needs > 2000 and made > 2000


def test_a_coded_bid_plays_the_rule_and_the_others_read_the_real_bid() -> None:
    hands = [0b1110 << 13, 0b1 << 14 | 1, 0b1 << 26 | 2, 0b1 << 39 | 4]  # three cards each
    pub = [(1 << 52) - 1] * 4
    won = [2, 3, 0, 1]
    plain = [3, 5, 2, 4]
    for rule in RULES:
        coded = list(plain)
        coded[0] = RULE_POLICY * rule + plain[0]
        assert real_bids(coded) == plain
        assert py_policy_card(hands, pub, 0, 0, [], won, coded, False) == py_rule_card(
            hands, 0, [], won, plain[0], False, rule
        )
        for seat in (1, 2, 3):  # the others play the heuristic, reading seat 0's real bid
            assert py_policy_card(hands, pub, seat, seat, [], won, coded, False) == py_knowledge_limited_card(
                hands, pub, seat, seat, [], won, plain, False
            )


def _worlds(n: int) -> list[tuple[list[int], list[int], int, list[int], list[int], bool]]:
    """True hands part-way through real deals: (hands, pub, leader, trick, won, first)."""
    rng = random.Random(8)
    out = []
    for state in into_first_deal("rule-kernel", n, rng):
        view = player_view(state, state.turn)
        out.append(
            (
                list(state.hands),
                list(knowledge(view).public),
                view.trick_leader,
                list(view.trick),
                list(view.tricks_won),
                view.first_trick,
            )
        )
    return out


def _coded_bids(rng: random.Random, won: list[int]) -> list[int]:
    """Bids around the tricks won, each seat coded as a rule style, the greedy trick-taker or the heuristic."""
    out = []
    for w in won:
        b = max(1, min(13, w + rng.randrange(-1, 5)))
        kind = rng.randrange(5)
        out.append(RULE_POLICY * kind + b if kind < 4 else GREEDY_BID)
    return out


@needs_kernel
def test_the_kernel_plays_the_python_policy_card_at_every_step() -> None:
    assert KERNEL is not None
    rng = random.Random(9)
    steps = 0
    by_rule = dict.fromkeys((0, *RULES), 0)
    for hands, pub, leader, trick, won, first in _worlds(120):
        for _ in range(4):
            bids = _coded_bids(rng, won)
            deal = DealInPlay(hands, leader, trick, won, first)
            public = list(pub)
            while not deal.over:
                args = (deal.hands, public, deal.to_play, deal.leader, deal.trick, deal.won, bids, deal.first)
                card = py_policy_card(*args)
                assert KERNEL.policy_card(*args) == card, args
                by_rule[bids[deal.to_play] // RULE_POLICY] += 1
                steps += 1
                public[deal.to_play] &= ~forbidden_by_play(deal.trick, card, deal.first)
                deal.play(card)
            noise = [rng.choice([0.0, 0.0, 0.2]) for _ in range(4)]
            seed = rng.getrandbits(64)
            assert KERNEL.play_out_mixed(hands, pub, leader, trick, won, bids, first, noise, seed) == py_play_out_mixed(
                hands, pub, leader, trick, won, bids, first, noise, seed
            )
            if noise == [0.0] * 4:
                assert py_play_out_mixed(hands, pub, leader, trick, won, bids, first, noise, seed) == deal.won
    assert steps > 10_000 and min(by_rule.values()) > 2_000, by_rule


@needs_kernel
def test_a_rule_card_differs_from_the_heuristics_somewhere() -> None:
    """The rules are not the heuristic under another name: each plays another card in many positions."""
    rng = random.Random(4)
    differ = dict.fromkeys(RULES, 0)
    for hands, pub, leader, trick, won, first in _worlds(40):
        seat = (leader + len(trick)) & 3
        bids = [max(1, min(13, w + rng.randrange(0, 4))) for w in won]
        heuristic = py_knowledge_limited_card(hands, pub, seat, leader, trick, won, bids, first)
        for rule in RULES:
            coded = list(bids)
            coded[seat] += RULE_POLICY * rule
            differ[rule] += py_policy_card(hands, pub, seat, leader, trick, won, coded, first) != heuristic
    assert min(differ.values()) >= 4, differ


def test_the_named_policy_codes_the_rule_styles_it_is_asked_to() -> None:
    one = [0.0] * len(NAMED)
    cautious, length, greedy = list(one), list(one), list(one)
    cautious[CAUTIOUS] = length[LENGTH] = greedy[GREEDY] = 1.0
    post = {1: tuple(cautious), 2: tuple(length), 3: tuple(greedy)}
    bids, noise, _ = draw_named_policy([3, 4, 2, 5], post, SplitMix64(1), (CAUTIOUS, LENGTH), 0.1)
    assert bids == [3, RULE_POLICY * CHEAP_RULE + 4, RULE_POLICY * LENGTH_RULE + 2, GREEDY_BID]
    assert noise[1] == noise[2] == 0.1 and real_bids(bids)[:3] == [3, 4, 2]
    bids, _, _ = draw_named_policy([3, 4, 2, 5], post, SplitMix64(1), (CAUTIOUS, LENGTH, GREEDY))
    assert bids[3] == RULE_POLICY * OVERTAKE_RULE + 5


@needs_kernel
@pytest.mark.parametrize("deal_number", [1, 3])
def test_the_kernel_search_with_rule_policies_values_cards_as_python(deal_number: int) -> None:
    from engine.bots.search import search_values
    from engine.bots.styles import mixed_styles, seat_posteriors

    state = new_match(f"rule-search-{deal_number}")
    seats = ["heuristic", "spar-cautious", "spar-length", "spar-greedy"]
    compared = 0
    rng = random.Random(deal_number)
    while not state.is_finished and compared < 6:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        if state.deal_number >= deal_number and seat == 0 and view.legal_cards.bit_count() >= 2:
            post = seat_posteriors(view)
            seed = rng.getrandbits(32)
            kwargs = {
                "budget": 60,
                "mcmc_steps": 20,
                "styles": mixed_styles(post),
                "posterior": post,
                "own_rules": (CAUTIOUS, LENGTH, GREEDY),
                "rule_noise": 0.1,
            }
            values = search_values(view, random.Random(seed), **kwargs)  # type: ignore[arg-type]
            assert values == search_values(view, random.Random(seed), pure=True, **kwargs)  # type: ignore[arg-type]
            compared += 1
        state = apply(state, decide(seats[seat], view, 5))
    assert compared == 6
