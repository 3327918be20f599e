"""The web plumbing: HTTP, the API and sockets at the edge of every concept, knowing none of them.

- ``api_errors``: every API error as ``{code, detail}`` (DRF's ``EXCEPTION_HANDLER``, the 404 and 500 under /api/).
- ``throttles``: DRF's throttle over the rate limits (``games.platform.ratelimit``).
- ``bounds``: bounded input: request bodies, JSON, WebSocket frames, numbers typed by clients, NUL bytes.
- ``security``: the Content-Security-Policy middleware.
- ``users``: the signed-in user of a request, typed.
- ``openapi``: drf-spectacular's hook that states in the document what the views enforce.

A module belongs here when it is about requests, responses or frames; the settings name several by dotted path
(``MIDDLEWARE``, ``REST_FRAMEWORK``, ``SPECTACULAR_SETTINGS``). Of ``games`` it imports the platform only
(``api_errors`` answers ``GameError`` and ``HashingBusy``, ``throttles`` applies ``ratelimit``) and it sends nothing;
the concepts' views, consumers and reads use it.
"""
