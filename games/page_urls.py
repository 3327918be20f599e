"""URL patterns for the browser pages, included at '' by the root urls."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("rules/", pages.rules, name="rules"),
    path("matches/", pages.my_matches, name="my_matches"),
    path("play/<str:match_id>/", pages.table, name="table"),
    path("replay/<str:match_id>/", pages.replay, name="replay_viewer"),
    path("accounts/signup/", pages.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, next_page="home"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("", include("games.page_urls_social")),  # lobby, tables, leaderboard, profiles, settings
]
