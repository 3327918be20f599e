"""API routes under /api/."""

from django.urls import path

from . import views

urlpatterns = [
    path("auth/signup/", views.SignupView.as_view(), name="api-signup"),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("auth/logout/", views.LogoutView.as_view(), name="api-logout"),
    path("me/", views.MeView.as_view(), name="api-me"),
    path("matches/", views.MatchListView.as_view(), name="api-matches"),
    path("matches/<int:match_id>/", views.MatchDetailView.as_view(), name="api-match"),
    path("matches/<int:match_id>/actions/", views.MatchActionView.as_view(), name="api-match-actions"),
    path("matches/<int:match_id>/replay/", views.MatchReplayView.as_view(), name="api-match-replay"),
]
