"""Browser pages (HTML) for the Call Break site."""

from django.shortcuts import render


def home(request):
    return render(request, "home.html", {})
