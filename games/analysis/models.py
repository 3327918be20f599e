"""Post-game analysis: models (being built)."""
