"""The rules of ``rules.md`` as pure functions on masks, plus a plain-string API for tools.

The fast functions take a hand mask and a trick given as card numbers in play order.  The
string functions :func:`legal_plays` and :func:`trick_winner` are the stable public API.

>>> legal_plays(["KH", "3H", "AS"], ["TH"], first_trick=False)   # must beat the 10♥
['KH']
>>> legal_plays(["KH", "3H", "AS"], ["TH", "2S"], first_trick=False)   # trumped: any heart
['KH', '3H']
>>> trick_winner(["TH", "AH", "2S", "KH"])
2
>>> deal_score(4, 6), deal_score(4, 3), deal_score(1, 13)
(42, -40, 22)
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ABOVE, SPADES_MASK, SUIT_MASKS, card_str, cards_to_mask, parse_card
from .errors import CardError, EngineError

MIN_BID = 1
MAX_BID = 13
TRICKS_PER_DEAL = 13

# Reason codes for a card that is held but may not be played now (stable: the UI translates them).
MUST_FOLLOW_SUIT = "must_follow_suit"
MUST_BEAT = "must_beat"
MUST_TRUMP = "must_trump"
MUST_OVERTRUMP = "must_overtrump"
NO_SPADE_LEAD_FIRST_TRICK = "no_spade_lead_first_trick"
REASON_CODES = (MUST_FOLLOW_SUIT, MUST_BEAT, MUST_TRUMP, MUST_OVERTRUMP, NO_SPADE_LEAD_FIRST_TRICK)

NON_SPADES_MASK = ((1 << 52) - 1) & ~SPADES_MASK


def legal_mask(hand: int, trick: Sequence[int], first_trick: bool) -> int:
    """The cards of ``hand`` that may be played on ``trick`` (cards in play order)."""
    if not trick:
        if first_trick and hand & NON_SPADES_MASK:
            return hand & NON_SPADES_MASK
        return hand
    led = trick[0] // 13
    best_led = -1
    best_spade = -1
    for c in trick:
        if c < 13:
            if c > best_spade:
                best_spade = c
        elif c // 13 == led and c > best_led:
            best_led = c
    if led == 0:
        best_led = best_spade
    same = hand & SUIT_MASKS[led]
    if same:
        if led != 0 and best_spade >= 0:
            return same  # trumped: any card of the led suit
        return (same & ABOVE[best_led]) or same
    spades = hand & SPADES_MASK
    if not spades:
        return hand
    if best_spade < 0:
        return spades  # an untrumped trick: any spade wins, so one is forced
    return (spades & ABOVE[best_spade]) or hand  # over-trump if possible, else anything


def locked_reasons(hand: int, trick: Sequence[int], first_trick: bool) -> dict[int, str]:
    """For each held card that is not legal now, the reason code the UI explains."""
    legal = legal_mask(hand, trick, first_trick)
    locked = hand & ~legal
    if not locked:
        return {}
    out: dict[int, str] = {}
    if not trick:
        reason = NO_SPADE_LEAD_FIRST_TRICK
        for c in range(52):
            if locked >> c & 1:
                out[c] = reason
        return out
    led_mask = SUIT_MASKS[trick[0] // 13]
    holds_led = bool(hand & led_mask)
    spade_on_table = any(c < 13 for c in trick)
    for c in range(52):
        if not locked >> c & 1:
            continue
        if holds_led:
            out[c] = MUST_BEAT if (1 << c) & led_mask else MUST_FOLLOW_SUIT
        else:
            out[c] = MUST_OVERTRUMP if spade_on_table else MUST_TRUMP
    return out


def trick_winner_index(trick: Sequence[int]) -> int:
    """Index in ``trick`` of the card that wins it so far: highest spade, else highest of the led suit."""
    best = 0
    win = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if (c // 13 == win // 13 and c > win) or (c < 13 <= win):
            best, win = i, c
    return best


def deal_score(bid: int, won: int) -> int:
    """Score of one deal in tenths: the bid plus 0.1 per overtrick when made, minus the bid when not."""
    return bid * 10 + (won - bid) if won >= bid else -bid * 10


def check_bid(bid: object) -> int:
    """The bid as an int, or :class:`EngineError` (``bad_bid`` / ``bid_out_of_range``)."""
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise EngineError(f"a bid is a whole number from {MIN_BID} to {MAX_BID}, not {bid!r}", "bad_bid")
    if not MIN_BID <= bid <= MAX_BID:
        raise EngineError(
            f"bid {bid} is out of range: bid from {MIN_BID} to {MAX_BID} (no pass, no 0)", "bid_out_of_range"
        )
    return bid


def legal_bids() -> list[int]:
    return list(range(MIN_BID, MAX_BID + 1))


# --- The plain-string API ---------------------------------------------------------------------

def _parse_trick(trick: Sequence[str], max_len: int) -> list[int]:
    if isinstance(trick, str):
        raise CardError("a trick is a sequence of card strings, not one string")
    cards = [parse_card(c) for c in trick]
    if len(cards) > max_len:
        raise EngineError(f"a trick holds at most {max_len} cards here, got {len(cards)}", "bad_trick")
    cards_to_mask(cards)  # rejects duplicates
    return cards


def legal_plays(hand: Sequence[str], trick: Sequence[str], first_trick: bool) -> list[str]:
    """The legal cards of ``hand`` (in the hand's order) on ``trick`` (in play order, maybe empty)."""
    if isinstance(hand, str):
        raise CardError("a hand is a sequence of card strings, not one string")
    mask = cards_to_mask(hand)
    cards = _parse_trick(trick, 3)
    if mask & cards_to_mask(cards):
        raise EngineError("a card cannot be both in the hand and on the table", "bad_trick")
    legal = legal_mask(mask, cards, first_trick)
    return [card_str(parse_card(c)) for c in hand if legal >> parse_card(c) & 1]


def locked_plays(hand: Sequence[str], trick: Sequence[str], first_trick: bool) -> dict[str, str]:
    """``{card: reason_code}`` for every card of ``hand`` that may not be played on ``trick``."""
    if isinstance(hand, str):
        raise CardError("a hand is a sequence of card strings, not one string")
    mask = cards_to_mask(hand)
    reasons = locked_reasons(mask, _parse_trick(trick, 3), first_trick)
    return {card_str(c): r for c, r in sorted(reasons.items())}


def trick_winner(trick: Sequence[str]) -> int:
    """Index, in the 4-card ``trick`` (play order), of the winning card."""
    cards = _parse_trick(trick, 4)
    if len(cards) != 4:
        raise EngineError(f"a complete trick has 4 cards, got {len(cards)}", "bad_trick")
    return trick_winner_index(cards)
