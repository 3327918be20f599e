"""Web Push: a person's browsers (``PushSubscription``), which kinds of notice each person wants pushed, and the
push of every notice recorded by ``games.notices`` to each subscription, once, from a Celery task on the ``push``
queue. Sits above notices (it reads their rows); nothing below imports it."""
