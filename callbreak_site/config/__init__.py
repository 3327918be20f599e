"""The site's settings by topic; ``callbreak_site.settings`` (``DJANGO_SETTINGS_MODULE``) gathers them in order.

Only ``env`` reads the environment; each topic reads its variables through ``env``'s typed helpers and may use
a setting of a topic gathered before it. Code reads settings through ``django.conf.settings``, never these
modules, and never the environment.
"""
