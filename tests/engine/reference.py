"""A deliberately simple second implementation of the play rules, written line by line from rules.md.

It works on card strings and plain lists, with no masks and no shortcuts, so that it can be
trusted by reading it; the fast engine is checked against it on many random positions.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def reference_legal_plays(hand: list[str], trick: list[str], first_trick: bool) -> list[str]:
    # Lead: on the first trick a spade may not be led unless the hand holds only spades.
    if not trick:
        if first_trick:
            non_spades = [c for c in hand if suit(c) != "S"]
            if non_spades:
                return non_spades
        return list(hand)

    led = suit(trick[0])
    spades_in_trick = [c for c in trick if suit(c) == "S"]
    of_led_suit = [c for c in hand if suit(c) == led]

    # 1. Holding the led suit, you must follow suit.
    if of_led_suit:
        if led != "S" and spades_in_trick:
            return of_led_suit  # the trick is trumped: any card of the led suit
        highest_led = max(rank(c) for c in trick if suit(c) == led)
        higher = [c for c in of_led_suit if rank(c) > highest_led]
        if higher:
            return higher  # must beat
        return of_led_suit

    # 2. Void in the led suit.
    my_spades = [c for c in hand if suit(c) == "S"]
    if not my_spades:
        return list(hand)
    if not spades_in_trick:
        return my_spades  # must trump
    highest_spade = max(rank(c) for c in spades_in_trick)
    higher_spades = [c for c in my_spades if rank(c) > highest_spade]
    if higher_spades:
        return higher_spades  # must over-trump
    return list(hand)  # no spade can win: any card


def reference_trick_winner(trick: list[str]) -> int:
    spades = [i for i, c in enumerate(trick) if suit(c) == "S"]
    if spades:
        return max(spades, key=lambda i: rank(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: rank(trick[i]))
