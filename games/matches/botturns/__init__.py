"""Bot turns: how the move of a bot (a house bot, or a person's seat on autopilot) is played once a write
leaves it due. ``ways`` is the decision table (this thread's chain, the web process's bot threads, eager mode,
a worker at once or after a pause); ``chain`` plays consecutive bot moves on one thread; ``lane`` is the web
process's bot threads; ``tasks`` the Celery tasks (the move, and beat's sweep of owed moves); ``reactions``
reads the table when a write commits. The move itself is ``games.matches.commands.play_bot_turn``."""
