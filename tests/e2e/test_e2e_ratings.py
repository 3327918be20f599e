"""Ratings people read, in a browser: the leaderboard, a profile and "How ratings work" on phones (360×740,
740×360) and a laptop (1366×768), in English and Hindi, with no text covered and every phone tap target at least
44 px; the end-of-match dialog of a newcomer's first rated match shows the rise as "1500? → 15xx? (+n)".
Screenshots land in $RATINGS_SHOTS (default /tmp/shots) as ratings-<page>-<lang>-<size>.png."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import covered_texts, new_context, sign_up, small_targets

SIZES = {"360x740": (360, 740), "740x360": (740, 360), "1366x768": (1366, 768)}
PHONES = {"360x740", "740x360"}
LANGS = ["en", "hi"]

# In the server's own database (eager tasks): a first rated match against normal bots the site knows well, which
# the person wins (the places stand in for the cards'), an unrated one against easy bots, and others on the board.
SETUP = """
from django.contrib.auth import get_user_model
from games.matches import commands as mc
from games.matches.commands import SeatSpec
from games.models import Rating
from games.ratings import reads
User = get_user_model()
me = User.objects.get(username=%(name)r)
Rating.objects.get_or_create(bot="normal", defaults={"mu": 25.0, "sigma": 2.0, "games": 300})
real = reads.ranks_by_totals
reads.ranks_by_totals = lambda totals: [1, 2, 3, 4]
rated = mc.create_match(seats=[SeatSpec(user=me)] + [SeatSpec(bot="normal")] * 3, rated=True)
mc.hand_seats_to_bots(me.pk, bot="random")
reads.ranks_by_totals = real
mc.create_match(seats=[SeatSpec(user=me)] + [SeatSpec(bot="easy")] * 3)
mc.hand_seats_to_bots(me.pk, bot="random")
for name, mu, sigma, games in [("seasoned_player_one", 31.2, 2.1, 80), ("steady", 26.0, 3.5, 30),
                               ("lucky_newcomer", 30.0, 7.9, 1)]:
    u, _ = User.objects.get_or_create(username=name)
    Rating.objects.update_or_create(user=u, defaults={"mu": mu, "sigma": sigma, "games": games})
print(rated.pk)
"""


@pytest.fixture(scope="module")
def site(browser: Any, site_url: str, manage: Any) -> Iterator[dict[str, Any]]:
    ctx = new_context(browser, viewport={"width": 1366, "height": 768}, locale="en-US")
    page = ctx.new_page()
    name = "asha_" + secrets.token_hex(3)
    sign_up(page, site_url, name, email=False)
    rated = int(manage("shell", "-c", SETUP % {"name": name}).strip().splitlines()[-1])
    state = ctx.storage_state()
    ctx.close()
    yield {"base": site_url, "name": name, "rated": rated, "state": state}


def _shots() -> Path:
    folder = Path(os.environ.get("RATINGS_SHOTS") or "/tmp/shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_rating_pages_on_phones_and_a_laptop(browser: Any, site: dict[str, Any], size: str, lang: str) -> None:
    w, h = SIZES[size]
    phone = size in PHONES
    ctx = new_context(browser, viewport={"width": w, "height": h}, locale="en-US", is_mobile=phone, has_touch=phone,
                      storage_state=site["state"])
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": site["base"]}])
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    faults: list[str] = []
    try:
        for label, path in [("leaderboard", "/leaderboard/"), ("profile", f"/players/{site['name']}/"),
                            ("help", "/ratings/")]:
            page.goto(site["base"] + path)
            page.wait_for_selector("main h1")
            page.screenshot(path=str(_shots() / f"ratings-{label}-{lang}-{size}.png"), full_page=True)
            covered = covered_texts(page)
            if covered:
                faults.append(f"{label}: covered texts {covered}")
            if phone and (small := small_targets(page)):
                faults.append(f"{label}: tap targets under 44 px {small}")
            if label != "help":
                assert page.get_by_test_id("how-ratings-work").count() == 1
                assert not re.search(r"[μσ]", page.inner_text("main")), label
        page.goto(f"{site['base']}/players/{site['name']}/")
        shown = page.get_by_test_id("rating-shown").inner_text()
        assert re.fullmatch(r"1[5-6]\d\d\?", shown), shown  # risen from 1500, still provisional
        # the end of the first rated match: the rise, marked provisional
        page.goto(f"{site['base']}/play/{site['rated']}/")
        change = page.get_by_test_id("rating-change")
        page.wait_for_function("/→/.test(document.querySelector('[data-testid=rating-change]').textContent)")
        text = change.inner_text()
        assert re.search(r"1500\? → 1[5-6]\d\d\? \(\+\d+\)", text), text
        assert "up" in (change.get_attribute("class") or "")
        page.screenshot(path=str(_shots() / f"ratings-end-{lang}-{size}.png"))
    finally:
        ctx.close()
    assert not errors, errors
    assert not faults, "\n".join(faults)
