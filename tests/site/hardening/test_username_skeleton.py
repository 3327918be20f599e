"""Usernames compared by their skeleton: accents and Latin small capitals fold too (the attack made `àltpmeice`,
`ǎltpmeice`, `altpmeicé` beside `altpmeice`; `alicᴇ` and `ạlice` passed the check beside `alice`). The vowel
signs of other scripts are not accents; migration 0007 gave every existing account its new key."""

from __future__ import annotations

import importlib
import logging
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from rest_framework.test import APIClient
from site_helpers import PASSWORD

from games.accounts.models import UsernameKey
from games.accounts.usernames import key

pytestmark = pytest.mark.django_db(transaction=True)


def _signup(name: str) -> Any:
    return APIClient().post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json")


@pytest.mark.parametrize("taken,name", [
    ("altpmeice", "àltpmeice"), ("altpmeice", "ǎltpmeice"), ("altpmeice", "altpmeicé"), ("alice", "alicᴇ"),
    ("alice", "ạlice"), ("alice", "ÀLİCE"), ("orjan", "ørjan"), ("zoe", "Zoë"), ("Ελενη", "Ελένη"),
    ("Андреи", "Андрей"), ("alice", "a\u0301lice"),
])
def test_accented_and_small_capital_look_alikes_are_taken(taken: str, name: str, make_user: Any) -> None:
    assert key(taken) == key(name)
    make_user(taken)
    r = _signup(name)
    assert r.status_code == 400 and r.json()["errors"]["username"], (name, r.json())


@pytest.mark.parametrize("one,other", [("alice", "alicia"), ("ælfred", "alfred"), ("Иван", "Ивана")])
def test_names_that_differ_stay_apart(one: str, other: str, make_user: Any) -> None:
    assert key(one) != key(other)
    make_user(one)
    assert _signup(other).status_code == 201


def test_vowel_signs_of_other_scripts_are_not_accents() -> None:
    """Devanagari's vowel signs are combining marks too, but letters of the name: राम (Ram) is not रम."""
    assert key("राम") != key("रम") and key("कमल") != key("कामल") and key("किरण") != key("करण")


def test_the_migration_gives_every_account_its_new_key_and_the_older_keeps_a_shared_one(
        make_user: Any, caplog: pytest.LogCaptureFixture) -> None:
    first, second, third = make_user("altpmeice"), make_user("solo"), make_user("other")
    # as before the migration: accented names had keys of their own
    UsernameKey.objects.filter(user=third).delete()
    third.username = "àltpmeice"
    type(third).objects.filter(pk=third.pk).update(username="àltpmeice")
    UsernameKey.objects.create(user=third, key="àltpmelce")
    UsernameKey.objects.filter(user=second).update(key="stale")
    migration = importlib.import_module("games.migrations.0007_username_keys_skeleton")
    with caplog.at_level(logging.WARNING, logger="games.migrations"):
        migration.recompute_keys(apps, connection.schema_editor())
    keys = dict(UsernameKey.objects.values_list("user_id", "key"))
    assert keys == {first.pk: "altpmelce", second.pk: "solo"}
    assert "'àltpmeice'" in caplog.text and f"user {third.pk}" in caplog.text
    assert _signup("ǎltpmeice").status_code == 400


@pytest.mark.parametrize("name", ["सुमन", "राम", "कुँवर", "क्षितिज", "Rām"])
def test_names_with_vowel_signs_are_accepted(name: str) -> None:
    """A Devanagari name is letters with their vowel signs and viramas (combining marks of the same script)."""
    r = _signup(name)
    assert r.status_code == 201, r.json()
    assert r.json()["username"] == name


@pytest.mark.parametrize("name", ["\u093eराम", "ab\u093e", "रा\u0301\u0301\u0301\u0301म", "a-\u0301b"])
def test_marks_out_of_place_are_refused(name: str) -> None:
    """A mark with no letter of its own script before it (or a pile of them) is not part of a name."""
    r = _signup(name)
    assert r.status_code == 400 and r.json()["errors"]["username"], r.json()
