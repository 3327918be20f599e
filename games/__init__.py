"""Matches, seats and their action logs: the site around the Call Break engine.

Each concept is a package of its own (``matches``, ``tables``, ``accounts``, ``push``…). Under them all, two wings:
``platform`` (what every concept sits on: the outbox, errors, rate limits…) and ``web`` (HTTP, API and socket
plumbing). At the root stay only the modules Django, Celery or the composition of the concepts need there:
``apps`` and ``models`` (the app's config and its models, for Django's discovery), ``admin`` (discovered by
Django's admin), ``urls`` and ``routing`` (every concept's routes; the match socket composed), ``reactions`` (who
reacts to what, in order) and ``tasks`` (every Celery task, named ``games.tasks.<function>`` as brokers and beat
know them). ``pyproject.toml``'s contracts name every room; tests/site/test_contracts_cover.py fails on a module
that none names.
"""
