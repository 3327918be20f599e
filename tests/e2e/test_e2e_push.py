"""Web Push in Chromium: the service worker shows a push delivered through the DevTools protocol
(`ServiceWorker.deliverPushMessage`), a second push for the same match replaces the first (one notification per
match), and a click opens the match, or focuses its open tab. "Tell me when it's my turn" on the settings page and
on a correspondence match's page asks for permission only once clicked, never on load.

Headless Chromium has neither a push service nor a way to click a notification: the page's
``PushManager.subscribe`` is stood in for (a subscription whose endpoint is a loopback stand-in the server is told
to accept), and the click is a ``notificationclick`` dispatched in the service worker, where the window calls it
makes (``clients.openWindow``, ``WindowClient.focus``, allowed only after a real click) are recorded and the test
then opens what was asked for."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from e2e_helpers import assert_in_viewport, new_context, sign_up

pytestmark = pytest.mark.e2e


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _stand_in_push_manager() -> str:
    """An init script: count permission requests, and a PushManager whose subscriptions are stand-ins."""
    p256dh = _b64(ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    keys = json.dumps({"p256dh": p256dh, "auth": _b64(b"0123456789abcdef")})
    return """
(() => {
  window.__permissionAsks = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.__permissionAsks += 1; return ask(...args); };
  const load = () => JSON.parse(localStorage.getItem("e2e-push") || "null");
  const wrap = (json) => json && {
    endpoint: json.endpoint, options: { applicationServerKey: null }, toJSON: () => json,
    unsubscribe: async () => { localStorage.removeItem("e2e-push"); return true; },
  };
  PushManager.prototype.getSubscription = async function () { return wrap(load()); };
  PushManager.prototype.subscribe = async function () {
    const json = { endpoint: "http://127.0.0.1:9/push/e2e-" + Math.random().toString(36).slice(2),
                   expirationTime: null, keys: KEYS };
    localStorage.setItem("e2e-push", JSON.stringify(json));
    return wrap(json);
  };
})();
""".replace("KEYS", keys)


API_JS = """async ([path, method, body]) => {
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  const r = await fetch(path, { method, credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    body: body === null ? undefined : JSON.stringify(body) });
  return [r.status, r.status === 204 ? null : await r.json()];
}"""


def _api(page: Any, path: str, method: str = "GET", body: Any = None) -> Any:
    status, data = page.evaluate(API_JS, [path, method, body])
    assert status < 300, (path, status, data)
    return data


def test_tell_me_when_its_my_turn_asks_only_after_a_click(browser: Any, site_url: str, artifacts: Any) -> None:
    ctx = new_context(browser, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                      locale="en-US")
    ctx.add_init_script(_stand_in_push_manager())
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_up(page, site_url, f"pushy{int(time.time() * 1000) % 100000}")
        page.goto(f"{site_url}/settings/")
        enable = page.get_by_test_id("push-settings").get_by_test_id("push-enable")
        enable.wait_for(state="visible")
        assert enable.inner_text() == "Tell me when it's my turn"
        assert page.evaluate("window.__permissionAsks") == 0, "asked on load"
        assert page.get_by_test_id("push-no-devices").is_visible()
        page.screenshot(path=str(artifacts / "push-settings-360x740.png"), full_page=True)
        ctx.grant_permissions(["notifications"], origin=site_url)
        enable.click()
        page.get_by_test_id("push-settings").get_by_text("This device is told when it's your turn.").wait_for()
        assert page.evaluate("window.__permissionAsks") == 1
        [sub] = _api(page, "/api/me/push-subscriptions/")
        assert sub["endpoint"].startswith("http://127.0.0.1:9/push/e2e-") and sub["language"] == "en"
        page.reload()
        disable = page.get_by_test_id("push-settings").get_by_test_id("push-disable")
        disable.wait_for(state="visible")
        assert page.locator(".push-this").is_visible(), "this device is marked in the list"
        page.screenshot(path=str(artifacts / "push-settings-on-360x740.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 860})
        page.screenshot(path=str(artifacts / "push-settings-desktop.png"), full_page=True)
        disable.click()
        page.get_by_text("This device gets no more push notifications.").wait_for()
        assert _api(page, "/api/me/push-subscriptions/") == []

        # a correspondence match's page offers it too, in its clock's bar
        page.set_viewport_size({"width": 360, "height": 740})
        table = _api(page, "/api/tables/", "POST", {"visibility": "private", "move_seconds": 86400, "rated": False})
        _api(page, f"/api/tables/{table['id']}/bots/", "POST", {"bot": "random"})
        started = _api(page, f"/api/tables/{table['id']}/start/", "POST")
        match_id = started["match_id"]
        page.goto(f"{site_url}/play/{match_id}/")
        offer = page.get_by_test_id("table").get_by_test_id("push-enable")
        offer.wait_for(state="visible")
        assert page.evaluate("window.__permissionAsks") == 0, "asked on load"  # (counted per page)
        page.screenshot(path=str(artifacts / "push-table-360x740.png"))
        page.set_viewport_size({"width": 740, "height": 360})  # turned: the offer still leaves the hand on screen
        assert_in_viewport(page, ["[data-testid=hand]", "[data-testid=table] [data-testid=push-enable]"])
        page.screenshot(path=str(artifacts / "push-table-740x360.png"))
        page.set_viewport_size({"width": 360, "height": 740})
        offer.click()
        page.get_by_test_id("table").get_by_text("This device is told when it's your turn.").wait_for()
        assert offer.is_hidden() and page.evaluate("window.__permissionAsks") == 1
        assert len(_api(page, "/api/me/push-subscriptions/")) == 1
        # a match against bots alone has no clock and no offer
        bots = _api(page, "/api/matches/", "POST", {"opponents": "bots", "bot": "random"})
        page.goto(f"{site_url}/play/{bots['id']}/")
        page.get_by_test_id("hand").wait_for()
        assert page.locator("[data-push-offer]").is_hidden()
        assert errors == []
    finally:
        ctx.close()


def _notifications(page: Any) -> list[list[str]]:
    return page.evaluate("""navigator.serviceWorker.ready.then((r) => r.getNotifications())
        .then((ns) => ns.map((n) => [n.tag, n.title, n.body, n.data.url]).sort())""")


def _shown(page: Any, tag: str, body: str, deliver: Any) -> None:
    """Deliver a push and wait until the notification ``tag`` shows ``body``.  A push reaches the service worker
    asynchronously, later on a busy machine, and DevTools drops one delivered while the worker is being started
    or stopped (a real push service delivers again): so the same push (same tag, so at most one notification)
    is delivered again every 3 s, and the test still fails when the worker never shows it."""
    deadline = time.monotonic() + 15
    again = 0.0
    while not any(n[0] == tag and n[2] == body for n in _notifications(page)):
        assert time.monotonic() < deadline, f"no notification {tag} saying {body!r}: {_notifications(page)}"
        if time.monotonic() >= again:
            deliver()
            again = time.monotonic() + 3
        page.wait_for_timeout(50)


def _closed(page: Any, tag: str) -> None:
    """Wait until the notification ``tag`` is closed.  Chromium names a tagged notification by its tag, so a close
    that lands after a newer push of the same tag would close that one: a click's close must land first."""
    deadline = time.monotonic() + 10
    while any(n[0] == tag for n in _notifications(page)):
        assert time.monotonic() < deadline, f"notification {tag} still open: {_notifications(page)}"
        page.wait_for_timeout(50)


