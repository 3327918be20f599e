"""Presence: who has a match page open. An open match socket holds a row, renewed while it is open; while one
is fresh the person gets no email or push about that match. Above matches (a row names its match); notices, push
and quick match read it."""
