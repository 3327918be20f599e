"""Post-game analysis: api (being built)."""
