"""One name rule everywhere: the sign-up form, the API and the admin's add and change user forms accept the same
names (राम, सुमन, सीता with their vowel signs; Chinese, Latin) and refuse the same look-alikes (a Latin letter in
a Devanagari name, a confusable of a taken name, `alice.` beside `alice`); their help texts state that rule, and
the password rules list has no empty bullet."""

from __future__ import annotations

import importlib
import logging
import re
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD

from games.accounts.models import UsernameKey
from games.accounts.usernames import key

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _api(name: str) -> tuple[bool, str]:
    r = APIClient().post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json")
    return r.status_code == 201, str(r.json())


def _form(name: str) -> tuple[bool, str]:
    c = Client()
    r = c.post("/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})
    return r.status_code == 302, str(r.context["form"].errors if r.context else r)


def _admin_add(name: str, admin: Client) -> tuple[bool, str]:
    r = admin.post("/admin/auth/user/add/", {"username": name, "usable_password": "true",
                                              "password1": PASSWORD, "password2": PASSWORD})
    return r.status_code == 302, str(r.context["adminform"].form.errors if r.context else r)


def _admin_rename(name: str, admin: Client, make_user: Any) -> tuple[bool, str]:
    """Rename a fresh account to ``name`` in the admin's user page, its other fields as they were."""
    from accounts.test_admin import _change_form_data

    user = make_user()
    url = f"/admin/auth/user/{user.pk}/change/"
    data = {**_change_form_data(admin, url), "username": name}
    r = admin.post(url, data)
    return r.status_code == 302, str(r.context["adminform"].form.errors if r.context else r)


WAYS = ["api", "form", "admin_add", "admin_rename"]


def _try(way: str, name: str, root: Client, make_user: Any) -> tuple[bool, str]:
    if way == "api":
        return _api(name)
    if way == "form":
        return _form(name)
    if way == "admin_add":
        return _admin_add(name, root)
    return _admin_rename(name, root, make_user)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", ["राम", "सुमन", "सीता", "क्षितिज", "王小明", "Zoë", "maya_2"])
def test_a_name_is_accepted_alike_everywhere(way: str, name: str, root: Client, make_user: Any,
                                             django_user_model: Any) -> None:
    ok, why = _try(way, name, root, make_user)
    assert ok, why
    user = django_user_model.objects.get(username=name)
    assert UsernameKey.objects.get(user=user).key == key(name)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("taken,name", [
    (None, "रaम"),  # a Latin a inside Devanagari
    (None, "सीता\u093f\u093f\u093f\u093f"),  # a pile of vowel signs
    (None, "ram@home"),  # Django's own rule allows @ and +; the site's does not
    ("राम", "राम."),  # punctuation at an end
    ("सीता", "-सीता"),
    ("alice", "alice."),
    ("cope", "\u0441\u043e\u0440\u0435"),  # соре: Cyrillic letters only, each a confusable of the Latin one
    ("alice", "ALICE"),
])
def test_a_look_alike_is_refused_alike_everywhere(way: str, taken: str | None, name: str, root: Client,
                                                  make_user: Any, django_user_model: Any) -> None:
    if taken is not None:
        make_user(taken)
    ok, why = _try(way, name, root, make_user)
    assert not ok, (way, name)
    assert ("taken" in why) if taken else ("username" in why), why
    assert not django_user_model.objects.filter(username=name).exists()


def test_the_admin_keeps_an_unchanged_older_name_and_may_rename_to_the_same_name_cased(
        root: Client, make_user: Any) -> None:
    """A name made before the rule (Django's own allows @) does not stop the admin from changing other fields;
    renaming an account to a look-alike of its own name is not taking another's."""
    from accounts.test_admin import _change_form_data

    older = make_user("ops@example")
    url = f"/admin/auth/user/{older.pk}/change/"
    data = {**_change_form_data(root, url), "email": "ops@example.com"}
    assert root.post(url, data).status_code == 302
    older.refresh_from_db()
    assert older.email == "ops@example.com" and older.username == "ops@example"
    kim = make_user("kim")
    url = f"/admin/auth/user/{kim.pk}/change/"
    assert root.post(url, {**_change_form_data(root, url), "username": "Kim"}).status_code == 302
    kim.refresh_from_db()
    assert kim.username == "Kim" and UsernameKey.objects.get(user=kim).key == key("kim")


def test_the_help_texts_state_the_sites_rule(root: Client) -> None:
    rule = "2 to 30 letters (of one script), digits 0-9 and . _ -, with at least one letter."
    look_alikes = "A name that looks like a taken one (Alice, ALICE, A1ice, alice.) is taken too."
    for page in (Client().get("/accounts/signup/"), root.get("/admin/auth/user/add/")):
        body = page.content.decode()
        assert rule in body and look_alikes in body
        assert "@/./+/-/_" not in body and "150 characters" not in body
    hindi = Client(headers={"accept-language": "hi"}).get("/accounts/signup/").content.decode()
    assert "कम से कम एक अक्षर" in hindi and "लिया हुआ माना जाता है" in hindi


def test_no_empty_bullet_in_the_password_rules(root: Client) -> None:
    """The hook that revokes credentials on a new password rides on a real rule: it adds no bullet of its own."""
    from django.contrib.auth.password_validation import password_validators_help_texts

    texts = password_validators_help_texts()
    assert len(texts) == 4 and all(t.strip() for t in texts), texts
    for page in (Client().get("/accounts/signup/"), root.get("/admin/auth/user/add/")):
        items = re.findall(r"<li>(.*?)</li>", page.content.decode(), re.S)
        assert "Your password can’t be entirely numeric." in items
        assert all(item.strip() for item in items), items


def test_the_numeric_rule_still_holds_and_a_new_password_still_revokes_tokens(make_user: Any) -> None:
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="entirely numeric"):
        validate_password("8675309192837")
    user = make_user("nia")
    token = APIClient().post("/api/auth/token/", {"username": "nia", "password": PASSWORD},
                             format="json").json()["token"]
    user.set_password("another-horse-battery-7")
    user.save()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/me/").status_code == 401


def test_the_migration_gives_alice_dot_no_key_of_its_own(make_user: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Accounts made before the key ignored end punctuation: `alice.` had a key of its own beside `alice`."""
    first, second, third = make_user("alice"), make_user("-bob-"), make_user("carol")
    type(third).objects.filter(pk=third.pk).update(username="alice.")
    UsernameKey.objects.filter(user=third).update(key="alice.")
    UsernameKey.objects.filter(user=second).update(key="-bob-")
    migration = importlib.import_module("games.migrations.0015_username_keys_trim_punctuation")
    with caplog.at_level(logging.WARNING, logger="games.migrations"):
        migration.recompute_keys(apps, connection.schema_editor())
    assert dict(UsernameKey.objects.values_list("user_id", "key")) == {first.pk: key("alice"), second.pk: "bob"}
    assert "'alice.'" in caplog.text and f"user {third.pk}" in caplog.text
    assert not _api("_alice_")[0] and not _api("bob")[0]
