"""राम, सुमन and सीता sign up through the form in a browser set to Nepali, and their look-alikes are refused there as
the API and the admin refuse them (tests/site/accounts/test_one_name_rule.py): one name rule everywhere. The form
speaks Nepali, Django's password rules included, with no empty rule in the list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from e2e_helpers import PASSWORD, new_context

pytestmark = pytest.mark.e2e

DEVANAGARI = re.compile(r"[\u0900-\u097F]")


def _submit(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_test_id("signup-submit").click()
    page.wait_for_load_state()


def test_devanagari_names_sign_up_and_their_look_alikes_are_refused(browser: Any, site_url: str) -> None:
    for name in ("राम", "सुमन", "सीता"):
        ctx = new_context(browser, viewport={"width": 360, "height": 740}, locale="ne-NP")
        page = ctx.new_page()
        try:
            _submit(page, site_url, name)
            page.wait_for_url(f"{site_url}/")
            me = page.request.get(f"{site_url}/api/me/").json()
            assert me["username"] == name, me
        finally:
            ctx.close()

    ctx = new_context(browser, viewport={"width": 360, "height": 740}, locale="ne-NP")
    page = ctx.new_page()
    try:
        page.goto(f"{site_url}/accounts/signup/")
        assert page.evaluate("document.documentElement.lang") == "ne"
        rules = page.locator("form li").evaluate_all("(items) => items.map((li) => li.innerText.trim())")
        assert rules and all(rules), f"an empty rule in the list: {rules}"
        assert all(DEVANAGARI.search(rule) for rule in rules), f"a rule not in Nepali: {rules}"
        # a Latin a inside Devanagari, the taken name with a full stop, a vowel sign piled up: each refused
        for look_alike in ("रaम", "राम.", "सीता-", "सुमन\u0947\u0947\u0947\u0947"):
            _submit(page, site_url, look_alike)
            assert page.url.rstrip("/").endswith("/accounts/signup"), f"{look_alike!r} was taken in"
            errors = page.locator(".field-errors").all_inner_texts()
            assert errors and DEVANAGARI.search(" ".join(errors)), f"{look_alike!r}: {errors}"
    finally:
        ctx.close()
