"""Usernames: what may be one, and when two count as the same.

A username is 2 to 30 characters after NFKC normalisation: letters (with their combining marks: the vowel
signs of ``सुमन`` and ``राम``), the digits ``0``–``9`` and ``.``, ``_``, ``-``, with at least one letter.
Its letters come from one script (Latin, Cyrillic, Greek, …; Han may go with Hiragana
and Katakana, or with Hangul, or with Bopomofo), so ``аlice`` with a Cyrillic ``а`` is refused.
It is kept as typed (NFKC, case kept).

Two usernames are the same when their *keys* are equal. The key is a skeleton in the manner of Unicode's UTS #39:
the NFKC form, decomposed (NFD), without the accents and other combining marks on letters of the Latin, Greek and
Cyrillic scripts (``à``, ``ǎ``, ``é``, ``ạ`` are ``a``, ``a``, ``e``, ``a``; the vowel signs of Devanagari and
other scripts are letters of their own there and stay), then every letter that looks like a Latin letter or
digit replaced by it (Cyrillic ``а`` and Greek ``α`` by ``a``, from Unicode's confusables list via
``confusable_homoglyphs``; the Latin small capitals such as ``ᴇ`` and other letters Unicode names after a Latin
letter, such as ``ø``, by that letter), then case folded, then ``i``, ``1`` to ``l`` and ``0`` to ``o`` (a
capital ``I`` is an ``l`` in many fonts), then ``rn`` to ``m`` and ``vv`` to ``w``, then without the ``.``, ``_``
and ``-`` at either end (easily missed beside a name). So ``Alice``, ``ALICE``, ``A1ice``, ``аliсе`` (Cyrillic
look-alikes), ``àlice``, ``ạlice``, ``alicᴇ``, ``alice.`` and ``_alice_`` are one name, and ``Ilya`` and ``llya``
too. The key is stored, unique, beside each account (``games.accounts.models.UsernameKey``); migrations 0007 (accents
and small capitals) and 0015 (punctuation at the ends) computed it anew for every account.

The sign-up form, the API and the admin's user forms all apply ``validate`` (the forms through
``games.accounts.forms.UsernameField``, in place of the model field's ``UnicodeUsernameValidator``) and refuse a
name whose key is taken; ``HELP_TEXT`` says so.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

MIN_LENGTH, MAX_LENGTH = 2, 30
PUNCTUATION = "._-"
MAX_MARKS = 3  # combining marks on one letter (कुँ has two); more is a pile-up meant to hide the name
ALLOWED_DESCRIPTION = "2 to 30 letters (of one script), digits 0-9 and . _ -, with at least one letter"
# The rule as the forms show it (sign-up, the admin's user forms), translated.
HELP_TEXT = format_lazy(
    "{} {}", gettext_lazy("2 to 30 letters (of one script), digits 0-9 and . _ -, with at least one letter."),
    gettext_lazy("A name that looks like a taken one (Alice, ALICE, A1ice, alice.) is taken too."))
# Scripts that may share a name (besides Common: digits and punctuation).
SCRIPT_GROUPS = ({"HAN", "HIRAGANA", "KATAKANA"}, {"HAN", "HANGUL"}, {"HAN", "BOPOMOFO"})
FOLD = str.maketrans({"i": "l", "1": "l", "0": "o"})  # after case folding: I, i, l, 1 are one; O, o, 0 too
SEQUENCES = (("rn", "m"), ("vv", "w"))
# Scripts whose combining marks are accents on a letter (dropped from the key); elsewhere (Devanagari…) a mark
# is a vowel sign or the like, part of what the name says.
ACCENTED_SCRIPTS = {"LATIN", "GREEK", "CYRILLIC", "COMMON"}
# "LATIN LETTER SMALL CAPITAL E", "LATIN SMALL LETTER O WITH STROKE": a letter Unicode names after a Latin one.
_NAMED_AFTER = re.compile(r"^LATIN (?:SMALL |CAPITAL )?LETTER (?:SMALL CAPITAL |SMALL )?([A-Z])(?: WITH .*)?$")


def normalize(username: str) -> str:
    """The form a username is stored in: NFKC, surrounding spaces dropped."""
    return unicodedata.normalize("NFKC", username).strip()


def _script(char: str) -> str:
    from confusable_homoglyphs import categories  # type: ignore[import-untyped]

    return str(categories.alias(char))


def _joins_letter(name: str, i: int) -> bool:
    """Whether ``name[i]`` is a combining mark (a vowel sign, a virama, a candrabindu: ``सुमन``, ``राम``) on a
    letter of its own script, directly or after other marks of that letter."""
    if unicodedata.category(name[i]) not in ("Mn", "Mc", "Me"):
        return False
    j = i - 1
    while j >= 0 and unicodedata.category(name[j]) in ("Mn", "Mc", "Me"):
        j -= 1
    if j < 0 or not name[j].isalpha() or i - j > MAX_MARKS:
        return False
    return _script(name[i]) in (_script(name[j]), "INHERITED")


def validate(username: str) -> str:
    """The normalized username, or ``ValidationError`` (code ``bad_username``) saying what is wrong."""
    name = normalize(username)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise ValidationError(_("A username is %(min)d to %(max)d characters long.") %
                              {"min": MIN_LENGTH, "max": MAX_LENGTH}, code="bad_username")
    bad = [c for i, c in enumerate(name)
           if not (c.isalpha() or c in "0123456789" or c in PUNCTUATION or _joins_letter(name, i))]
    if bad:
        raise ValidationError(_("Use letters, digits 0-9 and . _ - only (not %(chars)s).") %
                              {"chars": " ".join(repr(c) for c in dict.fromkeys(bad))}, code="bad_username")
    letters = [c for c in name if c.isalpha()]
    if not letters:
        raise ValidationError(_("A username needs at least one letter."), code="bad_username")
    scripts = {_script(c) for c in letters} - {"COMMON"}
    if len(scripts) > 1 and not any(scripts <= group for group in SCRIPT_GROUPS):
        raise ValidationError(_("Use the letters of one script (not a mix such as %(scripts)s).") %
                              {"scripts": ", ".join(sorted(s.title() for s in scripts))}, code="bad_username")
    return name


@cache
def _prototypes() -> dict[str, str]:
    """Each non-ASCII character that looks like an ASCII letter or digit, mapped to that character
    (lower case preferred)."""
    from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

    candidates: dict[str, set[str]] = {}
    for key, homoglyphs in confusables_data.items():
        key = key.replace("\u200e", "")
        for entry in homoglyphs:
            other = str(entry["c"]).replace("\u200e", "")
            if len(key) != 1 or len(other) != 1:
                continue
            for char, glyph in ((key, other), (other, key)):
                if not char.isascii() and glyph.isascii() and glyph.isalnum():
                    candidates.setdefault(char, set()).add(glyph)
    return {char: min(glyphs, key=lambda g: (not g.islower(), not g.isupper(), g))
            for char, glyphs in candidates.items()}


def _without_accents(name: str) -> str:
    """``name`` decomposed, without the combining marks that follow a letter of an ``ACCENTED_SCRIPTS`` script."""
    kept: list[str] = []
    base = "COMMON"
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.category(char) in ("Mn", "Me"):
            if base in ACCENTED_SCRIPTS:
                continue
        else:
            base = _script(char)
        kept.append(char)
    return "".join(kept)


@cache
def _look_alike(char: str) -> str:
    """The ASCII letter or digit ``char`` looks like, or ``char``."""
    prototype = _prototypes().get(char)
    if prototype is not None:
        return prototype
    if char.isascii():
        return char
    named = _NAMED_AFTER.match(unicodedata.name(char, ""))
    return named.group(1).lower() if named else char


def key(username: str) -> str:
    """The look-alike-proof, case-blind, accent-blind key of a username (its skeleton): equal keys, same name."""
    name = "".join(_look_alike(c) for c in _without_accents(normalize(username)))
    name = name.casefold().translate(FOLD)
    for sequence, single in SEQUENCES:
        name = name.replace(sequence, single)
    return unicodedata.normalize("NFC", name.strip(PUNCTUATION))
