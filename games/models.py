"""Every model of the app, for Django's discovery; each concept defines its own in ``<concept>/models.py``."""

from .accounts.models import ApiToken, BotAccount, Profile, UsernameKey
from .analysis.models import Analysis
from .bots.models import BotEvent
from .matches.models import Action, ChatMessage, ChatReport, Match, Mute, Presence, Seat
from .notices.models import Notice
from .push.models import PushDelivery, PushPreferences, PushSubscription
from .quickmatch.models import Seek
from .ratings.models import Rating, RatingChange
from .tables.models import Table, TableSeat, _invite_code

__all__ = [
    "Action", "Analysis", "ApiToken", "BotAccount", "BotEvent", "ChatMessage", "ChatReport", "Match", "Mute",
    "Notice", "Presence", "Profile", "PushDelivery", "PushPreferences", "PushSubscription", "Rating", "RatingChange",
    "Seat", "Seek", "Table", "TableSeat", "UsernameKey", "_invite_code",
]
