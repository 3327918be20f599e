"""Provably fair deals, exactly as ``docs/fairness.md`` publishes them.

Anyone with the seed can recompute every deal, so the shuffle is deliberately simple: SHA-256 of
``"{seed}:{n}:{k}"`` gives the random words, Fisher–Yates with rejection keeps it unbiased.

>>> seed_commitment("example-seed")[:16], first_dealer("example-seed")
('cd139b161afd30de', 3)
>>> [card_str(c) for c in shuffled_deck("example-seed", 1)[:5]]
['6D', '5H', 'TC', '4H', 'TS']
"""

from __future__ import annotations

import hashlib
import secrets
import struct

from .cards import card_str
from .errors import EngineError

DEALS_PER_MATCH = 5

_UNPACK8 = struct.Struct(">8I").unpack
_UNPACK56 = struct.Struct(">56I").unpack
_BLOCKS7 = tuple(str(k).encode() for k in range(7))
_BIT = tuple(1 << c for c in range(52))
_sha256 = hashlib.sha256
# (i + 1, limit) for i = 51..1: the modulus and the rejection bound of each Fisher–Yates step.
_STEPS = tuple((i, i + 1, (2**32 // (i + 1)) * (i + 1)) for i in range(51, 0, -1))


def check_seed(seed: object) -> str:
    if not isinstance(seed, str) or not seed:
        raise EngineError(f"a seed is a non-empty string, not {seed!r}", "bad_seed")
    return seed


def seed_commitment(seed: str) -> str:
    """SHA-256 of the seed in lowercase hex: shown at the start, checked against the seed at the end."""
    return _sha256(check_seed(seed).encode()).hexdigest()


def new_seed() -> str:
    """A fresh unpredictable seed for a new match."""
    return secrets.token_hex(16)


def first_dealer(seed: str) -> int:
    return int.from_bytes(_sha256(f"{check_seed(seed)}:dealer".encode()).digest()[:4], "big") % 4


def dealer_of_deal(first: int, number: int) -> int:
    """The dealer moves one seat to the right (``+1``) after each deal."""
    return (first + number - 1) % 4


def shuffled_deck(seed: str, number: int) -> list[int]:
    """The deck of deal ``number`` (1..5) after the seeded shuffle, as card numbers.

    The 51 steps need 51 words; seven digests give 56, and a rejection has odds of about one
    in 10^8 per step, so the common path hashes seven blocks up front and the rare one falls
    back to drawing words one by one, exactly as the spec reads.
    """
    prefix = f"{check_seed(seed)}:{number}:".encode()
    words = _UNPACK56(b"".join(_sha256(prefix + b).digest() for b in _BLOCKS7))
    deck = list(range(52))
    for (i, m, limit), x in zip(_STEPS, words, strict=False):  # 56 words for 51 steps
        if x >= limit:
            return _shuffled_deck_slow(prefix)
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _shuffled_deck_slow(prefix: bytes) -> list[int]:
    deck = list(range(52))
    words: tuple[int, ...] = ()
    pos = 8
    block = 0
    for i, m, limit in _STEPS:
        while True:
            if pos == 8:
                words = _UNPACK8(_sha256(prefix + str(block).encode()).digest())
                block += 1
                pos = 0
            x = words[pos]
            pos += 1
            if x < limit:
                break
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_hands(seed: str, number: int, dealer: int) -> list[list[int]]:
    """The four hands of a deal, each in the order its cards were dealt (card k to dealer+1+k)."""
    deck = shuffled_deck(seed, number)
    first = (dealer + 1) % 4
    hands: list[list[int]] = [[], [], [], []]
    for seat in range(4):
        hands[(first + seat) % 4] = deck[seat::4]
    return hands


def deal_masks(seed: str, number: int, dealer: int) -> list[int]:
    """The four hands of a deal as masks (the fast form)."""
    bit = _BIT.__getitem__
    return [sum(map(bit, hand)) for hand in deal_hands(seed, number, dealer)]


def deal_strs(seed: str, number: int, dealer: int) -> list[list[str]]:
    return [[card_str(c) for c in hand] for hand in deal_hands(seed, number, dealer)]
