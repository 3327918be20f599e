"""URL patterns for the browser pages, included at '' by the root urls."""

from django.urls import path

from . import pages

urlpatterns = [
    path("", pages.home, name="home"),
]
