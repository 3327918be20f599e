"""Django itself: apps, middleware, templates, the API framework, languages, static files, mail."""

from __future__ import annotations

from pathlib import Path

from .env import env_bool, env_int, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env_bool("DEBUG", True)

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
    "games.web.bounds.NulByteMiddleware",  # 400 for a NUL in the path, query or cookies (PostgreSQL refuses it)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "games.web.security.CSPMiddleware",  # Content-Security-Policy (CONTENT_SECURITY_POLICY, config/security.py)
    "games.web.bounds.BodyLimitMiddleware",  # 413 for a body over MAX_REQUEST_BYTES, before anything reads it
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
                "games.accounts.context.guest",
            ],
        },
    },
]

WSGI_APPLICATION = "callbreak_site.wsgi.application"
ASGI_APPLICATION = "callbreak_site.asgi.application"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": [
        "games.web.bounds.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first so an anonymous API call gets 401 with a WWW-Authenticate header.
        "games.accounts.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["games.web.throttles.RouteThrottle"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.web.api_errors.exception_handler",
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
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "games.web.openapi.document_enforced_rules"],
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

# --- Email -------------------------------------------------------------------------------------
# Console in development; set EMAIL_BACKEND (and EMAIL_HOST etc.) for real mail. Tests use locmem.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Call Break <noreply@localhost>")
# The site's address, for links in email (and the push subject's default, config/game.py).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
