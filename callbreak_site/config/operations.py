"""What operators watch: logs, /metrics, the web process's request threads.

gunicorn reads its own variables (``WEB_CONCURRENCY``, ``BIND``, ``LOG_LEVEL``, ...) in
callbreak_site/gunicorn_conf.py, before Django's settings are loaded.
"""

from __future__ import annotations

from .env import env_int, env_str

# Threads per web process that run requests' sync work (callbreak_site/handler.py): enough to keep the database
# pool busy, few enough not to thrash two cores.
WEB_REQUEST_THREADS = env_int("WEB_REQUEST_THREADS", 8)

# /metrics answers loopback clients, or anyone with `Authorization: Bearer <METRICS_TOKEN>` when it is set.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# Where every process of a multi-process server (`make serve`, a prefork worker) writes its samples, which one
# scrape adds up (prometheus-client reads the same variable itself); empty: this process's samples only.
PROMETHEUS_MULTIPROC_DIR = env_str("PROMETHEUS_MULTIPROC_DIR", "")
# A Celery worker serves its own /metrics on this port (0: it does not) and address.
WORKER_METRICS_PORT = env_int("WORKER_METRICS_PORT", 0)
WORKER_METRICS_ADDR = env_str("WORKER_METRICS_ADDR", "127.0.0.1")

# No secret in the logs (callbreak_site/logs.py): API tokens (`?token=` of a socket or a request) and password-reset
# tokens are replaced by [redacted] in the site's log lines and in those of the web servers (Uvicorn, gunicorn).
LOGGING_CONFIG = "callbreak_site.logs.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "callbreak_site.logs.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO").upper()},
}
