"""Every model of the app, for Django's discovery; each concept defines its own in ``<concept>/models.py``."""

from .analysis.models import Analysis
from .matches.models import Action, Match, Seat
from .players.models import Notice, Presence, Profile, Rating, RatingChange
from .tables.models import Table, TableSeat, _invite_code

__all__ = [
    "Action", "Analysis", "Match", "Notice", "Presence", "Profile", "Rating", "RatingChange", "Seat", "Table",
    "TableSeat", "_invite_code",
]
