"""Settings, all taken from the environment.

Nothing set gives the embedded mode: SQLite file, in-memory channel layer and Celery tasks run
eagerly in-process, so ``make run`` needs no services. ``DATABASE_URL`` switches to PostgreSQL and
``REDIS_URL`` to channels_redis plus a Redis broker for a real ``celery worker``.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Lets classes such as ``admin.ModelAdmin[Match]`` be subscripted at run time, as the type checker wants.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off "
            "(for example: export SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(50))'))."
        )
    SECRET_KEY = "insecure-development-key-only-for-debug"

ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

# --- HTTPS ---------------------------------------------------------------------------------------
# On by default when DEBUG is off: the site is then served over HTTPS by a reverse proxy in front of
# `make serve` that terminates TLS and sets X-Forwarded-Proto (and strips any client-sent one).
# HTTPS=0 turns it off for a stack on loopback (tests, benchmarks); `make run` (DEBUG on) never has it.
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
# A load balancer's probes may come over plain http behind the proxy: no redirect for them.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
_proxy_ssl_header = os.environ.get("PROXY_SSL_HEADER", "X-Forwarded-Proto").strip()
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _proxy_ssl_header.upper().replace("-", "_"), "https") if HTTPS and _proxy_ssl_header else None
)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 86400))) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from our own static files (CSP 'self')
    "channels",
    "csp",
    "axes",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "games.limits.NulByteMiddleware",  # 400 for a NUL in the path, query or cookies (PostgreSQL refuses it)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "games.security.CSPMiddleware",  # Content-Security-Policy (CONTENT_SECURITY_POLICY below)
    "games.limits.BodyLimitMiddleware",  # 413 for a body over MAX_REQUEST_BYTES, before anything reads it
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out log-in into its 429 answer
    "callbreak_site.ops.MetricsMiddleware",  # names the route for the latency histogram; the pool's waits
    "callbreak_site.middleware.OneThreadMiddleware",  # innermost, sync only: the chain runs in one thread
]

ROOT_URLCONF = "callbreak_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "frontend" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.quickmatch.context.quick_match",
            ],
        },
    },
]

WSGI_APPLICATION = "callbreak_site.wsgi.application"
ASGI_APPLICATION = "callbreak_site.asgi.application"

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # CONN_HEALTH_CHECKS: a connection is checked before it is handed out (psycopg_pool's check_connection with
    # the pool), so one the database closed (a restart, pg_terminate_backend) is replaced, not given to a request
    # or a bot move to fail on.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=True)}
    # A connection pool per process (psycopg_pool): a request or a socket's view borrows an open
    # connection instead of opening one (a few ms each over loopback, far more over a network).
    # DATABASE_POOL_MAX=0 turns it off (e.g. behind an external pooler such as PgBouncer).
    # A request that finds every connection busy queues for one (first come, first served) for at most
    # DATABASE_POOL_WAIT seconds, and at most DATABASE_POOL_QUEUE requests queue; past either it answers 503 with
    # Retry-After (games.api_errors). Nothing holds a connection while a password is hashed (games.passwords).
    _pool_max = int(os.environ.get("DATABASE_POOL_MAX", "8"))
    if _pool_max > 0 and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1, "max_size": _pool_max, "timeout": float(os.environ.get("DATABASE_POOL_WAIT", "20")),
            "max_waiting": int(os.environ.get("DATABASE_POOL_QUEUE", "1000")),
        }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Parameters bound by the server, and a statement a connection has run DATABASE_PREPARE times (default 5)
        # prepared there: the few statements of an action and a bot move are then neither quoted into text by the
        # client nor parsed and planned again by PostgreSQL. DATABASE_PREPARE=0 turns preparing off (needed behind
        # a pooler in transaction mode, which may hand a prepared statement's name to another connection).
        _prepare = int(os.environ.get("DATABASE_PREPARE", "5"))
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=_prepare if _prepare > 0 else None)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of failing
            # with "database is locked" when a read transaction upgrades to a write.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery broker ----------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_POOL_SIZE = int(os.environ.get("REDIS_POOL_SIZE", "50"))
REDIS_POOL_WAIT = float(os.environ.get("REDIS_POOL_WAIT", "10"))
if REDIS_URL:
    # A socket's consumer waits for its messages with BZPOPMIN, which Redis answers after 5 s when none came;
    # redis-py 8 gives up on a read after 5 s too, so a quiet socket's wait raced its own answer and, losing,
    # closed the socket. Reads may take the wait and a margin; a dead Redis still shows within 30 s.
    # Redis connections per pool (one pool per process and event loop, and the cache's per process): past them an
    # operation waits up to REDIS_POOL_WAIT seconds for one instead of failing (redis-py's default pool raised
    # MaxConnectionsError past 100, and a burst of sockets got HTTP 500s). Redis takes 10,000 clients by default.
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "callbreak_site.channel_layer.BlockingPoolChannelLayer",
                    "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5,
                                          "max_connections": REDIS_POOL_SIZE, "timeout": REDIS_POOL_WAIT}]}}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache holds what every web process must share (rate-limit counters, cached profile stats): Redis when
# REDIS_URL (or CACHE_URL) is set, this process's memory otherwise (`make run`, tests: one process).
CACHE_URL = os.environ.get("CACHE_URL", REDIS_URL)
# After Redis fails (refused, timed out), the cache does not try it again for this many seconds: its calls fail
# at once and fall back to this process's memory (callbreak_site/cache.py), instead of each waiting a timeout.
CACHE_RETRY_SECONDS = float(os.environ.get("CACHE_RETRY_SECONDS", "5"))
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "callbreak_site.cache.SharedPoolRedisCache",  # one connection pool per process
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "callbreak",
            # a Redis that does not answer must not hold a request for long (callbreak_site.cache, games.throttles)
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, "pool_class": "redis.BlockingConnectionPool",
                        "max_connections": REDIS_POOL_SIZE, "timeout": min(REDIS_POOL_WAIT, 2.0)},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "callbreak"}}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Worker processes (WORKER_CONCURRENCY; default four per CPU): a bot move of the usual levels spends most of
# its time waiting on PostgreSQL and Redis, so two processes on two CPUs left the CPUs idle while matches
# queued for a turn (docs/performance.md). The analysis queue's worker is CPU-bound and sets its own.
CELERY_WORKER_CONCURRENCY = int(os.environ.get("WORKER_CONCURRENCY") or 4 * (os.cpu_count() or 1))
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Pause before a queued bot move (real worker only; eager mode never sleeps inside a request).
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0"))
# Consecutive bot moves shorter than this in all are played and committed together (games.matches.commands).
BOT_CHAIN_SECONDS = float(os.environ.get("BOT_CHAIN_SECONDS", "0.05"))
# Quick bots (easy, normal) answer a person's move on this many threads of the web process that committed it
# (games/matches/botlane.py), not through a worker; 0 sends every bot move to the workers.
BOT_LANE_THREADS = int(os.environ.get("BOT_LANE_THREADS", "2"))
# The queues /metrics reports the depth of (callbreak_queue_depth).
CELERY_QUEUES_WATCHED = ["celery", "analysis"]
CELERY_BEAT_SCHEDULE = {
    # Recovery net: a bot turn whose task was lost (broker restart, worker crash) is re-enqueued.
    "resume-stalled-bot-turns": {
        "task": "games.tasks.resume_stalled_bot_turns",
        "schedule": float(os.environ.get("BOT_SWEEP_SECONDS", "60")),
    },
    # Correspondence: expired turns get the autopilot, reminders at 1/4 time left, stale tables expire.
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": float(os.environ.get("DEADLINE_SWEEP_SECONDS", "30")),
    },
    # Quick match: seat the waiting people (the window of ratings widens, bots fill after the wait).
    "pair-quick-matches": {
        "task": "games.tasks.pair_quick_matches",
        "schedule": float(os.environ.get("QUICK_MATCH_SWEEP_SECONDS", "5")),
    },
}

# --- Quick match (games/quickmatch) ----------------------------------------------------------------
# Seconds a seek waits for people before bots fill the empty seats.
QUICK_MATCH_BOTS_AFTER = float(os.environ.get("QUICK_MATCH_BOTS_AFTER", "20"))
# Rated seeks are seated together when their ratings (OpenSkill mu) differ by at most the window, which starts at
# QUICK_MATCH_WINDOW and widens by QUICK_MATCH_WINDOW_GROWTH a second of the oldest seek's wait.
QUICK_MATCH_WINDOW = float(os.environ.get("QUICK_MATCH_WINDOW", "2"))
QUICK_MATCH_WINDOW_GROWTH = float(os.environ.get("QUICK_MATCH_WINDOW_GROWTH", "0.25"))
# The bots' pool (the bot ladder, bot accounts only): seconds a seek waits for other bot accounts before the ladder's
# house bots (BOT_LADDER_HOUSE_BOTS, drawn at random for each empty seat; any of games.ratings.reads.YARDSTICKS,
# whose ratings are frozen) fill the empty seats. Short: a lone bot should not wait long for its next match.
QUICK_MATCH_BOT_POOL_AFTER = float(os.environ.get("QUICK_MATCH_BOT_POOL_AFTER", "5"))
BOT_LADDER_HOUSE_BOTS = [name.strip() for name in os.environ.get("BOT_LADDER_HOUSE_BOTS", "heuristic,strong").split(",")
                         if name.strip()]
# The live pace: seconds a move, and the bank of extra seconds each seat has per deal.
LIVE_MOVE_SECONDS = int(os.environ.get("LIVE_MOVE_SECONDS", "15"))
LIVE_BANK_SECONDS = int(os.environ.get("LIVE_BANK_SECONDS", "30"))
# In eager mode (`make run`, the browser tests) a thread of the web process runs the pairing after the wait, as
# the worker's delayed task does with a broker.
QUICK_MATCH_EAGER_TIMER = env_bool("QUICK_MATCH_EAGER_TIMER", True)
# "Who is here" is counted and told to the home and lobby pages at most once in this many seconds.
QUICK_MATCH_HERE_SECONDS = int(os.environ.get("QUICK_MATCH_HERE_SECONDS", "3"))
# Emotes at the table: at most EMOTE_LIMIT per person and match in EMOTE_WINDOW seconds.
EMOTE_LIMIT = int(os.environ.get("EMOTE_LIMIT", "3"))
EMOTE_WINDOW = float(os.environ.get("EMOTE_WINDOW", "10"))

# --- Correspondence tables, email ----------------------------------------------------------------
# Expired turns in a row after which the bot keeps the seat for the rest of the match.
AUTOPILOT_HANDOVER_AFTER = int(os.environ.get("AUTOPILOT_HANDOVER_AFTER", "3"))
# Open public tables one person may host at once (the lobby lists them for everyone; private ones do not count).
OPEN_PUBLIC_TABLES_PER_USER = int(os.environ.get("OPEN_PUBLIC_TABLES_PER_USER", "3"))
# Bot accounts (games/bots): matches one plays at once (seats held at open tables count), and the stream's
# heart-beat (an NDJSON line every so many seconds while nothing happens).
BOT_MAX_ACTIVE_MATCHES = int(os.environ.get("BOT_MAX_ACTIVE_MATCHES", "4"))
# A bot account's time per move wherever it plays (a timed table's shorter time wins); then the autopilot, and
# after AUTOPILOT_HANDOVER_AFTER such turns in a row a house bot keeps the seat, as for people.
BOT_MOVE_SECONDS = int(os.environ.get("BOT_MOVE_SECONDS", "60"))
BOT_EVENTS_HEARTBEAT_SECONDS = float(os.environ.get("BOT_EVENTS_HEARTBEAT_SECONDS", "15"))
# A public table nobody starts expires after this long.
TABLE_EXPIRY_SECONDS = int(os.environ.get("TABLE_EXPIRY_SECONDS", str(3 * 86400)))
# Console in development; set EMAIL_BACKEND (and EMAIL_HOST etc.) for real mail. Tests use locmem.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Call Break <noreply@localhost>")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# --- Web Push (games/push) ---------------------------------------------------------------------------
# VAPID keys (base64url; `manage.py vapid_keys` prints a new pair): without both, push is off and the settings
# page says so. VAPID_SUBJECT (mailto: or https:) tells push services whom to contact; empty: SITE_URL when it
# is https, else mailto: the DEFAULT_FROM_EMAIL address.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip()
# Push endpoints must be https on public addresses; these host[:port]s (comma-separated) may be plain http on any
# address: a stand-in push service of the tests on loopback. Empty in production.
PUSH_ALLOW_HTTP_HOSTS = os.environ.get("PUSH_ALLOW_HTTP_HOSTS", "")
# Browsers one person may subscribe (the newest are kept), and the push request's connect/read timeout.
PUSH_SUBSCRIPTIONS_PER_USER = int(os.environ.get("PUSH_SUBSCRIPTIONS_PER_USER", "10"))
PUSH_TIMEOUT_SECONDS = float(os.environ.get("PUSH_TIMEOUT_SECONDS", "5"))

# --- Auth, API ---------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: Django tells validators of a new password, and this one revokes the account's API tokens
    # and closes its sockets then (games/accounts/hooks.py).
    {"NAME": "games.accounts.hooks.RevokeCredentialsOnPasswordChange"},
]
# Argon2id at OWASP's 19 MiB / 2 passes / 1 lane (about 20 ms a hash; games/passwords.py says why), first: a
# PBKDF2 hash made before is checked by the second and redone as Argon2id at the next log-in. Every hash gives
# its pooled database connection back first, and at most PASSWORD_HASH_SLOTS run at once in a process; the
# others queue up to PASSWORD_HASH_WAIT seconds, then answer 503 with Retry-After.
PASSWORD_HASHERS = [
    "games.passwords.Argon2idHasher",
    "games.passwords.PBKDF2Hasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
PASSWORD_HASH_SLOTS = int(os.environ.get("PASSWORD_HASH_SLOTS") or (os.cpu_count() or 1))
PASSWORD_HASH_WAIT = float(os.environ.get("PASSWORD_HASH_WAIT", "30"))
AUTHENTICATION_BACKENDS = [
    "games.throttles.LockoutBackend",  # django-axes: refuses log-ins from a locked-out address or to a locked account
    "django.contrib.auth.backends.ModelBackend",
]
# API tokens: one per client (sign-up, each API log-in); unused for API_TOKEN_TTL_DAYS they expire (each use
# moves the expiry on, at most once an hour); a user keeps the newest API_TOKENS_PER_USER.
API_TOKEN_TTL_DAYS = int(os.environ.get("API_TOKEN_TTL_DAYS", "30"))
API_TOKEN_REFRESH_SECONDS = 3600
API_TOKENS_PER_USER = int(os.environ.get("API_TOKENS_PER_USER", "20"))
# Open sockets (match pages and /ws/me/) one account may hold in one web process; past it a socket is accepted
# and closed at once with code 4429 and a message. Generous for a person's tabs; a bot account needs a few.
SOCKETS_PER_USER = int(os.environ.get("SOCKETS_PER_USER", "30"))
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# --- Bounded input (games/limits.py) -----------------------------------------------------------------
# A request body over MAX_REQUEST_BYTES answers 413 (JSON) before Django reads it; API JSON nested deeper than
# MAX_JSON_DEPTH, or malformed, answers 400 `bad_json`; a WebSocket frame over WS_MAX_FRAME_BYTES, malformed
# or too deep gets an error message and the socket stays open.
MAX_REQUEST_BYTES = int(os.environ.get("MAX_REQUEST_BYTES", str(256 * 1024)))
# A refused body is read and dropped up to this many bytes before the 413 (so the client, still sending, is
# not reset and sees the answer); past it the 413 goes at once and the connection closes.
BODY_DRAIN_BYTES = int(os.environ.get("BODY_DRAIN_BYTES", str(8 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
MAX_JSON_DEPTH = int(os.environ.get("MAX_JSON_DEPTH", "32"))
WS_MAX_FRAME_BYTES = int(os.environ.get("WS_MAX_FRAME_BYTES", "4096"))

# --- Rate limits (games/throttles.py) ------------------------------------------------------------------
# scope: (counted by, rate). "ip": the client's address; "account": the username a log-in names; "user": the
# signed-in user. Each rate can be set with RATE_LIMIT_<SCOPE> (e.g. RATE_LIMIT_SIGNUP=1000/hour for a load
# test whose people all come from 127.0.0.1); RATE_LIMITS=0 turns them all off.
_RATE_DEFAULTS = {
    "signup": ("ip", "30/hour"),  # new accounts from one address (API and HTML form)
    "login": ("ip", "30/min"),  # POST /api/auth/token/ from one address
    "login_account": ("account", "10/min"),  # POST /api/auth/token/ naming one account, from anywhere
    "action": ("user", "20/s"),  # bids and cards: a burst
    "action_sustained": ("user", "300/min"),  # bids and cards: over a minute
    "new_match": ("user", "20/min"),  # matches against bots
    "new_table": ("user", "10/min"),  # tables and rematches
    "schema": ("ip", "60/min"),  # the OpenAPI document (built per request)
    "api": ("user", "600/min"),  # every API request of a signed-in user
    "bot_stream": ("user", "30/min"),  # a bot account opening its event stream
    "bot_invite": ("user", "30/min"),  # a host inviting bot accounts to seats
    "bot_answer": ("user", "60/min"),  # a bot account accepting or declining invitations
    "chat": ("user", "5/10s"),  # chat messages at private tables: a burst
    "chat_sustained": ("user", "30/10min"),  # chat messages: over ten minutes
    "chat_report": ("user", "20/hour"),  # reports of chat messages
}
RATE_LIMITS = {scope: (kind, os.environ.get(f"RATE_LIMIT_{scope.upper()}", rate))
               for scope, (kind, rate) in _RATE_DEFAULTS.items()}
RATE_LIMITS_ON = env_bool("RATE_LIMITS", True)
# URL name -> method -> the scopes that count it (besides "api").
RATE_LIMIT_ROUTES = {
    "api-signup": {"POST": ["signup"]},
    "signup": {"POST": ["signup"]},
    "api-token": {"POST": ["login", "login_account"]},
    "api-matches": {"POST": ["new_match"]},
    "api-match-actions": {"POST": ["action", "action_sustained"]},
    "api-tables": {"POST": ["new_table"]},
    "api-match-rematch": {"POST": ["new_table"]},
    "api-schema": {"GET": ["schema"]},
    "api-bot-events": {"GET": ["bot_stream"]},
    "api-table-invite-bot": {"POST": ["bot_invite"]},
    "api-table-invitation": {"POST": ["bot_answer"]},
}

# --- Log-in lockout (django-axes) ------------------------------------------------------------------------
# After LOGIN_FAILURE_LIMIT failed log-ins from one address, or for one username (each counted on its own),
# the HTML, admin and API log-ins refuse it, right password included, for LOGIN_COOLOFF_MINUTES (429).
# Locking a username lets anyone lock someone out for the cool-off; LOGIN_LOCKOUT_BY=ip_address+username
# locks only that username from that address instead.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS: list[str | list[str]] = [
    part.split("+") if "+" in part else part
    for part in os.environ.get("LOGIN_LOCKOUT_BY", "ip_address,username").split(",") if part
]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "games.throttles.client_ip"
AXES_LOCKOUT_CALLABLE = "games.throttles.lockout_response"
AXES_VERBOSE = False

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": [
        "games.limits.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first so an anonymous API call gets 401 with a WWW-Authenticate header.
        "games.accounts.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["games.throttles.RouteThrottle"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    # Swagger UI and Redoc from drf-spectacular-sidecar's static files, not a CDN (Content-Security-Policy 'self').
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TITLE": "Call Break API",
    "DESCRIPTION": (
        "Play Call Break (叫墩牌) against bots. Every error is JSON {code, detail}. "
        "Live updates: WebSocket /ws/matches/{id}/ sends {type: 'match', match: <view>} after every action."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The document states what the views enforce (exactly one of bid/card, seed for staff, 413 and 429).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "games.openapi.document_enforced_rules"],
}

# --- Content-Security-Policy (django-csp) ----------------------------------------------------------
# The pages use no inline script, style or event handler. The admin and the API docs get their own
# additions (CSP_PATH_UPDATES here; the docs views in callbreak_site/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'", "wss:"] if HTTPS else ["'self'", "ws:", "wss:"],
        "font-src": ["'self'"],
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# Per path prefix: directives added to the policy (the Django admin's templates still carry a <style> block).
CSP_PATH_UPDATES = {
    "/admin/": {"style-src": ["'unsafe-inline'"]},
}

# --- I18N, static ------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文"), ("ne", "नेपाली"), ("hi", "हिन्दी")]
LOCALE_PATHS = [BASE_DIR / "frontend" / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "frontend" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve straight from the app/frontend folders too, so `make run` works without collectstatic.
WHITENOISE_USE_FINDERS = True

# --- Game ------------------------------------------------------------------------------------
# Display names given to bot seats, by seat index.
CALLBREAK_BOT_NAMES = ["Bot Ganesh", "Bot Lakshmi", "Bot Hari", "Bot Sita", "Bot Arjun", "Bot Mira"]

# No secret in the logs (callbreak_site/logs.py): API tokens (`?token=` of a socket or a request) and password-reset
# tokens are replaced by [redacted] in the site's log lines and in those of the web servers (Uvicorn, gunicorn).
LOGGING_CONFIG = "callbreak_site.logs.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "callbreak_site.logs.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO").upper()},
}
