"""Live updates over Channels: one group per match, one view per seat."""
