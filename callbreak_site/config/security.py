"""Who may reach the site and how: the secret key, hosts, HTTPS, cookies, the Content-Security-Policy,
passwords, API tokens and the log-in lockout."""

from __future__ import annotations

import os
from datetime import timedelta

from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_float, env_int, env_list, env_str
from .framework import DEBUG

SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off "
            "(for example: export SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(50))'))."
        )
    SECRET_KEY = "insecure-development-key-only-for-debug"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

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
_proxy_ssl_header = env_str("PROXY_SSL_HEADER", "X-Forwarded-Proto").strip()
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _proxy_ssl_header.upper().replace("-", "_"), "https") if HTTPS and _proxy_ssl_header else None
)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 86400) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

# --- Content-Security-Policy (django-csp) ----------------------------------------------------------
# The pages use no inline script, style or event handler. The admin and the API docs get their own
# additions (CSP_PATH_UPDATES here; the docs views in callbreak_site/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        # The site's own sockets only: in CSP3 'self' covers ws:// and wss:// to this host and port.
        "connect-src": ["'self'"],
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

# --- Passwords, API tokens ---------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    # The last rule (not all digits) also carries a hook: Django tells validators of a new password, and this one
    # revokes the account's API tokens and closes its sockets then (games/accounts/hooks.py).
    {"NAME": "games.accounts.hooks.RevokeCredentialsOnPasswordChange",
     "OPTIONS": {"rule": "django.contrib.auth.password_validation.NumericPasswordValidator"}},
]
# Argon2id at OWASP's 19 MiB / 2 passes / 1 lane (about 20 ms a hash; games/platform/passwords.py says why), first: a
# PBKDF2 hash made before is checked by the second and redone as Argon2id at the next log-in. Every hash gives
# its pooled database connection back first, and at most PASSWORD_HASH_SLOTS (default: one per CPU) run at once
# in a process; the others queue up to PASSWORD_HASH_WAIT seconds, then answer 503 with Retry-After.
PASSWORD_HASHERS = [
    "games.platform.passwords.Argon2idHasher",
    "games.platform.passwords.PBKDF2Hasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
PASSWORD_HASH_SLOTS = env_int("PASSWORD_HASH_SLOTS", os.cpu_count() or 1)
PASSWORD_HASH_WAIT = env_float("PASSWORD_HASH_WAIT", 30)
AUTHENTICATION_BACKENDS = [
    # django-axes: refuses log-ins from a locked-out address or to a locked account
    "games.accounts.lockout.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# API tokens: one per client (sign-up, each API log-in); unused for API_TOKEN_TTL_DAYS they expire (each use
# moves the expiry on, at most once an hour); a user keeps the newest API_TOKENS_PER_USER.
API_TOKEN_TTL_DAYS = env_int("API_TOKEN_TTL_DAYS", 30)
API_TOKEN_REFRESH_SECONDS = 3600
API_TOKENS_PER_USER = env_int("API_TOKENS_PER_USER", 20)

# --- Log-in lockout (django-axes) ------------------------------------------------------------------------
# After LOGIN_FAILURE_LIMIT failed log-ins for one username from one address, the HTML, admin and API log-ins
# refuse that username from that address, right password included, for LOGIN_COOLOFF_MINUTES (429); the owner
# elsewhere is not locked out. Guessing from many addresses meets the login_account limit, many names from one
# address the login limit (RATE_LIMITS, config/limits.py; counted by games.accounts.lockout.LockoutBackend for
# all three log-ins). LOGIN_LOCKOUT_BY=ip_address,username locks each on its own instead (anyone can then lock
# an account).
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS: list[str | list[str]] = [
    part.split("+") if "+" in part else part for part in env_list("LOGIN_LOCKOUT_BY", "ip_address+username")
]
AXES_HANDLER = "games.accounts.lockout.LockoutHandler"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "games.platform.ratelimit.client_ip"
AXES_LOCKOUT_CALLABLE = "games.accounts.lockout.lockout_response"
AXES_VERBOSE = False
