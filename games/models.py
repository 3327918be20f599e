"""Every model of the app, for Django's discovery; each concept defines its own in ``<concept>/models.py``."""

from .accounts.models import ApiToken, Block, BotAccount, Guest, Profile, UsernameKey
from .analysis.models import Analysis
from .bots.models import BotEvent
from .friends.models import Follow
from .matches.models import Action, Match, Seat
from .notices.models import Notice
from .presence.models import Online, Presence
from .push.models import PushDelivery, PushPreferences, PushSubscription
from .quickmatch.models import Seek
from .ratings.models import Rating, RatingChange
from .tables.models import Table, TableSeat, _invite_code
from .tabletalk.models import ChatMessage, ChatReport, Mute
from .tournaments.models import ArenaMatch, Entry, Result, Tournament
from .watching.models import Watcher

__all__ = [
    "Action", "Analysis", "ApiToken", "ArenaMatch", "Block", "BotAccount", "BotEvent", "ChatMessage", "ChatReport",
    "Entry", "Follow", "Guest", "Match", "Mute", "Notice", "Online", "Presence", "Profile", "PushDelivery",
    "PushPreferences", "PushSubscription", "Rating", "RatingChange", "Result", "Seat", "Seek", "Table", "TableSeat",
    "Tournament", "UsernameKey", "Watcher", "_invite_code",
]
