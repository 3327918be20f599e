"""Post-game analysis (engine/analysis): known answers, view-only values, determinism, the document, the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine.analysis.review as review
from engine import (
    ANALYSIS_FORMAT,
    Bid,
    Play,
    analysis_from_decisions,
    analyze_deal,
    analyze_seat,
    apply,
    export_replay,
    iter_decisions,
    new_match,
    player_view,
)
from engine.analysis.evaluate import WIN_SCALE, card_classes, evaluate
from engine.analysis.review import (
    GOOD,
    INACCURACY,
    LABELS,
    MISTAKE,
    DecisionPoint,
    decide_point,
    decision_points,
    label_for,
)
from engine.bots import decide
from engine.bots.inference import forbidden_by_play
from engine.bots.strong import distinct_cards
from engine.cards import FULL_DECK, SPADES_MASK, cards_to_mask, mask_cards, parse_card
from engine.errors import VerifyError
from engine.match import MatchState
from engine.rules import deal_score, legal_mask, trick_winner_index
from engine.views import PlayerView
from tests.engine.positions import shuffled_twin

ROOT = Path(__file__).resolve().parents[2]


def bot_match(seed: str, seats: tuple[str, str, str, str] = ("heuristic",) * 4) -> MatchState:
    state = new_match(seed)
    while not state.is_finished:
        seat = state.turn
        assert seat is not None
        state = apply(state, decide(seats[seat], player_view(state, seat), seed))
    return state


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return export_replay(bot_match("analysis-a"), match_id="analysis-a")


def with_hands(seed: str, hands: list[int]) -> MatchState:
    """A fresh match whose first deal is ``hands`` (masks by seat) instead of the seeded one."""
    state = new_match(seed)
    state.hands = list(hands)
    state.dealt = tuple(tuple(mask_cards(h)) for h in hands)
    return state


def masks(*hands: str) -> list[int]:
    return [cards_to_mask(h.split()) for h in hands]


# --- Known answers ----------------------------------------------------------------------------

#: A deal built so that at trick 12 the reviewed seat (R, who led trick 1) holds A♥ and 6♥, the seat
#: after it (D) surely holds 10♥ and no spade is left: A♥ wins this trick and then 6♥ the last one, 6♥
#: loses to 10♥ and then A♥ is discarded on D's club.  Seat A led 5♥ and showed on trick 3 that it
#: holds no heart above 9♥, B followed 5♥ with 3♥, so whatever the hidden cards, A♥ takes 2 tricks and
#: 6♥ none: with a bid of 5 and 3 tricks won, A♥ scores 5.0 and 6♥ -5.0, a loss of exactly 10.0.
R_HAND = "7H 8H AH 6H AD 3S 8S KS 5D TD 7C QC KD"
D_HAND = "KH 9H TH 2D 4S 9S TS 6D JD 8C 9C KC 4C"
A_HAND = "JH 2H 5H 3D 5S 6S JS AS 7D QD 5C TC 2C"
B_HAND = "4H QH 3H 4D 2S 7S QS 8D 9D 6C JC AC 3C"
ENDGAME_PLAYS = (
    "7H KH JH 4H  2D 3D 4D AD  8H 9H 2H QH  2S 3S 4S 5S  6S 7S 8S 9S  TS JS QS KS "
    "5D 6D 7D 8D  9D TD JD QD  5C 6C 7C 8C  9C TC JC QC  KD KC AS AC  5H 3H"
).split()


def endgame() -> tuple[MatchState, int]:
    state = new_match("known-endgame")
    me = (state.dealer + 1) % 4
    hands = [0, 0, 0, 0]
    for k, h in enumerate(masks(R_HAND, D_HAND, A_HAND, B_HAND)):
        hands[(me + k) % 4] = h
    state = with_hands("known-endgame", hands)
    for bid in (5, 3, 3, 2):
        assert state.turn is not None
        state = apply(state, Bid(state.turn, bid))
    for card in ENDGAME_PLAYS:
        assert state.turn is not None
        state = apply(state, Play(state.turn, card))
    assert state.turn == me and len(state.tricks) == 11 and state.tricks_won[me] == 3
    return state, me


def test_last_tricks_a_sure_winner_against_a_sure_loser_is_an_exact_blunder() -> None:
    state, me = endgame()
    view = player_view(state, me)
    assert sorted(mask_cards(view.legal_cards)) == [parse_card("6H"), parse_card("AH")]
    for seed in range(3):
        val = evaluate(view, 12, random.Random(seed), parse_card("6H"))
        assert val.values == pytest.approx({parse_card("6H"): deal_score(5, 3), parse_card("AH"): deal_score(5, 5)})
    point = DecisionPoint(0, state.version, view, Play(me, "6H"))
    d = decide_point(point, 12, random.Random(1))
    assert (d.played, d.best, d.loss, d.label, d.forced) == ("6H", "AH", 100, "blunder", False)
    assert d.to_json()["values"] == {"6H": -5.0, "AH": 5.0} and d.to_json()["loss"] == 10.0
    good = decide_point(DecisionPoint(0, state.version, view, Play(me, "AH")), 12, random.Random(1))
    assert (good.best, good.loss, good.label) == ("AH", 0, "best")


def test_thirteen_spades_bid_thirteen() -> None:
    state = new_match("thirteen-spades")
    me = state.turn
    assert me is not None
    rest = [c for c in range(13, 52)]
    random.Random(4).shuffle(rest)
    hands = [0, 0, 0, 0]
    others = [s for s in range(4) if s != me]
    for i, s in enumerate(others):
        hands[s] = sum(1 << c for c in rest[13 * i: 13 * (i + 1)])
    hands[me] = SPADES_MASK
    view = player_view(with_hands("thirteen-spades", hands), me)
    val = evaluate(view, 6, random.Random(0), 6)
    # 13 tricks whatever the others hold: bid b scores b + 0.1 (13 - b)
    assert val.values == pytest.approx({b: deal_score(b, 13) for b in range(1, 14)})
    d = decide_point(DecisionPoint(0, 0, view, decide("heuristic", view, 0)), 6, random.Random(0))
    assert d.best == 13 and d.values["13"] == 130 and d.label == label_for(130 - d.values[str(d.played)])


def _mirrored_continuations(view: PlayerView, a: int, b: int, rng: random.Random, hands: list[int]) -> None:
    """Play ``a`` and, in a twin deal, ``b``; continue the first deal at random to its end and the twin
    with the same cards, ``a`` and ``b`` swapped: every swapped card is legal in the twin, every trick
    goes to the same seat, and every play tells the table the same (up to the swap)."""
    me = view.seat
    assert me is not None
    swap = {a: b, b: a}
    h1, h2 = list(hands), list(hands)
    h1[me] ^= 1 << a
    h2[me] ^= 1 << b
    t1, t2 = [*view.trick, a], [*view.trick, b]
    first = view.first_trick
    leader = view.trick_leader
    # The cards from a to b are the seat's own or played: a reading about them tells nobody anything.
    span = ((1 << (max(a, b) + 1)) - 1) & ~((1 << min(a, b)) - 1)
    assert not span & ~(view.hand | view.played | (1 << a) | (1 << b))
    while True:
        if len(t1) == 4:
            w1, w2 = trick_winner_index(t1), trick_winner_index(t2)
            assert w1 == w2
            leader = (leader + w1) % 4
            t1, t2, first = [], [], False
        if not h1[leader] and not t1:
            return
        seat = (leader + len(t1)) % 4
        c = rng.choice(mask_cards(legal_mask(h1[seat], t1, first)))
        c2 = swap.get(c, c) if seat == me else c
        assert legal_mask(h2[seat], t2, first) >> c2 & 1
        no1, no2 = forbidden_by_play(t1, c, first), forbidden_by_play(t2, c2, first)
        assert no1 & ~span == no2 & ~span
        h1[seat] ^= 1 << c
        h2[seat] ^= 1 << c2
        t1.append(c)
        t2.append(c2)


def test_equivalent_cards_are_valued_once_and_really_are_equivalent(doc: dict[str, Any]) -> None:
    hand = cards_to_mask("7H 8H TH 2S 3S 5S KD".split())
    unseen = FULL_DECK & ~hand & ~cards_to_mask(["9H", "4S"])
    assert card_classes(hand, unseen) == [
        tuple(parse_card(c) for c in k.split()) for k in ("2S 3S 5S", "7H 8H TH", "KD")]
    state = bot_match("analysis-a")
    checked = 0
    for seat in (0, 2):
        for point in decision_points(doc, seat):
            if point.kind != "card":
                continue
            view = point.view
            unseen = FULL_DECK & ~view.played & ~view.hand
            classes = card_classes(view.legal_cards, unseen)
            assert [k[0] for k in classes] == distinct_cards(mask_cards(view.legal_cards), unseen)
            played = parse_card(str(point.played))
            val = evaluate(view, 4, random.Random(point.version), played)
            if len(classes) == 1:
                assert not val.values  # forced: nothing to compare
                continue
            # One value per class, for the card played if it is in the class, else the lowest.
            assert sorted(val.values) == sorted(val.classes)
            assert sorted(val.values) == sorted(played if played in k else k[0] for k in classes)
            # Sound: whatever is played next, by anyone, a card of a class can be swapped for any
            # other of its class with the same legality, tricks and readings (the real hidden hands).
            deal = state.completed[view.deal_number - 1]
            hidden = [sum(1 << c for c in deal.dealt[s]) & ~view.played for s in range(4)]
            rng = random.Random(point.version)
            for k in classes:
                for a, b in zip(k, k[1:], strict=False):
                    for _ in range(5):
                        _mirrored_continuations(view, a, b, rng, hidden)
                    checked += 1
    assert checked >= 10


def test_forced_plays_are_never_labelled_and_cost_nothing(doc: dict[str, Any]) -> None:
    analysis = analyze_seat(doc, 1, budget=3)
    points = decision_points(doc, 1)
    forced = 0
    for d, p in zip(analysis.decisions, points, strict=True):
        if p.kind == "bid":
            assert not d.forced and d.label in LABELS
            continue
        unseen = FULL_DECK & ~p.view.played & ~p.view.hand
        single = len(card_classes(p.view.legal_cards, unseen)) == 1
        assert d.forced == single
        if single:
            forced += 1
            assert (d.label, d.loss, d.values, d.best) == (None, 0, {}, d.played)
    assert forced >= 5
    assert analysis.decisions[-1].forced  # the 13th card


def test_labels_follow_the_thresholds() -> None:
    assert 0 < GOOD < INACCURACY < MISTAKE
    assert [label_for(x) for x in (0, GOOD - 1, GOOD, INACCURACY, MISTAKE)] == [
        "best", "good", "inaccuracy", "mistake", "blunder"]


# --- The view only --------------------------------------------------------------------------


def test_values_never_depend_on_the_hidden_hands() -> None:
    rng = random.Random(7)
    state = new_match("hidden-hands")
    checked = 0
    while state.deal_number == 1:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        if state.phase == "bidding" or len(state.tricks) in (1, 5, 9):
            twin = shuffled_twin(state, seat, rng)
            assert twin.hands != state.hands
            twin_view = player_view(twin, seat)
            assert twin_view == view
            a = evaluate(view, 5, random.Random(3))
            b = evaluate(twin_view, 5, random.Random(3))
            assert a == b
            checked += 1
        state = apply(state, decide("heuristic", view, 1))
    assert checked >= 8


def test_the_analysis_reads_nothing_but_the_seats_views(doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every evaluation gets the seat's own view at that moment (checked on the calls made)."""
    seen: list[Any] = []
    real = review.evaluate

    def spy(view: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(view)
        return real(view, *args, **kwargs)

    monkeypatch.setattr(review, "evaluate", spy)
    list(iter_decisions(doc, 2, budget=1, deal=2))
    assert len(seen) == 14 and all(v.seat == 2 and v.my_turn for v in seen)


# --- Determinism, resuming, the document --------------------------------------------------------

def test_same_inputs_same_document_and_resuming_changes_nothing(doc: dict[str, Any]) -> None:
    full = analyze_seat(doc, 0, budget=4, seed="s").to_json()
    assert json.dumps(analyze_seat(doc, 0, budget=4, seed="s").to_json()) == json.dumps(full)
    assert analyze_seat(doc, 0, budget=4, seed="t").to_json()["decisions"] != full["decisions"]
    calls: list[tuple[int, int]] = []
    stored = json.loads(json.dumps(full["decisions"][:23]))  # as a site stores them
    resumed = analyze_seat(doc, 0, budget=4, seed="s", resume_from=stored,
                           progress=lambda done, total: calls.append((done, total)))
    assert resumed.to_json() == full
    assert calls == [(n, 70) for n in range(23, 71)]
    rest = [d.to_json() for d in iter_decisions(doc, 0, budget=4, seed="s", start=23)]
    assert rest == full["decisions"][23:]
    assert analysis_from_decisions(doc, 0, stored + rest, budget=4, seed="s").to_json() == full
    with pytest.raises(ValueError, match="does not match"):
        analyze_seat(doc, 1, budget=4, seed="s", resume_from=stored)  # another seat's decisions
    with pytest.raises(ValueError, match="not a stored decision"):
        analyze_seat(doc, 0, budget=4, seed="s", resume_from=[{"kind": "bid"}])


def test_the_document(doc: dict[str, Any]) -> None:
    out = analyze_seat(doc, 3, budget=3).to_json()
    assert out["format"] == ANALYSIS_FORMAT == "callbreak-analysis/1"
    assert (out["match_id"], out["seat"], out["unit"]) == ("analysis-a", 3, "points")
    decisions = out["decisions"]
    assert len(decisions) == 70
    assert [d["version"] for d in decisions] == sorted(d["version"] for d in decisions)
    bids = [b["bid"] for deal in doc["deals"] for b in deal["bids"] if b["seat"] == 3]
    cards = [p["card"] for deal in doc["deals"] for t in deal["tricks"] for p in t["plays"] if p["seat"] == 3]
    assert [d["played"] for d in decisions if d["kind"] == "bid"] == bids
    assert [d["played"] for d in decisions if d["kind"] == "card"] == cards
    for d in decisions:
        assert set(d) >= {"deal", "kind", "played", "best", "loss", "label", "values"}
        assert all(isinstance(k, str) for k in d["values"])
        assert all(round(v, 1) == v for v in [*d["values"].values(), d["loss"]])
        if not d["forced"]:
            assert str(d["best"]) in d["values"] and str(d["played"]) in d["values"]
            assert d["loss"] == round(d["values"][str(d["best"])] - d["values"][str(d["played"])], 1)
            assert (d["win_chance"] is not None) == (d["deal"] == 5)
            if d["win_chance"] is not None:  # the fifth deal: chance of winning the match, as points
                assert set(d["win_chance"]) == set(d["values"])
                for k, p in d["win_chance"].items():
                    assert 0 <= p <= 1 and abs(d["values"][k] - p * WIN_SCALE / 10) <= 0.051
        if d["kind"] == "bid":
            assert isinstance(d["played"], int) and isinstance(d["best"], int)
            assert d["values"] and set(d["values"]) == {str(b) for b in range(1, 14)}
    s = out["summary"]
    assert s["decisions"] == 70 and s["rated"] + s["forced"] == 70 and len(s["deals"]) == 5
    assert sum(s["labels"].values()) == s["rated"]
    assert s["loss"]["total"] == round(sum(d["loss"] for d in decisions), 1)
    assert [d["score"] for d in s["deals"]] == [deal["scores"][3] for deal in doc["deals"]]
    assert out["win_scale"] == WIN_SCALE / 10


def test_one_deal_preview(doc: dict[str, Any]) -> None:
    preview = analyze_deal(doc, 0, 3, budget=3)
    assert [d.deal for d in preview.decisions] == [3] * 14
    assert preview.decisions[0].kind == "bid"
    assert preview.to_json()["summary"]["deals"][0]["deal"] == 3
    with pytest.raises(ValueError):
        analyze_deal(doc, 0, 6)
    with pytest.raises(ValueError):
        analyze_seat(doc, 4)
    broken = json.loads(json.dumps(doc))
    broken["deals"][0]["tricks"][0]["winner"] = (broken["deals"][0]["tricks"][0]["winner"] + 1) % 4
    with pytest.raises(VerifyError):
        analyze_seat(broken, 0, budget=1)


# --- The CLI --------------------------------------------------------------------------------

def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_cli_analyze(tmp_path: Path) -> None:
    res = run("simulate", "--matches", "1", "--seats", "heuristic,random,heuristic,random", "--seed", "cli-an",
              "--out", str(tmp_path), "--quiet")
    assert res.returncode == 0, res.stderr
    replay = str(tmp_path / "cli-an-0.json")
    res = run("analyze", replay, "--seat", "1", "--json", "--budget", "3", "--seed", "x")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["format"] == "callbreak-analysis/1" and out["seat"] == 1 and len(out["decisions"]) == 70
    assert out == analyze_seat(json.loads(Path(replay).read_text()), 1, budget=3, seed="x").to_json()
    res = run("analyze", replay, "--seat", "1", "--budget", "3")
    assert res.returncode == 0, res.stderr
    assert "Deal 5" in res.stdout and "accuracy" in res.stdout and "forced" in res.stdout
    res = run("analyze", replay, "--seat", "2", "--deal", "4", "--json")
    assert res.returncode == 0, res.stderr
    assert {d["deal"] for d in json.loads(res.stdout)["decisions"]} == {4}
    res = run("analyze", replay, "--seat", "7")
    assert res.returncode == 2 and "seat" in res.stderr
    res = run("analyze", str(tmp_path / "missing.json"), "--seat", "0")
    assert res.returncode == 2 and "error" in res.stderr
