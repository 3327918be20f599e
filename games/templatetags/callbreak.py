"""``{% notice_strings %}``: translated strings for the notice toasts (JSON, read by notices.js)."""

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.strings import client_strings

register = template.Library()


@register.simple_tag
def notice_strings() -> SafeString:
    return json_script(client_strings(), "social-strings")


@register.filter
def per_move(seconds: int) -> str:
    """60 -> "60 s", 86400 -> "1 d" (the time per move, short)."""
    if seconds < 86400:
        return _("%(s)d s") % {"s": seconds}
    return _("%(d)d d") % {"d": seconds // 86400}
