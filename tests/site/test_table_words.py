"""Words of the table in Hindi and Nepali, as a player reads them (issue 38): the queen is feminine ("ईंट की बेगम",
the card names of cards.js: the queen has her own "of" with the context "queen"); a Nepali postposition is written
onto the name it follows ("सीताले", not "सीता ले"); the live clock's time bank is extra time, not savings (बचत)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "frontend" / "locale"
CARDS_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "cards.js"


def catalogue(lang: str) -> gettext.GNUTranslations:
    with (LOCALE / lang / "LC_MESSAGES" / "djangojs.mo").open("rb") as fh:
        return gettext.GNUTranslations(fh)


def card(mo: gettext.GNUTranslations, rank: str, suit: str, *, queen: bool) -> str:
    of = mo.pgettext("queen", "%(rank)s of %(suit)s") if queen else mo.gettext("%(rank)s of %(suit)s")
    return of % {"rank": mo.gettext(rank), "suit": mo.gettext(suit)}


@pytest.mark.parametrize(("lang", "queen", "king"), [
    ("hi", "ईंट की बेगम", "ईंट का बादशाह"),
    ("ne", "ईंटकी रानी", "ईंटको बादशाह"),
])
def test_the_queen_is_feminine(lang: str, queen: str, king: str) -> None:
    mo = catalogue(lang)
    diamonds = mo.gettext("diamonds")
    assert card(mo, "Queen", "diamonds", queen=True) == queen.replace("ईंट", diamonds)
    assert card(mo, "King", "diamonds", queen=False) == king.replace("ईंट", diamonds)


def test_cards_js_names_a_queen_with_her_own_context() -> None:
    assert 'pgettext("queen", "%(rank)s of %(suit)s")' in CARDS_JS.read_text(encoding="utf-8")


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_nepali_postpositions_join_the_name(domain: str) -> None:
    text = (LOCALE / "ne" / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
    loose = re.findall(r'^msgstr ".*%\((?:name|names|host|suit)\)s (?:ले|को|लाई|का|की)[\s"।:…,].*$', text, re.M)
    assert not loose, loose
    assert catalogue("ne").gettext("%(name)s wins the trick") % {"name": "बोट सीता"} == "बोट सीताले हात जित्यो"


@pytest.mark.parametrize(("lang", "word"), [("hi", "अतिरिक्त समय"), ("ne", "थप समय")])
def test_the_time_bank_is_extra_time(lang: str, word: str) -> None:
    chip = catalogue(lang).gettext("%(clock)s · bank %(bank)s s") % {"clock": "0:14", "bank": 30}
    assert word in chip and "बचत" not in chip, chip
