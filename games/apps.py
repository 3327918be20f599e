"""App config.

``ready`` holds the app's only imports inside a function, because the frameworks need them there: a Celery
task is registered when its module is imported, and the accounts' signal receivers connect when theirs is (``hooks``);
they and the reactions to events (``games.reactions.register``) need the models loaded, which Django
guarantees only once ``ready`` runs.
"""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Call Break games"

    def ready(self) -> None:
        from . import reactions, tasks  # noqa: F401
        from .accounts import hooks  # noqa: F401
        from .push import checks  # noqa: F401

        reactions.register()
