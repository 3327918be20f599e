"""The reference docs are checked against the engine: ``docs/fairness.md``'s test vectors and
independent snippet, ``docs/rules.md``'s codes, examples and citations.  No database, no Django.

Changing a vector, an example or a score in the docs (or the engine behind them) fails a test here.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import engine
from engine.deal import dealer_of_deal

DOCS = Path(__file__).resolve().parents[2] / "docs"
FAIRNESS = DOCS / "fairness.md"
RULES = DOCS / "rules.md"
ENGINE_DIR = Path(engine.__file__).parent

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
#: The specification's own seeds: their vectors must stay in the doc.
SPEC_SEEDS = ("example-seed", "callbreak-2026")


# --- parsing docs/fairness.md ------------------------------------------------------------------

@dataclass
class Vector:
    seed: str
    commitment: str | None = None
    first_dealer: int | None = None
    decks: dict[tuple[int, int], list[str]] = field(default_factory=dict)  # (deal, dealer) -> deck
    hands: dict[tuple[int, int, int], list[str]] = field(default_factory=dict)  # (deal, dealer, seat) -> hand


def fenced_block(text: str, info: str) -> str:
    blocks = re.findall(rf"^```{re.escape(info)}[ \t]*\n(.*?)^```[ \t]*$", text, re.M | re.S)
    assert len(blocks) == 1, f"expected exactly one ```{info} block in {FAIRNESS.name}, found {len(blocks)}"
    return blocks[0]


def parse_vectors(block: str) -> list[Vector]:
    vectors: list[Vector] = []
    for lineno, line in enumerate(block.splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        where = f"vector line {lineno}: {line!r}"
        if words[0] == "seed":
            assert len(words) >= 2, where
            vectors.append(Vector(seed=line.split(None, 1)[1].strip()))
            continue
        assert vectors, f"{where}: a vector starts with a 'seed' line"
        v = vectors[-1]
        if words[0] == "commitment":
            assert len(words) == 2 and re.fullmatch(r"[0-9a-f]{64}", words[1]), where
            v.commitment = words[1]
        elif words[0] == "first_dealer":
            assert len(words) == 2 and words[1] in "0123", where
            v.first_dealer = int(words[1])
        elif words[0] == "deal":
            assert len(words) >= 5 and words[2] == "dealer", where
            number, dealer = int(words[1]), int(words[3])
            assert 1 <= number <= 5 and 0 <= dealer <= 3, where
            if words[4] == "deck":
                cards = words[5:]
                assert len(cards) == 52 and len(set(cards)) == 52, f"{where}: a deck has 52 distinct cards"
                v.decks[number, dealer] = cards
            elif words[4] == "seat":
                seat, cards = int(words[5]), words[6:]
                assert 0 <= seat <= 3, where
                assert len(cards) == 13 and len(set(cards)) == 13, f"{where}: a hand has 13 distinct cards"
                v.hands[number, dealer, seat] = cards
            else:
                pytest.fail(f"{where}: expected 'deck' or 'seat'")
            assert all(CARD.match(c) for c in cards), f"{where}: not all cards are in the notation"
        else:
            pytest.fail(f"{where}: unknown keyword {words[0]!r}")
    return vectors


FAIRNESS_TEXT = FAIRNESS.read_text(encoding="utf-8")
VECTORS = parse_vectors(fenced_block(FAIRNESS_TEXT, "callbreak-vectors"))


def vector_id(v: Vector) -> str:
    return v.seed.encode("unicode_escape").decode()


def test_the_vectors_are_there() -> None:
    seeds = [v.seed for v in VECTORS]
    assert len(seeds) == len(set(seeds)), "a seed appears twice"
    for seed in SPEC_SEEDS:
        assert seed in seeds, f"the specification's vector for {seed!r} is missing from docs/fairness.md"
    assert len(VECTORS) >= 4
    assert sum(len(v.decks) for v in VECTORS) >= 2 and sum(len(v.hands) for v in VECTORS) >= 12


@pytest.mark.parametrize("v", VECTORS, ids=vector_id)
def test_engine_reproduces_the_vector(v: Vector) -> None:
    assert v.commitment is not None and v.first_dealer is not None, f"{v.seed!r}: commitment and first_dealer"
    assert v.decks or v.hands, f"{v.seed!r}: give at least one deck or hand"
    assert engine.seed_commitment(v.seed) == v.commitment
    assert engine.first_dealer(v.seed) == v.first_dealer
    for (number, dealer), deck in v.decks.items():
        assert dealer == dealer_of_deal(v.first_dealer, number), f"deal {number}: dealer"
        assert [engine.card_str(c) for c in engine.shuffled_deck(v.seed, number)] == deck, f"deal {number}: deck"
    for (number, dealer, seat), hand in v.hands.items():
        assert dealer == dealer_of_deal(v.first_dealer, number), f"deal {number}: dealer"
        assert engine.deal_strs(v.seed, number, dealer)[seat] == hand, f"deal {number} seat {seat}: hand"
    # A deck given with hands of the same deal must agree with the dealing rule too.
    for (number, dealer, seat), hand in v.hands.items():
        deck = v.decks.get((number, dealer))
        if deck is not None:
            assert hand == [deck[k] for k in range(52) if (dealer + 1 + k) % 4 == seat]


def test_a_new_match_deals_what_the_vectors_say() -> None:
    """The match itself (not only the deal functions) uses the published deal and dealer rotation."""
    v = next(v for v in VECTORS if v.seed == "example-seed")
    state = engine.new_match(v.seed)
    assert (state.seed_commitment, state.first_dealer, state.dealer) == (v.commitment, v.first_dealer, v.first_dealer)
    for (number, _dealer, seat), hand in v.hands.items():
        if number == 1:
            assert [engine.card_str(c) for c in state.dealt[seat]] == hand


def doc_snippet() -> dict[str, object]:
    section = FAIRNESS_TEXT.split("## Checking a deal without the engine", 1)[1]
    code = re.search(r"^```python\n(.*?)^```", section, re.M | re.S)
    assert code, "the standalone snippet of docs/fairness.md is missing"
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "docs/fairness.md", "exec"), namespace)  # our own doc, under test
    return namespace


@pytest.mark.parametrize("v", VECTORS, ids=vector_id)
def test_the_docs_own_snippet_reproduces_the_vector(v: Vector) -> None:
    """The algorithm as written in the doc, independent of engine/, gives the same vectors."""
    ns = doc_snippet()
    assert ns["commitment"](v.seed) == v.commitment  # type: ignore[operator]
    assert ns["first_dealer"](v.seed) == v.first_dealer  # type: ignore[operator]
    for (number, _dealer), deck in v.decks.items():
        assert ns["shuffled_deck"](v.seed, number) == deck  # type: ignore[operator]
    for (number, dealer, seat), hand in v.hands.items():
        assert ns["hands"](v.seed, number, dealer)[seat] == hand  # type: ignore[index,operator]


def test_the_rejection_vector_really_rejects() -> None:
    """At least one vector exercises the rejection step of the shuffle (the engine's slow path)."""
    import hashlib

    def needs_rejection(seed: str, number: int) -> bool:
        digests = b"".join(hashlib.sha256(f"{seed}:{number}:{k}".encode()).digest() for k in range(7))
        words = [int.from_bytes(digests[4 * i:4 * i + 4], "big") for i in range(51)]
        return any(x >= (2**32 // (i + 1)) * (i + 1) for x, i in zip(words, range(51, 0, -1), strict=True))

    assert any(needs_rejection(v.seed, n) for v in VECTORS for (n, _d) in v.decks)


# --- docs/rules.md -------------------------------------------------------------------------------

RULES_TEXT = RULES.read_text(encoding="utf-8")


def engine_error_codes() -> set[str]:
    """Every literal code the engine raises or declares: ``XError(msg, "code")`` and ``code = "..."``."""
    codes: set[str] = set()
    for path in ENGINE_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name.endswith(("Error", "IllegalAction")) and len(node.args) >= 2:
                    arg = node.args[1]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        codes.add(arg.value)
            elif (
                isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["code"]
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                codes.add(node.value.value)
    return codes


@pytest.mark.parametrize("code", engine.REASON_CODES)
def test_every_reason_code_is_documented(code: str) -> None:
    assert re.search(rf"^\| `{code}` \|", RULES_TEXT, re.M), f"reason code {code!r} has no row in docs/rules.md"


def test_every_error_code_is_documented() -> None:
    codes = engine_error_codes()
    assert {"not_your_turn", "wrong_phase", "bid_out_of_range", "card_not_in_hand"} <= codes  # the scan works
    missing = sorted(c for c in codes if f"`{c}`" not in RULES_TEXT)
    assert not missing, f"error codes not described in docs/rules.md: {missing}"


def resolve(name: str) -> str | None:
    """``None`` when ``engine.a.b.c`` names a module or an attribute chain under one; else why not."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            if importlib.util.find_spec(module_name) is None:
                continue
        except ImportError:  # a parent is not a package
            continue
        try:
            obj: object = importlib.import_module(module_name)
        except Exception as err:  # report it, whatever it is
            return f"{name} (importing {module_name} fails: {err!r})"
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return f"{name} ({module_name} has no {'.'.join(parts[cut:])})"
            obj = getattr(obj, attr)
        return None
    return f"{name} (no such module)"


def test_every_cited_engine_name_exists() -> None:
    cited = set(re.findall(r"`(engine(?:\.\w+)+)", RULES_TEXT + FAIRNESS_TEXT))
    assert len(cited) > 20
    unresolved = [why for why in map(resolve, sorted(cited)) if why]
    assert not unresolved, "docs cite engine names that do not resolve:\n" + "\n".join(unresolved)


def table_rows(text: str, header: str) -> list[list[str]]:
    start = text.index(header)
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert rows, f"no rows under {header!r}"
    return rows


def cards_in(cell: str) -> list[str]:
    return [] if cell == "—" else cell.strip("`").split()


PLAY_EXAMPLES = table_rows(RULES_TEXT, "| situation | hand | trick | legal | locked |")


@pytest.mark.parametrize("row", PLAY_EXAMPLES, ids=[r[0] for r in PLAY_EXAMPLES])
def test_rules_play_example(row: list[str]) -> None:
    situation, hand, trick, legal, locked = row
    first = situation.startswith("first trick")
    expected_locked: dict[str, str] = {}
    if locked != "—":
        for cards, code in re.findall(r"((?:`\w\w`(?:, )?)+): `(\w+)`", locked):
            for card in re.findall(r"`(\w\w)`", cards):
                expected_locked[card] = code
        assert expected_locked, f"cannot read the locked cell {locked!r}"
    assert engine.legal_plays(cards_in(hand), cards_in(trick), first) == cards_in(legal)
    assert engine.locked_plays(cards_in(hand), cards_in(trick), first) == expected_locked


def test_rules_trick_winner_examples() -> None:
    examples = re.findall(r"`((?:\w\w ){3}\w\w)` → the \S+ \(index (\d)", RULES_TEXT)
    assert len(examples) >= 3
    for trick, index in examples:
        assert engine.trick_winner(trick.split()) == int(index), trick


SCORE_ROWS = table_rows(RULES_TEXT, "| bid | won | tenths | shown |")


@pytest.mark.parametrize("row", SCORE_ROWS, ids=["/".join(r[:2]) for r in SCORE_ROWS])
def test_rules_score_example(row: list[str]) -> None:
    bid, won, tenths, shown = (cell.replace("−", "-") for cell in row)
    assert engine.deal_score(int(bid), int(won)) == int(tenths)
    assert engine.format_tenths(int(tenths)) == shown
