"""The friends page: rendered in the browser from the friends API (``friends.js``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def friends_page(request: HttpRequest) -> HttpResponse:
    return render(request, "friends.html", {"follow": request.GET.get("follow", "")[:150]})
