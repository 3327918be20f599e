"""Post-game analysis: admin (being built)."""
