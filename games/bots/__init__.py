"""Bot accounts' concept: the upgrade to a bot account, the event stream a bot answers (your turn, invited,
match over), stored with an increasing id so a bot that reconnects misses nothing, and the bots' limits."""
