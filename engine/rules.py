"""The rules of Call Break as this engine enforces them, as pure functions (in full: ``docs/rules.md``).

The rules in brief:

* 4 players, each for themselves; a 52-card deck, 13 cards to each seat every deal; 5 deals a match.
  Seats play in order ``s -> (s + 1) % 4``; the dealer moves one seat on after each deal.  No redeal.
* Bidding: from the dealer's right round to the dealer, once.  A bid is a whole number 1..13: no
  pass, no 0, no nil (``bad_bid``, ``bid_out_of_range``).
* Play: the dealer's right leads the first trick, the winner of a trick leads the next.  Spades are
  always trump; in every suit A is high, then K Q J 10 … 2.  A trick goes to its highest spade, or,
  without one, to the highest card of the led suit (:func:`beats`).
* Leading: on the first trick of a deal no spade may be led unless the hand holds only spades
  (``no_spade_lead_first_trick``); later any card may be led (no "spades broken" rule).
* Following: holding the led suit, you must follow it (``must_follow_suit``), and must play a card
  higher than the best of that suit on the table when you can (``must_beat``), unless a side-suit
  trick is already trumped, when any card of the led suit will do.  Void in the led suit, you must
  play a spade when the trick holds none (``must_trump``), and must over-trump the highest spade when
  you can (``must_overtrump``); a seat whose spades cannot win, or who holds none, may play any card.
* Scoring in tenths (:func:`deal_score`): tricks won >= bid scores the bid plus 0.1 a trick over it
  (bid 4, won 6: +4.2); fewer than the bid scores minus the bid (bid 4, won 3: -4.0).  After the
  fifth deal the highest total wins; equal highest totals share the win.

The fast functions take a hand mask and a trick given as card numbers in play order:
:func:`legal_mask` (which cards may be played) and :func:`trick_winner_index` (which card wins); a
:class:`DealInPlay` holds a deal's hands, trick, leader and tricks won and plays its cards one by one, the one
trick step of every play-out, search and bot.  The string functions :func:`legal_plays` and
:func:`trick_winner` are the stable public API.

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

from .cards import ABOVE, NON_SPADES_MASK, SPADES_MASK, SUIT_MASKS, card_str, cards_to_mask, parse_card
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


def legal_mask(hand: int, trick: Sequence[int], first_trick: bool) -> int:
    """The cards of ``hand`` that may be played on ``trick`` (cards in play order).

    >>> from engine.cards import mask_to_strs
    >>> hand = cards_to_mask(["KH", "3H", "AS", "2C"])
    >>> mask_to_strs(legal_mask(hand, [parse_card("TH")], False))   # must beat the 10♥
    ['KH']
    >>> mask_to_strs(legal_mask(hand, [parse_card("TD")], False))   # void in ♦: must trump
    ['AS']
    >>> mask_to_strs(legal_mask(hand, [], True))   # no spade leads the first trick
    ['3H', 'KH', '2C']
    """
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


def beats(card: int, best: int) -> bool:
    """Whether ``card``, played to a trick that ``best`` is winning, takes the lead from it.

    It does when it is a higher card of the same suit, or a spade on a card of another suit; any
    other card (a lower one, or a discard of a third suit) loses to ``best``.

    >>> beats(parse_card("AH"), parse_card("KH")), beats(parse_card("2S"), parse_card("AH"))
    (True, True)
    >>> beats(parse_card("AD"), parse_card("2H")), beats(parse_card("AH"), parse_card("2S"))
    (False, False)
    """
    return (card // 13 == best // 13 and card > best) or (card < 13 <= best)


def trick_winner_index(trick: Sequence[int]) -> int:
    """Index in ``trick`` of the card that wins it so far: highest spade, else highest of the led suit
    (the suit of ``trick[0]``).

    >>> trick_winner_index([parse_card(c) for c in ["TH", "AH", "KD", "QH"]])   # the K♦ is a discard
    1
    >>> trick_winner_index([parse_card(c) for c in ["TH", "AH", "2S", "3S"]])
    3
    """
    best = 0
    win = trick[0]
    for i in range(1, len(trick)):
        if beats(trick[i], win):
            best, win = i, trick[i]
    return best


class DealInPlay:
    """A deal part-way through its play, on masks: the one trick step of every play-out, search and bot.

    ``hands`` holds the four hands (card masks), ``trick`` the cards on the table in play order, ``leader`` the
    seat that led them, ``won`` the tricks won per seat and ``first`` whether the trick is the deal's first (by
    default, whether no trick has been won yet).  The lists are the instance's own (copied when it is made) and
    change in place, so one sampled world can start many of them.  :meth:`play` does not check the card (the
    caller chose it from :meth:`legal_mask`): the play-outs and searches take this step for every card, so it
    stays cheap.

    >>> from engine.cards import mask_to_strs
    >>> deal = DealInPlay([cards_to_mask(h) for h in (["TH", "2C"], ["AH", "3C"], ["2S", "4C"], ["KH", "5C"])],
    ...                   leader=3)
    >>> for c in ["KH", "TH", "AH"]:
    ...     deal.play(parse_card(c))
    >>> deal.to_play, mask_to_strs(deal.hands[1]), [card_str(c) for c in deal.trick]
    (2, ['3C'], ['KH', 'TH', 'AH'])
    >>> mask_to_strs(deal.legal_mask())   # void in hearts: must trump
    ['2S']
    >>> deal.first, deal.play(parse_card("2S")), deal.first   # seat 2 trumps, and leads the second trick
    (True, None, False)
    >>> deal.trick, deal.won, deal.leader, deal.to_play, deal.over
    ([], [0, 0, 1, 0], 2, 2, False)
    """

    __slots__ = ("first", "hands", "leader", "trick", "won")

    def __init__(
        self, hands: Sequence[int], leader: int, trick: Sequence[int] = (), won: Sequence[int] = (0, 0, 0, 0),
        first: bool | None = None,
    ) -> None:
        self.hands = list(hands)
        self.leader = leader
        self.trick = list(trick)
        self.won = list(won)
        self.first = not any(self.won) if first is None else first  # no trick won yet: still the first

    @property
    def to_play(self) -> int:
        """The seat whose card comes next."""
        return (self.leader + len(self.trick)) & 3

    @property
    def over(self) -> bool:
        """Whether every card of the deal has been played."""
        return not self.trick and not self.hands[self.leader]

    def legal_mask(self) -> int:
        """The cards the seat to play may play (:func:`legal_mask`)."""
        return legal_mask(self.hands[(self.leader + len(self.trick)) & 3], self.trick, self.first)

    def play(self, card: int) -> None:
        """The seat to play plays ``card``; the fourth card closes the trick (:meth:`close_trick`)."""
        trick = self.trick
        self.hands[(self.leader + len(trick)) & 3] ^= 1 << card
        trick.append(card)
        if len(trick) == 4:
            self.close_trick()

    def close_trick(self) -> None:
        """The full trick goes to its winner, who leads the next one; the first trick is over."""
        winner = (self.leader + trick_winner_index(self.trick)) & 3
        self.won[winner] += 1
        self.trick.clear()
        self.leader = winner
        self.first = False


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
