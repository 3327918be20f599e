"""Cards as small integers and hands as 52-bit masks.

A card is ``suit * 13 + rank`` with suits in the spec's order ``S H D C`` and ranks ``2..A`` as
``0..12``, so the fresh deck of ``fairness.md`` is simply ``range(52)`` and, within a suit, a higher
index is a higher card.  A hand is an ``int`` whose bit ``c`` is set when card ``c`` is held: the
rules then reduce to a handful of bit operations, which is what makes playouts fast.

>>> parse_card("TS")
8
>>> card_str(8), card_label(8)
('TS', '10♠')
>>> mask_to_strs(cards_to_mask(["QH", "2S"]))
['2S', 'QH']
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import CardError

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SPADE = 0

#: Every card of one suit, indexed by suit number.
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
SPADES_MASK = SUIT_MASKS[SPADE]
FULL_DECK = (1 << 52) - 1
#: Every heart, diamond and club: the cards that may lead the first trick when a hand holds one.
NON_SPADES_MASK = FULL_DECK & ~SPADES_MASK

#: ``ABOVE[c]``: the cards of ``c``'s suit that beat ``c``.
ABOVE: tuple[int, ...] = tuple(SUIT_MASKS[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))

_NAMES: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
_INDEX: dict[str, int] = {name: c for c, name in enumerate(_NAMES)}

#: Display order for a hand: spades, hearts, clubs, diamonds (colours alternate), high to low.
_DISPLAY_SUITS = (0, 1, 3, 2)


def parse_card(text: object) -> int:
    """Return the card number for notation like ``"QH"``; raise :class:`CardError` otherwise.

    Lower case is accepted (``"qh"``) because people type it; anything else is an error that says
    what a card looks like.
    """
    if isinstance(text, str):
        card = _INDEX.get(text.strip().upper())
        if card is not None:
            return card
    raise CardError(
        f"{text!r} is not a card: write a rank from {RANKS} then a suit from {SUITS}, e.g. 'QH' or 'TS'"
    )


def card_str(card: int) -> str:
    """The spec's two-character notation of a card number."""
    return _NAMES[card]


def card_label(card: int) -> str:
    """The card as people read it: ``Q♥``, ``10♠``."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[SUITS[card // 13]]


def cards_to_mask(cards: Iterable[str | int]) -> int:
    """A mask from card strings or numbers; duplicates are an error (a hand is a set)."""
    mask = 0
    for card in cards:
        c = card if isinstance(card, int) else parse_card(card)
        if not 0 <= c < 52:
            raise CardError(f"{card!r} is not a card number (0..51)")
        bit = 1 << c
        if mask & bit:
            raise CardError(f"{card_str(c)} appears twice")
        mask |= bit
    return mask


def mask_cards(mask: int) -> list[int]:
    """The card numbers of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_to_strs(mask: int) -> list[str]:
    return [_NAMES[c] for c in mask_cards(mask)]


def sorted_for_display(mask: int) -> list[str]:
    """A hand as a player sorts it: ♠ ♥ ♣ ♦, each from A down to 2.

    >>> sorted_for_display(cards_to_mask(["2D", "AS", "3H", "KC", "TS"]))
    ['AS', 'TS', '3H', 'KC', '2D']
    """
    out: list[str] = []
    for s in _DISPLAY_SUITS:
        out.extend(_NAMES[c] for c in reversed(mask_cards(mask & SUIT_MASKS[s])))
    return out
