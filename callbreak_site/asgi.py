"""ASGI entry point: Django for HTTP, Channels for the match WebSockets."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")
django_asgi_app = get_asgi_application()  # before importing anything that touches models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.limits import BodyLimit  # noqa: E402
from games.players.ws_auth import TokenAuthMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # a body over MAX_REQUEST_BYTES gets 413 before Django reads (and spools) it
        "http": BodyLimit(django_asgi_app),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)
