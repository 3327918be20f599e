"""``{% notice_strings %}``: translated strings for the notice toasts (JSON, read by notices.js)."""

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def notice_strings() -> SafeString:
    from games.pages_social import _strings

    return json_script(_strings(), "social-strings")


@register.filter
def per_move(seconds: int) -> str:
    """60 -> "60 s", 86400 -> "1 d" (the time per move, short)."""
    from django.utils.translation import gettext as _

    if seconds < 86400:
        return _("%(s)d s") % {"s": seconds}
    return _("%(d)d d") % {"d": seconds // 86400}
