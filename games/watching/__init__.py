"""Watching: a match that is not private can be watched at ``/watch/{id}/`` one trick behind (never a hand, never
the seed before the end); the Watch page lists the live matches of the top rated people. Above matches, presence
and ratings."""
