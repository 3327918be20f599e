"""Django discovers ``games.admin``: each concept registers its own models; the user's page gets the panels of the
concepts above accounts here (accounts knows none of them)."""

from typing import Any
from urllib.parse import urlsplit

from django.urls import reverse
from django.utils.html import format_html, format_html_join

from .accounts import admin as accounts_admin
from .analysis import admin as analysis_admin
from .bots import admin as bots_admin
from .friends import admin as friends_admin
from .matches import admin as matches_admin
from .matches.models import Seat
from .notices import admin as notices_admin
from .push import admin as push_admin
from .push.models import PushSubscription
from .quickmatch import admin as quickmatch_admin
from .ratings import admin as ratings_admin
from .ratings import reads as rating_reads
from .ratings.models import Rating
from .tables import admin as tables_admin
from .tabletalk import admin as tabletalk_admin
from .tournaments import admin as tournaments_admin

# A user's admin page (accounts' ``UserAdmin``) shows what the concepts above accounts know of the person: their
# latest matches with their seats, their rating and their push subscriptions (a bounded number of queries each).
USER_PAGE_MATCHES = 20


def _user_matches(user: Any) -> str:
    """The person's last ``USER_PAGE_MATCHES`` seats (match links, the seat, status) and a link to all their matches."""
    seats = list(Seat.objects.filter(user=user).select_related("match")
                 .order_by("-match__created_at", "-match_id")[:USER_PAGE_MATCHES])
    if not seats:
        return "none"
    total = Seat.objects.filter(user=user).count()
    rows = format_html_join(
        "", '<tr><td><a href="{}">#{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
        ((reverse("admin:games_match_change", args=[s.match_id]), s.match_id, f"{s.match.created_at:%Y-%m-%d %H:%M}",
          s.match.status, s.index, "autopilot" + (f" ({s.bot})" if s.bot else "") if s.autopilot else "person")
         for s in seats))
    everything = f'{reverse("admin:games_match_changelist")}?seats__user__id__exact={user.pk}'
    return format_html('<table><tr><th>match</th><th>created</th><th>status</th><th>seat</th><th>played by</th></tr>'
                       '{}</table><p><a href="{}">All {} matches of this user</a></p>', rows, everything, total)


def _user_rating(user: Any) -> str:
    rating = Rating.objects.filter(user=user).first()
    if rating is None:
        return "unrated"
    shown = rating_reads.rating_json(rating)
    link = reverse("admin:games_rating_change", args=[rating.pk])
    return format_html('{} after {} rated matches (μ {}, σ {}) · <a href="{}">rating</a>', shown["text"],
                       rating.games, shown["mu"], shown["sigma"], link)


def _user_push_subscriptions(user: Any) -> str:
    subs = list(PushSubscription.objects.filter(user=user).order_by("-created_at"))
    if not subs:
        return "none"
    return format_html("<table><tr><th>push service</th><th>language</th><th>client</th><th>since</th><th>last ok</th>"
                       "</tr>{}</table>",
                       format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                                        ((urlsplit(s.endpoint).hostname or "?", s.language, s.client[:60] or "?",
                                          f"{s.created_at:%Y-%m-%d}",
                                          f"{s.last_ok_at:%Y-%m-%d %H:%M}" if s.last_ok_at else "never")
                                         for s in subs)))


accounts_admin.add_user_panel("user_matches", "Matches", _user_matches)
accounts_admin.add_user_panel("user_rating", "Rating", _user_rating)
accounts_admin.add_user_panel("user_push_subscriptions", "Push subscriptions", _user_push_subscriptions)

__all__ = ["accounts_admin", "analysis_admin", "bots_admin", "friends_admin", "matches_admin", "notices_admin",
           "push_admin", "quickmatch_admin", "ratings_admin", "tables_admin", "tabletalk_admin", "tournaments_admin"]
