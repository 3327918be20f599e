"""Installable: the web app manifest and its icons, the service worker and its offline page.
Needs the server's routes /manifest.webmanifest, /sw.js and /offline/ (templates in frontend/templates)."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from e2e_helpers import new_context

pytestmark = pytest.mark.e2e


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_manifest_and_icons(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    r = page.request.get(site_url + href)
    assert r.status == 200 and "manifest+json" in r.headers["content-type"]
    manifest = r.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        got = page.request.get(site_url + icon["src"])
        assert got.status == 200, icon
        w, h = png_size(got.body())
        assert icon["sizes"] == f"{w}x{h}", icon
        sizes.add((icon["sizes"], icon.get("purpose", "any")))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_offline_page_from_the_service_worker(browser: Any, site_url: str) -> None:
    ctx = new_context(browser, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    try:
        page.goto(f"{site_url}/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now controlled by the service worker
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        ctx.set_offline(True)
        page.goto(f"{site_url}/rules/")
        page.get_by_test_id("offline").wait_for()
        assert page.locator("h1").inner_text() == "You are offline"
        ctx.set_offline(False)
        page.goto(f"{site_url}/rules/")
        page.get_by_test_id("rules").wait_for()
    finally:
        ctx.close()
