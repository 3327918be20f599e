"""WSGI entry point (plain HTTP only; live updates need the ASGI one)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")
application = get_wsgi_application()
