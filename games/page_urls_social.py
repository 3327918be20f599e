"""Pages for tables among people, leaderboard, profiles, settings; password reset links from the admin."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import pages_social

urlpatterns = [
    path("lobby/", pages_social.lobby_page, name="lobby"),
    path("tables/<int:table_id>/", pages_social.table_page, name="table_room"),
    path("invite/<str:code>/", pages_social.invite, name="table_invite"),
    path("leaderboard/", pages_social.leaderboard_page, name="leaderboard"),
    path("players/<str:username>/", pages_social.profile_page, name="profile"),
    path("settings/", pages_social.settings_page, name="settings"),
    # The admin's "send a password-reset email" action links here.
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
