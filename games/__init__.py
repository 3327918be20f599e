"""Matches, seats and their action logs: the site around the Call Break engine."""
