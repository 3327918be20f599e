"""The strong bot's first play-out policy, kept for comparison: every seat sees all four hands.

``bench/ab_deals.py`` registers ``strong-greedy``, a strong bot whose play-outs use this policy
instead of the knowledge-limited one of :mod:`engine.bots.playout`.  Its defenders never misjudge a
finesse or a ruff, so the bot under test is credited with too few tricks (strategy fusion): on paired deals it
scored 0.12 ± 0.16 points a deal below the knowledge-limited play-outs (``docs/bots.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import ABOVE, NON_SPADES_MASK, SPADES_MASK, SUIT_MASKS
from engine.rules import DealInPlay, legal_mask, trick_winner_index

_SIDE = (1, 2, 3)


def low_card(mask: int) -> int:
    """The cheapest card of ``mask`` (lowest side card, else lowest spade)."""
    best = -1
    best_rank = 99
    for suit in _SIDE:
        in_suit = (mask >> (13 * suit)) & 8191
        if in_suit:
            rank = (in_suit & -in_suit).bit_length() - 1
            if rank < best_rank:
                best_rank = rank
                best = 13 * suit + rank
    if best >= 0:
        return best
    spades = mask & SPADES_MASK
    return (spades & -spades).bit_length() - 1


def high_card(mask: int) -> int:
    """The most valuable card of ``mask`` (highest spade, else highest side card)."""
    spades = mask & SPADES_MASK
    if spades:
        return spades.bit_length() - 1
    best = -1
    best_rank = -1
    for suit in _SIDE:
        in_suit = (mask >> (13 * suit)) & 8191
        if in_suit:
            rank = in_suit.bit_length() - 1
            if rank > best_rank:
                best_rank = rank
                best = 13 * suit + rank
    return best


def policy_card(
    hands: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int], bids: Sequence[int],
    first: bool,
) -> int:
    """The greedy policy's card for ``seat`` in a fully known deal."""
    hand = hands[seat]
    legal = legal_mask(hand, trick, first)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    left = hand.bit_count()
    need = bids[seat] - won[seat]
    want = 0 < need <= left
    if not trick:
        if not want:
            for other in range(4):
                if other != seat and 0 < bids[other] - won[other] <= left:
                    want = True
                    break
        if want:
            others = 0
            for other in range(4):
                if other != seat:
                    others |= hands[other]
            others_spades = others & SPADES_MASK
            my_spades = legal & SPADES_MASK
            if my_spades and not first:
                top = my_spades.bit_length() - 1
                if not others_spades & ABOVE[top]:
                    return top
            for suit in _SIDE:
                in_suit = legal & SUIT_MASKS[suit]
                if not in_suit:
                    continue
                top = in_suit.bit_length() - 1
                if others & ABOVE[top]:
                    continue
                risky = False
                for other in range(4):
                    if other != seat and not hands[other] & SUIT_MASKS[suit] and hands[other] & SPADES_MASK:
                        risky = True
                        break
                if not risky:
                    return top
        return low_card(legal)
    led = trick[0] // 13
    winning_index = trick_winner_index(trick)
    best = trick[winning_index]
    winners = legal & SPADES_MASK & ABOVE[best] if best < 13 else legal & ABOVE[best] | legal & SPADES_MASK
    later = [(seat + i) & 3 for i in range(1, 4 - len(trick))]
    if not want:
        current = (leader + winning_index) & 3
        if 0 < bids[current] - won[current] <= left and current != seat:
            want = True
        else:
            for other in later:
                if 0 < bids[other] - won[other] <= left:
                    want = True
                    break
    if want:
        if not winners:
            return low_card(legal)
        for part in (winners & NON_SPADES_MASK, winners & SPADES_MASK):
            while part:
                low = part & -part
                card = low.bit_length() - 1
                part ^= low
                safe = True
                for other in later:
                    held = hands[other]
                    if card < 13:
                        if held & ABOVE[card] and (led == 0 or not held & SUIT_MASKS[led]):
                            safe = False
                            break
                    elif held & ABOVE[card] or (not held & SUIT_MASKS[led] and held & SPADES_MASK):
                        safe = False
                        break
                if safe:
                    return card
        rest = legal & ~winners
        return low_card(rest) if rest else low_card(winners)
    rest = legal & ~winners
    if rest:
        return high_card(rest)
    return high_card(legal) if not later else low_card(legal)


def greedy_play_out(
    hands: Sequence[int],
    pub: Sequence[int],
    leader: int,
    trick: Sequence[int],
    won: Sequence[int],
    bids: Sequence[int],
    first: bool,
) -> list[int]:
    """Finish the deal with every seat playing :func:`policy_card`; ``pub`` is ignored (all hands are seen).

    The same signature as :func:`engine.bots.playout.play_out`, so it can replace it in the strong bot.
    """
    deal = DealInPlay(hands, leader, trick, won, first)
    while not deal.over:
        deal.play(policy_card(deal.hands, deal.to_play, deal.leader, deal.trick, deal.won, bids, deal.first))
    return deal.won
