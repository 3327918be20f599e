"""Post-game analysis: the strong bot's machinery reviews every decision of one seat of a finished match."""

from .evaluate import WIN_SCALE, Valuation, card_classes, evaluate
from .review import (
    DEFAULT_BUDGET,
    FORMAT,
    LABELS,
    PREVIEW_BUDGET,
    Analysis,
    Decision,
    DecisionPoint,
    analysis_from_decisions,
    analyze_deal,
    analyze_seat,
    decision_points,
    iter_decisions,
    label_for,
)

#: The analysis document's format (``FORMAT`` here; ``engine.FORMAT`` is the replay's).
ANALYSIS_FORMAT = FORMAT

__all__ = [
    "ANALYSIS_FORMAT", "DEFAULT_BUDGET", "FORMAT", "LABELS", "PREVIEW_BUDGET", "WIN_SCALE",
    "Analysis", "Decision", "DecisionPoint", "Valuation",
    "analysis_from_decisions", "analyze_deal", "analyze_seat", "card_classes", "decision_points", "evaluate",
    "iter_decisions", "label_for",
]
