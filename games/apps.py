"""App config; wires the signal that hands a deactivated user's seats to bots."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Call Break games"

    def ready(self) -> None:
        from . import signals  # noqa: F401
