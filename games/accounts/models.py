"""Accounts: per-user settings, the look-alike-proof key of each username, and API tokens."""

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """Per-user settings."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    email_notifications = models.BooleanField(default=True, help_text="Email for your turn and reminders.")
    table_options = models.JSONField(
        default=dict, blank=True,
        help_text="The table's options (card speed, auto-play of a forced card, sound, vibration); "
                  "missing keys take their defaults (games.accounts.reads.TABLE_DEFAULTS).")


class UsernameKey(models.Model):
    """The look-alike-proof, case-blind key of a username (``games.accounts.usernames.key``), unique: no two
    accounts whose names look the same. Kept up to date on every save of a user (``games.accounts.hooks``)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="username_key")
    key = models.CharField(max_length=150, unique=True)

    def __str__(self) -> str:
        return self.key


class ApiToken(models.Model):
    """One API client's token (``Authorization: Token <key>`` or ``?token=<key>`` on a socket): made at sign-up and
    at each log-in through the API, so each client has its own; revoked by that client's log-out (its sockets
    close), gone with a deactivated account. Only the key's SHA-256 is stored. It expires when unused for
    ``API_TOKEN_TTL_DAYS`` (each use moves the expiry on, at most once an hour)."""

    digest = models.CharField(max_length=64, primary_key=True, help_text="SHA-256 of the key (the key is not kept).")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    client = models.CharField(max_length=120, blank=True, help_text="The User-Agent that asked for it.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.digest[:8]}"


class BotAccount(models.Model):
    """An account that a program plays: made by ``POST /api/bot/account/upgrade/`` from an account with no rated
    match, for good (no way back). It signs in with API tokens only (the page log-in refuses it), is shown with
    its own badge (distinct from the house bots), and is rated on the bots' leaderboard."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="bot_account")
    upgraded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot account {self.user_id}"


class Guest(models.Model):
    """An account made by one tap on *Play now*: a generated name, no password (the browser session signs it in).
    It plays unrated only, may emote but not chat, and turns into a full account by *Keep my games* (this row
    goes; the user row, with its matches, options and notices, stays). Idle for ``GUEST_IDLE_DAYS``, beat removes
    it: deleted when it sat at no match, else anonymised (``removed_at`` set; its seats read "Guest")."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="guest")
    created_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True, db_index=True,
                                      help_text="Removed for idleness: the account is deactivated and anonymised.")

    def __str__(self) -> str:
        return f"guest {self.user_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: from then on the blocked person cannot invite, challenge, chat with or sit at
    a table with the blocker. An account's, not the friends concept's, because every door below friends (tables,
    table talk, quick match) must ask it."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="unique_block"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
