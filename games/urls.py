"""The app's routes, gathered from each concept: ``api_urlpatterns`` (under /api/) and ``page_urlpatterns``."""

from django.contrib.auth import views as auth_views
from django.urls import path

from .accounts import api as account_api
from .accounts import pages as account_pages
from .analysis import api as analysis_api
from .bots import api as bot_api
from .friends import api as friend_api
from .friends import pages as friend_pages
from .matches import api as match_api
from .matches import pages as match_pages
from .notices import api as notice_api
from .offline import api as offline_api
from .offline import pages as offline_pages
from .push import api as push_api
from .push import pages as push_pages
from .quickmatch import api as quickmatch_api
from .ratings import api as rating_api
from .ratings import pages as rating_pages
from .tables import api as table_api
from .tables import pages as table_pages
from .tournaments import api as tournament_api
from .tournaments import pages as tournament_pages
from .watching import api as watch_api
from .watching import pages as watch_pages

api_urlpatterns = [
    path("auth/signup/", account_api.SignupView.as_view(), name="api-signup"),
    path("auth/token/", account_api.TokenView.as_view(), name="api-token"),
    path("auth/logout/", account_api.LogoutView.as_view(), name="api-logout"),
    path("auth/guest/", account_api.GuestView.as_view(), name="api-guest"),
    path("auth/keep/", account_api.KeepView.as_view(), name="api-keep"),
    path("me/", account_api.MeView.as_view(), name="api-me"),
    path("me/settings/", account_api.SettingsView.as_view(), name="api-settings"),
    path("me/tokens/", account_api.TokenListView.as_view(), name="api-tokens"),
    path("me/tokens/<str:token_id>/", account_api.TokenDetailView.as_view(), name="api-token-detail"),
    path("me/notices/", notice_api.NoticeListView.as_view(), name="api-notices"),
    path("push/key/", push_api.PushKeyView.as_view(), name="api-push-key"),
    path("me/push-subscriptions/", push_api.PushSubscriptionListView.as_view(), name="api-push-subscriptions"),
    path("me/push-subscriptions/<int:subscription_id>/", push_api.PushSubscriptionDetailView.as_view(),
         name="api-push-subscription"),
    path("me/push-preferences/", push_api.PushPreferencesView.as_view(), name="api-push-preferences"),
    path("leaderboard/", rating_api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("players/<str:username>/", rating_api.ProfileView.as_view(), name="api-profile"),
    path("matches/<int:match_id>/rating/", rating_api.MatchRatingView.as_view(), name="api-match-rating"),
    path("matches/", match_api.MatchListView.as_view(), name="api-matches"),
    path("matches/<int:match_id>/", match_api.MatchDetailView.as_view(), name="api-match"),
    path("matches/<int:match_id>/actions/", match_api.MatchActionView.as_view(), name="api-match-actions"),
    path("matches/<int:match_id>/replay/", match_api.MatchReplayView.as_view(), name="api-match-replay"),
    path("matches/<int:match_id>/resign/", match_api.ResignView.as_view(), name="api-match-resign"),
    path("matches/<int:match_id>/rematch/", table_api.RematchView.as_view(), name="api-match-rematch"),
    path("matches/<int:match_id>/rematch/answer/", table_api.RematchAnswerView.as_view(),
         name="api-match-rematch-answer"),
    path("matches/<int:match_id>/rematch/leave/", table_api.RematchLeaveView.as_view(),
         name="api-match-rematch-leave"),
    path("matches/<int:match_id>/analysis/", analysis_api.AnalysisView.as_view(), name="api-match-analysis"),
    path("offline-matches/", offline_api.OfflineMatchView.as_view(), name="api-offline-matches"),
    path("quick-match/", quickmatch_api.QuickMatchView.as_view(), name="api-quick-match"),
    path("quick-match/here/", quickmatch_api.WhoIsHereView.as_view(), name="api-quick-match-here"),
    path("quick-match/<int:seek_id>/", quickmatch_api.QuickMatchDetailView.as_view(), name="api-quick-match-detail"),
    path("tables/", table_api.TableListView.as_view(), name="api-tables"),
    path("tables/invite/<str:code>/", table_api.TableByCodeView.as_view(), name="api-table-invite"),
    path("tables/join-by-code/", table_api.TableJoinByCodeView.as_view(), name="api-table-join-by-code"),
    path("tables/<int:table_id>/", table_api.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:table_id>/join/", table_api.TableJoinView.as_view(), name="api-table-join"),
    path("tables/<int:table_id>/leave/", table_api.TableLeaveView.as_view(), name="api-table-leave"),
    path("tables/<int:table_id>/bots/", table_api.TableBotsView.as_view(), name="api-table-bots"),
    path("tables/<int:table_id>/seats/<int:index>/clear/", table_api.TableClearSeatView.as_view(),
         name="api-table-clear-seat"),
    path("tables/<int:table_id>/start/", table_api.TableStartView.as_view(), name="api-table-start"),
    path("tables/<int:table_id>/seats/<int:index>/invite/", table_api.TableInviteBotView.as_view(),
         name="api-table-invite-bot"),
    path("tables/<int:table_id>/invitation/", table_api.TableInvitationView.as_view(), name="api-table-invitation"),
    path("friends/", friend_api.FriendsView.as_view(), name="api-friends"),
    path("friends/<str:username>/", friend_api.FollowView.as_view(), name="api-follow"),
    path("friends/<str:username>/challenge/", friend_api.ChallengeView.as_view(), name="api-challenge"),
    path("blocks/<str:username>/", friend_api.BlockView.as_view(), name="api-block"),
    path("watch/", watch_api.WatchListView.as_view(), name="api-watch"),
    path("watch/<int:match_id>/", watch_api.WatchMatchView.as_view(), name="api-watch-match"),
    path("tournaments/", tournament_api.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", tournament_api.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/join/", tournament_api.TournamentJoinView.as_view(),
         name="api-tournament-join"),
    path("tournaments/<int:tournament_id>/pause/", tournament_api.TournamentPauseView.as_view(),
         name="api-tournament-pause"),
    path("tournaments/<int:tournament_id>/withdraw/", tournament_api.TournamentWithdrawView.as_view(),
         name="api-tournament-withdraw"),
    path("bot/account/upgrade/", bot_api.UpgradeView.as_view(), name="api-bot-upgrade"),
    path("bot/events/", bot_api.EventStreamView.as_view(), name="api-bot-events"),
]

page_urlpatterns = [
    path("", match_pages.home, name="home"),
    path("rules/", match_pages.rules, name="rules"),
    path("manifest.webmanifest", match_pages.manifest, name="manifest"),
    path("sw.js", offline_pages.service_worker, name="service_worker"),
    path("offline/", match_pages.offline, name="offline"),
    path("play-offline/", offline_pages.play_offline, name="play_offline"),
    path("matches/", match_pages.my_matches, name="my_matches"),
    path("play/<int:match_id>/", match_pages.table, name="table"),
    path("replay/<int:match_id>/", match_pages.replay, name="replay_viewer"),
    path("lobby/", table_pages.lobby_page, name="lobby"),
    path("tables/<int:table_id>/", table_pages.table_page, name="table_room"),
    path("invite/<str:code>/", table_pages.invite, name="table_invite"),
    path("arenas/", tournament_pages.arenas_page, name="arenas"),
    path("arenas/<int:tournament_id>/", tournament_pages.arena_page, name="arena"),
    path("leaderboard/", rating_pages.leaderboard_page, name="leaderboard"),
    path("players/<str:username>/", rating_pages.profile_page, name="profile"),
    path("ratings/", rating_pages.how_ratings_work, name="how_ratings_work"),
    path("friends/", friend_pages.friends_page, name="friends"),
    path("watch/", watch_pages.watch_list_page, name="watch"),
    path("watch/<int:match_id>/", watch_pages.watch_page, name="watch_match"),
    # the settings page shows the sections of concepts above accounts (push), given to it here
    path("settings/", account_pages.settings_page, {"sections": (push_pages.settings_section,)}, name="settings"),
    path("settings/push/", push_pages.preferences_page, name="settings-push"),
    path("settings/push/<int:subscription_id>/remove/", push_pages.remove_subscription_page,
         name="settings-push-remove"),
    path("settings/tokens/<str:token_id>/revoke/", account_pages.revoke_token_page, name="settings-revoke-token"),
    path("settings/email/<str:token>/", account_pages.confirm_email_page, name="settings-email-confirm"),
    path("accounts/signup/", account_pages.signup, name="signup"),
    path("accounts/keep/", account_pages.keep_games_page, name="keep-games"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, next_page="home",
                                     authentication_form=account_pages.PeopleLoginForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    # The admin's "send a password-reset email" action links here.
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
