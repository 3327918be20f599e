"""Every message has its translation in every language of the site (Simplified Chinese, Nepali, Hindi): the
`.po` files of both catalogues (templates and Python, and the scripts' `djangojs`), none empty or fuzzy,
the same placeholders as the English; and the committed `.mo` files say the same as their `.po`."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(__file__).resolve().parents[2] / "frontend" / "locale"
LANGS = ["zh_Hans", "ne", "hi"]
DOMAINS = ["django", "djangojs"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdf]")


def entries(path: Path) -> list[dict[str, object]]:
    """The entries of a .po file: msgid, msgid_plural, msgstr (or msgstr[n]) and flags; the header left out."""
    out: list[dict[str, object]] = []
    cur: dict[str, object] = {}
    field = ""

    def flush() -> None:
        if cur.get("msgid") not in (None, ""):
            out.append(dict(cur))
        cur.clear()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):  # obsolete
            continue
        if line.startswith("#,"):
            if "msgid" in cur:
                flush()
            cur["flags"] = {f.strip() for f in line[2:].split(",")}
            continue
        if not line or line.startswith("#"):
            continue
        m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
        if m:
            if m.group(1) in ("msgid", "msgctxt") and "msgstr" in "".join(k for k in cur if isinstance(k, str)):
                flush()
            field = m.group(1)
            cur[field] = ast.literal_eval(m.group(2))
        elif line.startswith('"'):
            cur[field] = str(cur[field]) + ast.literal_eval(line)
    flush()
    return out


def test_the_site_offers_the_languages() -> None:
    assert [code for code, _ in settings.LANGUAGES] == ["en", "zh-hans", "ne", "hi"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated(lang: str, domain: str) -> None:
    po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    found = entries(po)
    english = {str(e["msgid"]) for e in entries(LOCALE / "zh_Hans" / "LC_MESSAGES" / f"{domain}.po")}
    assert len(found) > 100, po
    assert {str(e["msgid"]) for e in found} == english, f"{po}: not the same messages as the Chinese catalogue"
    bad = []
    for e in found:
        strs = [v for k, v in e.items() if k.startswith("msgstr")]
        if "fuzzy" in e.get("flags", set()) or not strs or not all(strs):  # type: ignore[operator]
            bad.append(e["msgid"])
            continue
        want = set(PLACEHOLDER.findall(str(e["msgid"])))
        for s in strs:
            if set(PLACEHOLDER.findall(str(s))) != want:
                bad.append((e["msgid"], s))
    assert not bad, f"{po}: untranslated, fuzzy or with other placeholders: {bad}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_matches(lang: str, domain: str) -> None:
    """The .mo the site loads holds each translation of the .po (msgfmt was run after the last change)."""
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as fh:
        mo = gettext.GNUTranslations(fh)
    stale = []
    for e in entries(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"):
        if "msgid_plural" in e:
            got = mo.ngettext(str(e["msgid"]), str(e["msgid_plural"]), 1)
            want = e.get("msgstr[0]")
        elif "msgctxt" in e:  # a message with a context (pgettext)
            got, want = mo.pgettext(str(e["msgctxt"]), str(e["msgid"])), e.get("msgstr")
        else:
            got, want = mo.gettext(str(e["msgid"])), e.get("msgstr")
        if got != want:
            stale.append(e["msgid"])
    assert not stale, f"{lang}/{domain}.mo is older than its .po: {stale[:5]}"
