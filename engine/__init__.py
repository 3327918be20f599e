"""Call Break (叫墩牌): exact rules, provably fair deals, verifiable replays.  Standard library only.

The public API is what this module exports; ``docs/engine-api.md`` describes it.

>>> legal_plays(["AS", "KH", "2H"], ["QH"], first_trick=False)
['KH']
>>> trick_winner(["QH", "AH", "2S", "KH"])
2
"""

from .analysis import (
    ANALYSIS_FORMAT,
    Analysis,
    Decision,
    analysis_from_decisions,
    analyze_deal,
    analyze_seat,
    iter_decisions,
)
from .cards import card_label, card_str, parse_card
from .deal import deal_hands, deal_strs, first_dealer, new_seed, seed_commitment, shuffled_deck
from .errors import CardError, EngineError, IllegalAction, ReplayError, VerifyError
from .match import (
    BIDDING,
    FINISHED,
    PLAYING,
    Action,
    Bid,
    DealRecord,
    MatchState,
    Phase,
    Play,
    Trick,
    action_from_json,
    apply,
    new_match,
    replay,
)
from .replays import FORMAT, export_replay, format_tenths, import_replay, verify_replay
from .rules import REASON_CODES, deal_score, legal_plays, locked_plays, trick_winner
from .views import PlayerView, player_view, spectator_view

__all__ = [
    "ANALYSIS_FORMAT", "Analysis", "Decision", "analysis_from_decisions", "analyze_deal", "analyze_seat",
    "iter_decisions",
    "BIDDING", "FINISHED", "FORMAT", "PLAYING", "REASON_CODES",
    "Action", "Bid", "CardError", "DealRecord", "EngineError", "IllegalAction", "MatchState", "Phase", "Play",
    "PlayerView", "ReplayError", "Trick", "VerifyError",
    "action_from_json", "apply", "card_label", "card_str", "deal_hands", "deal_score", "deal_strs",
    "export_replay", "first_dealer", "format_tenths", "import_replay", "legal_plays", "locked_plays",
    "new_match", "new_seed", "parse_card", "player_view", "replay", "seed_commitment", "shuffled_deck",
    "spectator_view", "trick_winner", "verify_replay",
]
