"""The platform: what every concept sits on, knowing none of them.

- ``outbox``: events handed to their reactions after the commit, group messages, tasks; the one module that sends.
- ``errors``: the domain errors commands and reads raise (``GameError`` and its kinds).
- ``groups``: Channels group names and the shapes every group message shares.
- ``ratelimit``: every rate limit (people, bot accounts, sockets), counted in the cache.
- ``passwords``: the password hashers, which hold no database connection while they hash.
- ``metrics``: the site's own Prometheus measurements.
- ``task_options``: Celery's retry options for every task that touches the database.
- ``rating_scale``: the rating people see, from the model's estimate.

A module belongs here when any layer of any concept may use it, down to commands, reads and events (the web plumbing
may too). It imports nothing else of ``games`` (``pyproject.toml``'s contracts: no concept, no web plumbing, no
composition root); inside, the outbox sits above the rate limits, above the rest, which know each other not.
"""
