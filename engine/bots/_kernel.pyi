from collections.abc import Sequence

def knowledge_limited_card(
    hands: Sequence[int], pub: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> int: ...
def policy_card(
    hands: Sequence[int], pub: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> int: ...
def play_out(
    hands: Sequence[int], pub: Sequence[int], leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> list[int]: ...
def refine(
    worlds: Sequence[Sequence[int]], allowed: Sequence[int], played_by: Sequence[int], bids: Sequence[int],
    totals: Sequence[int], meta: Sequence[int], sigma: float, bid_miss: float, play_miss: float, steps: int,
    seed: int,
) -> list[list[int]]: ...
def estimate_tricks(hand: int) -> float: ...
def bid_for(est: float, me: int, totals: Sequence[int], deal_number: int) -> int: ...
def ismcts(
    worlds: Sequence[Sequence[int]], leader: int, trick: Sequence[int], won: Sequence[int], first: bool,
    iterations: int, exploration: float, seed: int, bids: Sequence[int] | None = None,
) -> list[tuple[int, int]]: ...
def sample_worlds(
    state: tuple[int, tuple[int, ...], float | None], me: int, hand: int, unseen: int, allowed: Sequence[int],
    counts: Sequence[int], played_by: Sequence[int], bids: Sequence[int], n: int, sigma: float,
) -> tuple[tuple[int, tuple[int, ...], float | None], list[tuple[list[int], float]]]: ...
def bid_worlds(
    state: tuple[int, tuple[int, ...], float | None], me: int, hand: int, bids: Sequence[int], n: int,
    offset: float, sigma: float,
) -> tuple[tuple[int, tuple[int, ...], float | None], list[tuple[list[int], list[int], float]]]: ...
def card_play_outs(
    worlds: Sequence[tuple[Sequence[int], float]], me: int, cards: Sequence[int], pub: Sequence[int], leader: int,
    trick: Sequence[int], won: Sequence[int], bids: Sequence[int], first: bool,
) -> list[int]: ...
def bid_play_outs(
    deals: Sequence[tuple[Sequence[int], Sequence[int], float]], me: int, bids: Sequence[int], leader: int,
) -> list[int]: ...
def card_values(
    worlds: Sequence[tuple[Sequence[int], float]], me: int, cards: Sequence[int], pub: Sequence[int], leader: int,
    trick: Sequence[int], won: Sequence[int], bids: Sequence[int], first: bool, totals: Sequence[int] | None,
) -> tuple[float, list[float]]: ...
def bid_values(
    deals: Sequence[tuple[Sequence[int], Sequence[int], float]], me: int, bids: Sequence[int], leader: int,
    totals: Sequence[int] | None,
) -> tuple[float, list[float]]: ...
