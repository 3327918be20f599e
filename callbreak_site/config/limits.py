"""What one client may send and how often: bounded input (games/web/bounds.py), rate limits
(games/platform/ratelimit.py), sockets per account and emotes at a table."""

from __future__ import annotations

from .env import env_bool, env_float, env_int, env_rate

# --- Bounded input (games/web/bounds.py) -----------------------------------------------------------------
# A request body over MAX_REQUEST_BYTES answers 413 (JSON) before Django reads it; API JSON nested deeper than
# MAX_JSON_DEPTH, or malformed, answers 400 `bad_json`; a WebSocket frame over WS_MAX_FRAME_BYTES, malformed
# or too deep gets an error message and the socket stays open.
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 256 * 1024)
# A refused body is read and dropped up to this many bytes before the 413 (so the client, still sending, is
# not reset and sees the answer); past it the 413 goes at once and the connection closes.
BODY_DRAIN_BYTES = env_int("BODY_DRAIN_BYTES", 8 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
MAX_JSON_DEPTH = env_int("MAX_JSON_DEPTH", 32)
WS_MAX_FRAME_BYTES = env_int("WS_MAX_FRAME_BYTES", 4096)
# An offline match's replay (games/offline) over this many bytes answers 413 `too_large` (a whole match is ~20 KB).
OFFLINE_REPLAY_MAX_BYTES = env_int("OFFLINE_REPLAY_MAX_BYTES", 64 * 1024)

# --- Rate limits (games/platform/ratelimit.py) -----------------------------------------------------------------
# scope: (counted by, rate). "ip": the client's address; "account": the username a log-in names; "user": the
# signed-in user. Each rate can be set with RATE_LIMIT_<SCOPE> (e.g. RATE_LIMIT_SIGNUP=1000/hour for a load
# test whose people all come from 127.0.0.1); RATE_LIMITS=0 turns them all off.
_RATE_DEFAULTS = {
    "signup": ("ip", "30/hour"),  # new accounts from one address (API and HTML form)
    "guest": ("ip", "10/hour"),  # new guest accounts (Play now) from one address
    "login": ("ip", "30/min"),  # log-ins (page, admin, POST /api/auth/token/) from one address
    "login_account": ("account", "10/min"),  # log-ins naming one account, from anywhere
    "action": ("user", "20/s"),  # bids and cards: a burst
    "action_sustained": ("user", "300/min"),  # bids and cards: over a minute
    "new_match": ("user", "20/min"),  # matches against bots
    "new_table": ("user", "10/min"),  # tables and rematches
    "join_code": ("user", "20/min"),  # joining a private table by its room code: guesses stay slow
    "schema": ("ip", "60/min"),  # the OpenAPI document (built per request)
    "api": ("user", "600/min"),  # every API request of a signed-in user
    "bot_stream": ("user", "30/min"),  # a bot account opening its event stream
    "bot_invite": ("user", "30/min"),  # a host inviting bot accounts to seats
    "bot_answer": ("user", "60/min"),  # a bot account accepting or declining invitations
    "chat": ("user", "5/10s"),  # chat messages at private tables: a burst
    "chat_sustained": ("user", "30/10min"),  # chat messages: over ten minutes
    "chat_report": ("user", "20/hour"),  # reports of chat messages
    "offline_upload": ("user", "60/hour"),  # replays of matches played offline, uploaded when back online
    "following": ("user", "60/hour"),  # follows, unfollows, blocks and unblocks
    "challenges": ("user", "20/hour"),  # friends challenged (each opens a private table and sends a notice)
}
RATE_LIMITS = {scope: (kind, env_rate(scope, rate)) for scope, (kind, rate) in _RATE_DEFAULTS.items()}
RATE_LIMITS_ON = env_bool("RATE_LIMITS", True)
# URL name -> method -> the scopes that count it (besides "api").
RATE_LIMIT_ROUTES = {
    "api-signup": {"POST": ["signup"]},
    "api-guest": {"POST": ["guest"]},
    "signup": {"POST": ["signup"]},
    "api-matches": {"POST": ["new_match"]},
    "api-match-actions": {"POST": ["action", "action_sustained"]},
    "api-tables": {"POST": ["new_table"]},
    "api-match-rematch": {"POST": ["new_table"]},
    "api-table-join-by-code": {"POST": ["join_code"]},
    "api-schema": {"GET": ["schema"]},
    "api-bot-events": {"GET": ["bot_stream"]},
    "api-table-invite-bot": {"POST": ["bot_invite"]},
    "api-table-invitation": {"POST": ["bot_answer"]},
    "api-offline-matches": {"POST": ["offline_upload"]},
    "api-follow": {"PUT": ["following"], "DELETE": ["following"]},
    "api-block": {"PUT": ["following"], "DELETE": ["following"]},
    "api-challenge": {"POST": ["challenges"]},
}

# Open sockets (match pages and /ws/me/) one account may hold in one web process; past it a socket is accepted
# and closed at once with code 4429 and a message. Generous for a person's tabs; a bot account needs a few.
# (games.platform.ratelimit.OPEN_SOCKETS)
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", 30)
# Emotes at the table: at most EMOTE_LIMIT per person and match in EMOTE_WINDOW seconds (games.platform.ratelimit's
# `emote` scope, on with RATE_LIMITS=0 too).
EMOTE_LIMIT = env_int("EMOTE_LIMIT", 3)
EMOTE_WINDOW = env_float("EMOTE_WINDOW", 10.0)
