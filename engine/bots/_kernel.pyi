from collections.abc import Sequence

def kl_card(
    h: Sequence[int], pub: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> int: ...
def play_out(
    hands: Sequence[int], pub: Sequence[int], leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> list[int]: ...
