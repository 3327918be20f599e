"""Chat at a private table, two browsers: the host (a desktop, English) and the person who came by the
invitation link (a phone, नेपाली). The host writes; the guest sees the unread count on the Chat chip, opens the
chat, reports the line and mutes the host (whose next line then never shows); a reload shows the history again;
staff find the report in the admin and mark it handled. Screenshots at 360×740, 740×360 and 1280×800 in both
languages land in test-artifacts/e2e/chat-*.png."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from e2e_helpers import FAST, PASSWORD, assert_in_viewport, new_context, sign_up, start_private_table

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}


def line_with(page: Any, text: str) -> Any:
    return page.locator("[data-testid=chat-line]", has_text=text)


def say(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")
    line_with(page, text).wait_for()  # back from the server: stored and sent to the table


def shots(page: Any, artifacts: Any, name: str) -> None:
    """The page at the three sizes (the chat open where it opens), the table's hand and trick on screen."""
    for label, size in (("360x740", PHONE), ("740x360", LANDSCAPE), ("1280x800", DESKTOP)):
        page.set_viewport_size(size)
        if page.get_by_test_id("chat-btn").is_visible() and page.get_by_test_id("chat-panel").is_hidden():
            page.get_by_test_id("chat-btn").click()
        page.get_by_test_id("chat-panel").wait_for()
        page.wait_for_timeout(300)  # the layout settles after the resize (no assertion waits on it)
        assert_in_viewport(page, ["[data-testid=chat-panel]", "[data-testid=chat-input]", "[data-testid=hand]"])
        overlap = page.evaluate("""() => {
          const p = document.querySelector('[data-testid=chat-panel]').getBoundingClientRect();
          return [...document.querySelectorAll('.hand .card')].some((c) => {
            const r = c.getBoundingClientRect();
            return r.left < p.right && r.right > p.left && r.top < p.bottom && r.bottom > p.top;
          });
        }""")
        assert not overlap, f"the chat covers the hand at {label}"
        page.screenshot(path=str(artifacts / f"chat-{name}-{label}.png"))


def test_chat_at_a_private_table(browser: Any, site_url: str, artifacts: Any, manage: Any) -> None:
    base = site_url
    contexts = [new_context(browser, viewport=DESKTOP, locale="en-US"),
                new_context(browser, viewport=PHONE, locale="ne-NP", has_touch=True, is_mobile=True)]
    for c in contexts:
        c.add_init_script(FAST)
    host, guest = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (host, guest):
        p.set_default_timeout(20_000)
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        hname, gname = "ch_" + secrets.token_hex(3), "cg_" + secrets.token_hex(3)
        sign_up(host, base, hname)
        sign_up(guest, base, gname)
        start_private_table(host, guest, base, gname)

        # the host's desktop: the chat sits under the score sheet, no chip needed
        host.get_by_test_id("chat-panel").wait_for()
        assert host.get_by_test_id("chat-btn").is_hidden()
        guest.get_by_test_id("chat-btn").wait_for()  # its socket is in (the history came): the line comes live
        say(host, "Namaste! Good luck, everyone")
        # the guest's phone: the chip counts the unread line; the panel opens over the top of the table
        guest.get_by_test_id("chat-unread").wait_for()
        assert guest.get_by_test_id("chat-unread").inner_text() == "1"
        assert guest.get_by_test_id("chat-panel").is_hidden()
        assert guest.evaluate("document.getElementById('table-app').dataset.chatBubbles") == "1"  # beside the seat
        guest.screenshot(path=str(artifacts / "chat-guest-unread-360x740.png"))
        guest.get_by_test_id("chat-btn").click()
        line_with(guest, "Namaste! Good luck, everyone").wait_for()
        assert guest.get_by_test_id("chat-unread").is_hidden()
        say(guest, "धन्यवाद! शुभकामना 🙏")
        line_with(host, "धन्यवाद! शुभकामना").wait_for()
        shots(guest, artifacts, "ne")
        shots(host, artifacts, "en")

        # the guest reports the host's line (one report, with a reason), then mutes the host
        guest.set_viewport_size(PHONE)
        first = line_with(guest, "Namaste! Good luck, everyone")
        first.locator(".chat-act").first.click()
        guest.get_by_test_id("report-reason").fill("testing the report button")
        guest.get_by_test_id("report-send").click()
        first.locator(".chat-reported").wait_for()
        first.locator(".chat-act").last.click()  # Mute
        first.wait_for(state="detached")
        guest.locator(".chat-muted p").wait_for()
        guest.screenshot(path=str(artifacts / "chat-guest-muted-360x740.png"))
        say(host, "this line the guest never sees")
        say(guest, "still here")  # the host's line went to the table before this one: it was left out
        assert line_with(guest, "this line the guest never sees").count() == 0
        # a reload shows the history again, still without the muted person's lines
        guest.reload()
        guest.get_by_test_id("chat-btn").click()
        line_with(guest, "still here").wait_for()
        assert line_with(guest, "Namaste").count() == 0
        host.reload()
        line_with(host, "still here").wait_for()
        assert line_with(host, "Namaste! Good luck, everyone").count() == 1
        # a line written while the host's page was away counts as unread when it comes back (on a phone)
        match_url = host.url
        host.set_viewport_size(PHONE)
        host.goto(f"{base}/lobby/")
        say(guest, "are you there?")
        host.goto(match_url)
        host.get_by_test_id("chat-unread").wait_for()
        assert host.get_by_test_id("chat-unread").inner_text() == "1"
        host.get_by_test_id("chat-btn").click()
        line_with(host, "are you there?").wait_for()
        host.reload()  # read on this device: nothing unread after a reload
        host.get_by_test_id("chat-btn").wait_for()
        host.wait_for_timeout(300)
        assert host.get_by_test_id("chat-unread").is_hidden()
        host.set_viewport_size(DESKTOP)

        # staff: the report is in the admin, with the line, its author and the match; marked handled
        staff = "staff_" + secrets.token_hex(3)
        manage("createsuperuser", "--noinput", "--username", staff, "--email", f"{staff}@example.com",
               extra_env={"DJANGO_SUPERUSER_PASSWORD": PASSWORD})
        contexts.append(new_context(browser, viewport=DESKTOP, locale="en-US"))
        admin = contexts[-1].new_page()
        admin.goto(f"{base}/admin/login/?next=/admin/games/chatreport/")
        admin.fill("#id_username", staff)
        admin.fill("#id_password", PASSWORD)
        admin.locator("input[type=submit]").click()
        admin.wait_for_url(f"{base}/admin/games/chatreport/")
        row = admin.locator("#result_list tbody tr", has_text="Namaste! Good luck, everyone")
        row.wait_for()
        assert hname in row.inner_text() and gname in row.inner_text()
        assert "testing the report button" in row.inner_text()
        admin.screenshot(path=str(artifacts / "chat-admin-reports.png"), full_page=True)
        row.locator("input.action-select").check()
        admin.select_option("select[name=action]", "mark_handled")
        admin.locator("button[name=index]").click()
        admin.goto(f"{base}/admin/games/chatreport/?handled__exact=1")
        admin.locator("#result_list tbody tr", has_text="Namaste! Good luck, everyone").wait_for()
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()
