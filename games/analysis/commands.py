"""Post-game analysis: commands (being built)."""
