"""Every model of the app, for Django's discovery; each concept defines its own in ``<concept>/models.py``."""

from .accounts.models import ApiToken, BotAccount, Guest, Profile, UsernameKey
from .analysis.models import Analysis
from .bots.models import BotEvent
from .matches.models import Action, Match, Seat
from .notices.models import Notice
from .presence.models import Presence
from .push.models import PushDelivery, PushPreferences, PushSubscription
from .quickmatch.models import Seek
from .ratings.models import Rating, RatingChange
from .tables.models import Table, TableSeat, _invite_code
from .tabletalk.models import ChatMessage, ChatReport, Mute
from .tournaments.models import ArenaMatch, Entry, Result, Tournament

__all__ = [
    "Action", "Analysis", "ApiToken", "ArenaMatch", "BotAccount", "BotEvent", "ChatMessage", "ChatReport", "Entry",
    "Guest", "Match", "Mute", "Notice", "Presence", "Profile", "PushDelivery", "PushPreferences", "PushSubscription",
    "Rating",
    "RatingChange", "Result", "Seat", "Seek", "Table", "TableSeat", "Tournament", "UsernameKey", "_invite_code",
]
