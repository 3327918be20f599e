"""Product rules: bots and bot accounts, the live pace, quick match, guests, correspondence tables, Web Push
and analyses."""

from __future__ import annotations

from typing import Any

from .env import env_bool, env_float, env_int, env_list, env_str

# --- Bots -------------------------------------------------------------------------------------
# Display names given to bot seats, by seat index.
CALLBREAK_BOT_NAMES = ["Bot Ganesh", "Bot Lakshmi", "Bot Hari", "Bot Sita", "Bot Arjun", "Bot Mira"]
# Bot accounts (games/bots): matches one plays at once (seats held at open tables count), and the stream's
# heart-beat (an NDJSON line every so many seconds while nothing happens).
BOT_MAX_ACTIVE_MATCHES = env_int("BOT_MAX_ACTIVE_MATCHES", 4)
# A bot account's time per move wherever it plays (a timed table's shorter time wins); then the autopilot, and
# after AUTOPILOT_HANDOVER_AFTER such turns in a row a house bot keeps the seat, as for people.
BOT_MOVE_SECONDS = env_int("BOT_MOVE_SECONDS", 60)
BOT_EVENTS_HEARTBEAT_SECONDS = env_float("BOT_EVENTS_HEARTBEAT_SECONDS", 15.0)

# --- Guests -----------------------------------------------------------------------------------
# Guest accounts (Play now, name later): removed after this many days without a log-in or a move at a match.
GUEST_IDLE_DAYS = env_int("GUEST_IDLE_DAYS", 30)

# --- Quick match (games/quickmatch) ----------------------------------------------------------------
# Seconds a seek waits for people before bots fill the empty seats.
QUICK_MATCH_BOTS_AFTER = env_float("QUICK_MATCH_BOTS_AFTER", 20.0)
# Rated seeks are seated together when their ratings (OpenSkill mu) differ by at most the window, which starts at
# QUICK_MATCH_WINDOW and widens by QUICK_MATCH_WINDOW_GROWTH a second of the oldest seek's wait.
QUICK_MATCH_WINDOW = env_float("QUICK_MATCH_WINDOW", 2.0)
QUICK_MATCH_WINDOW_GROWTH = env_float("QUICK_MATCH_WINDOW_GROWTH", 0.25)
# The bots' pool (the bot ladder, bot accounts only): seconds a seek waits for other bot accounts before the ladder's
# house bots (BOT_LADDER_HOUSE_BOTS, drawn at random for each empty seat; any of games.ratings.reads.YARDSTICKS,
# whose ratings are frozen) fill the empty seats. Short: a lone bot should not wait long for its next match.
QUICK_MATCH_BOT_POOL_AFTER = env_float("QUICK_MATCH_BOT_POOL_AFTER", 5.0)
BOT_LADDER_HOUSE_BOTS = env_list("BOT_LADDER_HOUSE_BOTS", "heuristic,strong", strip=True)
# The live pace: seconds a move, and the bank of extra seconds each seat has per deal.
LIVE_MOVE_SECONDS = env_int("LIVE_MOVE_SECONDS", 15)
LIVE_BANK_SECONDS = env_int("LIVE_BANK_SECONDS", 30)
# Live quick matches one person plays at once (running, the seat not handed to the autopilot): past it a live seek
# is refused (409 too_many_matches), and a waiting one is not seated until one of them ends.
QUICK_MATCH_MAX_LIVE_MATCHES = env_int("QUICK_MATCH_MAX_LIVE_MATCHES", 3)
# In eager mode (`make run`, the browser tests) a thread of the web process runs the pairing after the wait, as
# the worker's delayed task does with a broker.
QUICK_MATCH_EAGER_TIMER = env_bool("QUICK_MATCH_EAGER_TIMER", True)
# "Who is here" is counted and told to the home and lobby pages at most once in this many seconds.
QUICK_MATCH_HERE_SECONDS = env_int("QUICK_MATCH_HERE_SECONDS", 3)

# --- Watching (games/watching) -------------------------------------------------------------------------
# A watcher sees a running match as it was one trick (four bids or cards) ago; a positive number here shows it
# as it was this many seconds ago instead. Never a hand, never the seed before the end.
SPECTATOR_DELAY_SECONDS = env_float("SPECTATOR_DELAY_SECONDS", 0.0)
# The Watch page: the live matches of the top rated people (this many of the leaderboard) at most WATCH_LIST_SIZE.
WATCH_TOP_PLAYERS = env_int("WATCH_TOP_PLAYERS", 100)
WATCH_LIST_SIZE = env_int("WATCH_LIST_SIZE", 24)

