"""Post-game analysis: reads (being built)."""
