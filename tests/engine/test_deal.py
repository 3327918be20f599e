"""The test vectors of fairness.md, exactly."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

import engine
import engine.deal as deal
from engine.deal import _shuffled_deck_slow, deal_masks, dealer_of_deal

EXAMPLE_DECK = (
    "6D 5H TC 4H TS 6H KS 3S 9H 2S 8S JD QH KC AC 3D JC 9D JS 2C TD 4D 3H JH 7D 8C 4C 5D 2D 5C 8D KH 6S AD QD TH "
    "KD 6C 8H 7C 3C 9S 7H QC 4S 2H 5S AH QS 7S AS 9C"
).split()

EXAMPLE_DEAL_1 = [
    "6D TS 9H QH JC TD 7D 2D 6S KD 3C 4S QS",
    "5H 6H 2S KC 9D 4D 8C 5C AD 6C 9S 2H 7S",
    "TC KS 8S AC JS 3H 4C 8D QD 8H 7H 5S AS",
    "4H 3S JD 3D 2C JH 5D KH TH 7C QC AH 9C",
]
EXAMPLE_DEAL_2 = [
    "6C 4D 4C JH 3D QS 5S TS 7D 5C 5H AC AH",
    "9S 2D TC AS 6D KH 3C KC 4H 9D 8S 7S 6H",
    "KD JD 7H 3S AD 8H TH 2H 2C 8C QD 6S 9H",
    "KS QC 8D TD 5D 3H 7C 9C 2S JC QH 4S JS",
]


def test_example_seed_commitment_and_first_dealer() -> None:
    assert engine.seed_commitment("example-seed") == "cd139b161afd30dee3e1924f98dbae55ed2206c803f2a1dff5f4b6b62ce0d9f7"
    assert engine.first_dealer("example-seed") == 3


def test_example_seed_shuffled_deck_of_deal_1() -> None:
    assert [engine.card_str(c) for c in engine.shuffled_deck("example-seed", 1)] == EXAMPLE_DECK


def test_example_seed_deals_1_and_2() -> None:
    assert [" ".join(h) for h in engine.deal_strs("example-seed", 1, 3)] == EXAMPLE_DEAL_1
    assert [" ".join(h) for h in engine.deal_strs("example-seed", 2, 0)] == EXAMPLE_DEAL_2


def test_callbreak_2026_vectors() -> None:
    assert engine.seed_commitment("callbreak-2026") == (
        "05c20f729f419db7b76baef3f5e971081fba99defae02615d863f3c76fb60dc9"
    )
    assert engine.first_dealer("callbreak-2026") == 3
    assert engine.deal_strs("callbreak-2026", 1, 3)[0] == "9H 3C QH 7H 2C KH 5H 8D 2D KD 4H 4C 6H".split()
    assert engine.deal_strs("callbreak-2026", 2, 0)[3] == "KD 8C 7S 7C AC TH 6H 4C AS 6D 9S TS 3D".split()


def test_the_match_deals_from_the_seed_with_rotating_dealers() -> None:
    state = engine.new_match("example-seed")
    assert state.dealer == 3
    assert [[engine.card_str(c) for c in h] for h in state.dealt] == [h.split() for h in EXAMPLE_DEAL_1]
    assert [dealer_of_deal(3, n) for n in range(1, 6)] == [3, 0, 1, 2, 3]


def test_commitment_is_sha256_of_utf8() -> None:
    seed = "种子-🂡"
    assert engine.seed_commitment(seed) == hashlib.sha256(seed.encode("utf-8")).hexdigest()


def test_fast_shuffle_equals_the_word_by_word_reading_of_the_spec() -> None:
    for i in range(500):
        for n in range(1, 6):
            seed = f"s{i}"
            assert engine.shuffled_deck(seed, n) == _shuffled_deck_slow(f"{seed}:{n}:".encode())


def test_rejection_path_is_taken_when_a_word_is_out_of_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force every first word to be rejected: the fast path must fall back and keep drawing."""
    real = deal._sha256

    class Fake:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def digest(self) -> bytes:
            d = real(self.data).digest()
            return (b"\xff" * 4 + d[4:]) if self.data.endswith(b":0") else d

    monkeypatch.setattr(deal, "_sha256", Fake)
    deck = deal.shuffled_deck("x", 1)
    assert sorted(deck) == list(range(52))
    # The first word 0xffffffff is >= every limit, so it was skipped: the spec's loop gives the same.
    assert deck == deal._shuffled_deck_slow(b"x:1:")


def test_every_deal_is_a_partition_of_the_deck() -> None:
    for i in range(200):
        masks = deal_masks(f"p{i}", 1 + i % 5, i % 4)
        assert all(m.bit_count() == 13 for m in masks)
        assert masks[0] | masks[1] | masks[2] | masks[3] == (1 << 52) - 1


def test_shuffle_is_roughly_uniform() -> None:
    # Where does the ace of spades land over 4,000 deals? Each of 52 places about 77 times.
    counts = Counter(engine.shuffled_deck(f"u{i}", 1).index(12) for i in range(4000))
    assert len(counts) == 52
    assert max(counts.values()) < 140 and min(counts.values()) > 30


@pytest.mark.parametrize("bad", ["", None, 5])
def test_bad_seeds(bad: object) -> None:
    with pytest.raises(engine.EngineError) as err:
        engine.new_match(bad)  # type: ignore[arg-type]
    assert err.value.code == "bad_seed"


def test_new_seeds_are_fresh_hex() -> None:
    a, b = engine.new_seed(), engine.new_seed()
    assert a != b and len(a) == 32 and int(a, 16) >= 0
