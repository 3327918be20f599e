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

from games import outbox  # noqa: E402
from games.accounts.ws_auth import OriginRule, TokenAuthMiddleware  # noqa: E402
from games.limits import BodyLimit  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

from .ops import MeasuredHTTP  # noqa: E402

if settings.CHANNEL_LAYERS["default"]["BACKEND"] != "channels.layers.InMemoryChannelLayer":
    # A request's group messages (sent once its write commits, from its thread) leave on a loop of their
    # own: on the server's loop they waited behind every socket of the process (see games.outbox).
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
