"""A client for a Call Break site's Bot API: a bot account's events (NDJSON stream or the account socket), its
view of each match, its bids and cards; players that decide with the engine's bots or through a Bhoos-protocol
bot server. See docs/bots-api.md in the repository."""

__version__ = "0.1.0"
