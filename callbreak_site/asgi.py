"""ASGI entry point: Django for HTTP (bodies over MAX_REQUEST_BYTES refused first; requests on a pool of threads),
Channels for the WebSockets."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")

from .handler import get_pooled_asgi_application  # noqa: E402

# Django's handler with each request in one hop on a pool of threads (see handler.py); before importing
# anything that touches models
django_asgi_app = get_pooled_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

from games.accounts.ws_auth import OriginRule, TokenAuthMiddleware  # noqa: E402
from games.platform import outbox  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.web.bounds import BodyLimit  # noqa: E402

from .celery import app as celery_app  # noqa: E402
from .ops import MeasuredHTTP  # noqa: E402


def import_what_requests_use() -> None:
    """Import now, in one thread, what a process's first requests and sockets would import lazily, each in a
    thread of its own: two threads importing redis at once (the cache's backend in a request's thread, the
    channel layer's in another) made Python raise an import ``_DeadlockError`` in a fresh process, and a
    socket's handshake got a 500. The URLconf with every view, the cache's and the channel layer's backends
    (redis, channels_redis), the session and message stores, and Celery's messages, control and broker
    transport (kombu's Redis transport imports redis too)."""
    get_resolver().url_patterns  # noqa: B018 - the property imports the URLconf
    for path in (settings.CACHES["default"]["BACKEND"], settings.CHANNEL_LAYERS["default"]["BACKEND"],
                 f"{settings.SESSION_ENGINE}.SessionStore", settings.SESSION_SERIALIZER, settings.MESSAGE_STORAGE):
        import_string(str(path))
    celery_app.amqp  # noqa: B018 - these properties import their modules
    celery_app.control  # noqa: B018
    with celery_app.connection_for_write() as broker:  # not connected: only its transport's class is loaded
        broker.get_transport_cls()


import_what_requests_use()

if settings.CHANNEL_LAYERS["default"]["BACKEND"] != "channels.layers.InMemoryChannelLayer":
    # A request's group messages (sent once its write commits, from its thread) leave on a loop of their
    # own: on the server's loop they waited behind every socket of the process (see games.platform.outbox).
    outbox.use_sender_loop()

application = ProtocolTypeRouter(
    {
        # a body over MAX_REQUEST_BYTES gets 413 before Django reads (and spools) it
        "http": MeasuredHTTP(BodyLimit(django_asgi_app)),
        # browsers: Origin among ALLOWED_HOSTS; other clients: no Origin, a token (see games/accounts/ws_auth.py)
        "websocket": OriginRule(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)
