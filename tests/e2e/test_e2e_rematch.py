"""The one-tap rematch on two phones (360×740): two people finish a match at a private table (played through
the API, the bots answering), the first taps Rematch and waits; the other's end dialog asks "… wants a rematch"
(live, over /ws/me/), they tap Yes, and both pages land on the same new match. The guest reads the site in
Nepali. Screenshots in test-artifacts/e2e/ and /tmp/shots/rematch-*.png."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import finish_by_api, people, sign_up, small_targets

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
SHOTS = Path("/tmp/shots")


def _post(page: Any, url: str, data: dict[str, Any] | None = None) -> Any:
    token = next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), "")
    r = page.request.post(url, data=data or {}, headers={"X-CSRFToken": token})
    assert r.ok, (url, r.status, r.text())
    return r.json()


def _finished_table_match(base: str, host: Any, guest: Any, names: tuple[str, str], *, move_seconds: int,
                          bot: str) -> int:
    """Host and guest sign up (as ``names``), sit at a private table (seats 0 and 2, bots of ``bot`` beside
    them), play it to the end through the API, and both open its end screen: the match's id."""
    sign_up(host, base, names[0])
    sign_up(guest, base, names[1])
    table = _post(host, f"{base}/api/tables/", {"visibility": "private", "move_seconds": move_seconds,
                                                 "rated": False})
    _post(guest, f"{base}/api/tables/{table['id']}/join/", {"seat": 2, "code": table["invite_code"]})
    _post(host, f"{base}/api/tables/{table['id']}/bots/", {"bot": bot})
    _post(host, f"{base}/api/tables/{table['id']}/start/")
    match_id: int = host.request.get(f"{base}/api/tables/{table['id']}/").json()["match_id"]
    finish_by_api(base, {0: host, 2: guest}, match_id)
    for p in (host, guest):
        p.goto(f"{base}/play/{match_id}/")
        p.get_by_test_id("end").wait_for()
    return match_id


def test_both_tap_and_both_land_on_the_rematch(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    phone = {"viewport": PHONE, "has_touch": True, "is_mobile": True}
    en, ne = {**phone, "locale": "en-US"}, {**phone, "locale": "ne-NP"}
    with people(browser, en, ne, fast=True) as ((host, guest), errors):
        hname, gname = "h_" + secrets.token_hex(3), "g_" + secrets.token_hex(3)
        match_id = _finished_table_match(base, host, guest, (hname, gname), move_seconds=86400, bot="normal")
        assert not host.get_by_test_id("play-again").is_visible()

        host.get_by_test_id("rematch").tap()
        host.get_by_test_id("rematch-status").filter(has_text=f"Waiting for {gname}").wait_for()
        assert not host.get_by_test_id("rematch").is_visible()
        host.screenshot(path=str(SHOTS / "rematch-waiting-en-360x740.png"))

        # the guest's open end dialog hears the offer (no reload) and asks, in Nepali
        guest.get_by_test_id("rematch-status").filter(has_text=hname).wait_for()
        yes, no = guest.get_by_test_id("rematch"), guest.get_by_test_id("rematch-no")
        yes.wait_for()
        assert no.is_visible() and yes.inner_text() != "Yes, rematch"  # translated
        assert not [t for t in small_targets(guest) if t["what"].endswith(("[rematch]", "[rematch-no]"))]
        guest.screenshot(path=str(SHOTS / "rematch-asked-ne-360x740.png"))
        guest.screenshot(path=str(artifacts / "rematch-asked.png"))
        for w, h in ((740, 360), (1366, 768)):  # the same dialogs on a phone held sideways and a laptop
            for p, who in ((host, "waiting-en"), (guest, "asked-ne")):
                p.set_viewport_size({"width": w, "height": h})
                p.wait_for_timeout(200)  # the dialog is placed again on resize
                p.screenshot(path=str(SHOTS / f"rematch-{who}-{w}x{h}.png"))
        for p in (host, guest):
            p.set_viewport_size(PHONE)

        yes.tap()
        pattern = re.compile(rf"{re.escape(base)}/play/(\d+)/$")
        for p in (host, guest):
            p.wait_for_url(lambda url: bool(pattern.match(url)) and not url.endswith(f"/play/{match_id}/"))
        assert host.url == guest.url
        new_id = int(host.url.rstrip("/").split("/")[-1])
        view = host.request.get(f"{base}/api/matches/{new_id}/").json()
        assert view["status"] == "active" and [s["kind"] for s in view["seats"]] == ["human", "bot", "human", "bot"]
        assert [s["bot"] for s in view["seats"]] == [None, "normal", None, "normal"]
        for p in (host, guest):
            p.locator("#table-app").wait_for()
        host.screenshot(path=str(SHOTS / "rematch-started-en-360x740.png"))
        assert not errors, errors

