"""The framework hooks accounts keep, where Django offers no command to call instead:

- a user made or renamed anywhere (sign-up, admin, shell) gets its username key, an invariant of the data
  (``games.accounts.usernames``);
- a browser session logging out through Django's views closes its sockets;
- a password changed anywhere (a reset link, the admin, ``manage.py changepassword``, ``set_password`` and
  ``save``) revokes every API token of the account and closes every socket of it, as Django's session hash
  ends its other sessions (``RevokeCredentialsOnPasswordChange``, around one rule of ``AUTH_PASSWORD_VALIDATORS``:
  Django calls a validator's ``password_changed`` after a new password is saved).

Business flows (deactivation, revoking a token) are explicit commands."""

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.module_loading import import_string

from games.platform import outbox
from games.platform.groups import session_group

from . import commands
from .events import CredentialsRevoked


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if created or update_fields is None or "username" in update_fields:  # not a log-in's last_login, say
        commands.remember_username_key(instance)


class RevokeCredentialsOnPasswordChange:
    """One of the password rules (``rule``: a validator's dotted path, ``options`` its keyword arguments), whose
    checks and help text it passes on, and the hook by which Django tells the site a password changed: Django
    calls ``password_changed`` on every validator after saving a new password. Django also lists every
    validator's help text as a rule, so the hook rides on a real rule instead of adding an empty one.

    Not told: a hash upgraded at log-in (Django saves it without calling this), so a new hasher revokes nothing.
    """

    def __init__(self, rule: str, options: dict[str, Any] | None = None) -> None:
        self.rule = import_string(rule)(**(options or {}))

    def validate(self, password: str, user: Any = None) -> None:
        self.rule.validate(password, user)

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is not None and user.pk is not None:
            commands.password_changed(user)

    def get_help_text(self) -> str:
        return str(self.rule.get_help_text())


@receiver(user_logged_out)
def session_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:  # before Django empties the session
        outbox.emit(CredentialsRevoked((session_group(key),), "logged out"))
