"""App config.

``ready`` holds the app's only imports inside a function, because the frameworks need them there: a
signal receiver connects when its module is imported, and a Celery task is registered when its module
is imported (``games.effects`` sends tasks by name, also from web processes); both modules need the
models loaded, which Django guarantees only once ``ready`` runs.
"""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Call Break games"

    def ready(self) -> None:
        from . import tasks  # noqa: F401
        from .players import signals  # noqa: F401