def test_the_service_worker_shows_one_notification_per_match_and_a_click_opens_it(
        browser: Any, site_url: str, artifacts: Any) -> None:
    ctx = new_context(browser, viewport={"width": 1280, "height": 860}, locale="en-US")
    ctx.grant_permissions(["notifications"], origin=site_url)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    try:
        sign_up(page, site_url, f"ringer{int(time.time() * 1000) % 100000}")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        match_id = _api(page, "/api/matches/", "POST", {"opponents": "bots", "bot": "random"})["id"]
        cdp = ctx.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        deadline = time.monotonic() + 10
        while not [r for r in registrations if not r["isDeleted"]]:
            assert time.monotonic() < deadline, "no service worker registration"
            page.wait_for_timeout(50)
        registration = [r for r in registrations if not r["isDeleted"]][0]["registrationId"]

        def push(payload: dict[str, Any]) -> None:
            cdp.send("ServiceWorker.deliverPushMessage", {"origin": site_url, "registrationId": registration,
                                                          "data": json.dumps(payload)})

        def your_turn(mid: int, body: str) -> dict[str, Any]:
            return {"type": "your_turn", "match_id": mid, "title": "Your turn", "body": body, "url": f"/play/{mid}/"}

        _shown(page, f"match-{match_id}", "first", lambda: push(your_turn(match_id, "first")))
        assert _notifications(page) == [[f"match-{match_id}", "Your turn", "first", f"/play/{match_id}/"]]
        # the same match: replaces the first
        _shown(page, f"match-{match_id}", "second", lambda: push(your_turn(match_id, "second")))
        # one push at a time: a DevTools push sent while the worker still showed the last one was lost under load
        _shown(page, f"match-{match_id + 1000}", "another match",
               lambda: push(your_turn(match_id + 1000, "another match")))
        assert _notifications(page) == sorted([  # sorted as _notifications sorts, whatever the ids
            [f"match-{match_id + 1000}", "Your turn", "another match", f"/play/{match_id + 1000}/"],
            [f"match-{match_id}", "Your turn", "second", f"/play/{match_id}/"],
        ])

        [worker] = [w for w in ctx.service_workers if w.url.endswith("/sw.js")]
        worker.evaluate("""() => {
            self.__asked = [];
            self.clients.openWindow = async (url) => { self.__asked.push(["open", url]); return null; };
            WindowClient.prototype.focus = async function () { self.__asked.push(["focus", this.url]); return this; };
        }""")
        click = """(tag) => self.registration.getNotifications({ tag }).then(([n]) => {
            const event = new NotificationEvent("notificationclick", { notification: n });
            self.dispatchEvent(event);
            return new Promise((done) => setTimeout(done, 300)).then(() => self.__asked.splice(0));
        })"""
        # no tab of the match is open: the click opens it
        asked = worker.evaluate(click, f"match-{match_id}")
        assert asked == [["open", f"{site_url}/play/{match_id}/"]]
        assert [n[0] for n in _notifications(page)] == [f"match-{match_id + 1000}"], "the clicked one is closed"
        table = ctx.new_page()
        table.goto(asked[0][1])  # what the browser does with a real click
        table.get_by_test_id("hand").wait_for()
        # now its tab is open: the next click focuses that tab instead of opening another
        _shown(page, f"match-{match_id}", "third", lambda: push(your_turn(match_id, "third")))
        assert worker.evaluate(click, f"match-{match_id}") == [["focus", f"{site_url}/play/{match_id}/"]]
        _closed(page, f"match-{match_id}")
        # a payload pointing elsewhere leads to this site's home (its tab is open: focused), never another site
        _shown(page, f"match-{match_id}", "away",
               lambda: push({**your_turn(match_id, "away"), "url": "https://elsewhere.example/phish"}))
        assert worker.evaluate(click, f"match-{match_id}") == [["focus", f"{site_url}/"]]
    finally:
        ctx.close()
