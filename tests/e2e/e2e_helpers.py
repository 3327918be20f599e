"""Steps the browser tests share."""

from __future__ import annotations

from typing import Any

PASSWORD = "felt-table-Q7-spades"


def sign_up(page: Any, base: str, username: str, *, from_home: bool = False, email: bool = True) -> None:
    """Create an account through the sign-up form; the site then lands on the home page, signed in."""
    if from_home:
        page.goto(f"{base}/")
        page.get_by_role("link", name="Sign up").first.click()
    else:
        page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    if email:
        page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url(f"{base}/")