# --- Friends (games/friends) -----------------------------------------------------------------------------
# People one follows at most (the friends list shows them all on one page).
FOLLOWS_PER_USER = env_int("FOLLOWS_PER_USER", 500)

# --- Arena tournaments (games/tournaments) --------------------------------------------------------
# Seconds a free person of a running arena waits for three others before bots fill the empty seats.
TOURNAMENT_BOTS_AFTER = env_float("TOURNAMENT_BOTS_AFTER", 30.0)
# An arena's standings go to its open pages at most once in this many seconds (a change within it is sent at its
# end, with every change since): 200 people joining at once make a few sends, not 200 of 200 rows each.
TOURNAMENT_STANDINGS_SPACING = env_float("TOURNAMENT_STANDINGS_SPACING", 0.25)
# In eager mode a thread of the web process runs the arena's pairing after the wait (the worker's delayed task).
TOURNAMENT_EAGER_TIMER = env_bool("TOURNAMENT_EAGER_TIMER", True)
# The arenas beat makes (games.tournaments.commands.schedule): each entry's next one, made this many seconds before
# it starts (so people can join ahead). `every_hours` apart from `at_hour`:`at_minute` (UTC); TOURNAMENT_SCHEDULE=0
# makes none.
TOURNAMENT_SCHEDULE_AHEAD = env_float("TOURNAMENT_SCHEDULE_AHEAD", 3600.0)
TOURNAMENT_SCHEDULE: list[dict[str, Any]] = [
    {"key": "hourly", "name": "Hourly Live Arena", "every_hours": 1, "at_minute": 0, "minutes": 30},
    {"key": "daily", "name": "Daily Long Arena", "every_hours": 24, "at_hour": 15, "minutes": 120},
] if env_bool("TOURNAMENT_SCHEDULE", True) else []

# --- Correspondence tables --------------------------------------------------------------------------
# Expired turns in a row after which the bot keeps the seat for the rest of the match.
AUTOPILOT_HANDOVER_AFTER = env_int("AUTOPILOT_HANDOVER_AFTER", 3)
# Open public tables one person may host at once (the lobby lists them for everyone; private ones do not count).
OPEN_PUBLIC_TABLES_PER_USER = env_int("OPEN_PUBLIC_TABLES_PER_USER", 3)
# Open private tables (set up, not started) one person may host at once: enough for a few groups of friends,
# not a pile of rows from one script.
OPEN_PRIVATE_TABLES_PER_USER = env_int("OPEN_PRIVATE_TABLES_PER_USER", 10)
# A public table nobody starts expires after this long.
TABLE_EXPIRY_SECONDS = env_int("TABLE_EXPIRY_SECONDS", 3 * 86400)

# --- Web Push (games/push) ---------------------------------------------------------------------------
# VAPID keys (base64url; `manage.py vapid_keys` prints a new pair): without both, push is off and the settings
# page says so. VAPID_SUBJECT (mailto: or https:) tells push services whom to contact; empty: SITE_URL when it
# is https, else mailto: the DEFAULT_FROM_EMAIL address.
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "").strip()
# Push endpoints must be https on public addresses; these host[:port]s (comma-separated) may be plain http on any
# address: a stand-in push service of the tests on loopback. Empty in production.
PUSH_ALLOW_HTTP_HOSTS = env_str("PUSH_ALLOW_HTTP_HOSTS", "")
# Browsers one person may subscribe (the newest are kept), and the push request's connect/read timeout.
PUSH_SUBSCRIPTIONS_PER_USER = env_int("PUSH_SUBSCRIPTIONS_PER_USER", 10)
PUSH_TIMEOUT_SECONDS = env_float("PUSH_TIMEOUT_SECONDS", 5.0)

# --- Analyses (games/analysis) -------------------------------------------------------------------------
# Sampled deals per decision of a finished match's review; 0: the engine's default (engine.analysis).
ANALYSIS_BUDGET = env_int("ANALYSIS_BUDGET", 0)
# How a review runs without a broker: "thread" (a background thread of the web process) or "off" (not at all;
# the tests). With a broker it always goes to the analysis queue's worker.
ANALYSIS_EAGER = env_str("ANALYSIS_EAGER", "thread")
