"""API routes under /api/."""

from django.urls import path

from . import lobby_views, views

urlpatterns = [
    path("auth/signup/", views.SignupView.as_view(), name="api-signup"),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("auth/logout/", views.LogoutView.as_view(), name="api-logout"),
    path("me/", views.MeView.as_view(), name="api-me"),
    path("matches/", views.MatchListView.as_view(), name="api-matches"),
    path("matches/<int:match_id>/", views.MatchDetailView.as_view(), name="api-match"),
    path("matches/<int:match_id>/actions/", views.MatchActionView.as_view(), name="api-match-actions"),
    path("matches/<int:match_id>/replay/", views.MatchReplayView.as_view(), name="api-match-replay"),
    # Tables among people, correspondence, ratings (issue 6)
    path("matches/<int:match_id>/resign/", lobby_views.ResignView.as_view(), name="api-match-resign"),
    path("tables/", lobby_views.TableListView.as_view(), name="api-tables"),
    path("tables/invite/<str:code>/", lobby_views.TableByCodeView.as_view(), name="api-table-invite"),
    path("tables/<int:table_id>/", lobby_views.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:table_id>/join/", lobby_views.TableJoinView.as_view(), name="api-table-join"),
    path("tables/<int:table_id>/leave/", lobby_views.TableLeaveView.as_view(), name="api-table-leave"),
    path("tables/<int:table_id>/bots/", lobby_views.TableBotsView.as_view(), name="api-table-bots"),
    path("tables/<int:table_id>/seats/<int:index>/clear/", lobby_views.TableClearSeatView.as_view(),
         name="api-table-clear-seat"),
    path("tables/<int:table_id>/start/", lobby_views.TableStartView.as_view(), name="api-table-start"),
    path("leaderboard/", lobby_views.LeaderboardView.as_view(), name="api-leaderboard"),
    path("players/<str:username>/", lobby_views.ProfileView.as_view(), name="api-profile"),
    path("me/settings/", lobby_views.SettingsView.as_view(), name="api-settings"),
    path("me/notices/", lobby_views.NoticeListView.as_view(), name="api-notices"),
]
