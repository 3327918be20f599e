"""The strong bot's play-outs: every card legal and the same tricks as through the engine; the
simulated seats choose exactly the heuristic bot's card; the bench's all-seeing variant is legal too."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.heuristic import choose_card
from engine.bots.inference import forbidden_by_play, knowledge
from engine.bots.playout import knowledge_limited_card, play_out
from engine.cards import card_str
from engine.match import MatchState, Play

ROOT = Path(__file__).resolve().parents[3]


def _greedy_playout():  # type: ignore[no-untyped-def]
    """``bench/greedy_playout.py`` (bench/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("greedy_playout", ROOT / "bench" / "greedy_playout.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _positions() -> list[tuple[MatchState, int]]:
    """Deal-1 positions part-way through play (heuristic bids, then random cards), with their match index."""
    rng = random.Random(11)
    out = []
    for m in range(30):
        state = new_match(f"simrules-{m}")
        while state.phase == "bidding":
            state = apply(state, decide("heuristic", player_view(state, state.turn), m))
        for _ in range(rng.randrange(0, 40)):
            seat = state.turn
            assert seat is not None
            state = apply(state, decide("random", player_view(state, seat), m))
        if state.deal_number == 1:
            out.append((state, m))
    return out


def test_playouts_agree_with_the_engine() -> None:
    for state, _ in _positions():
        bids = [b or 0 for b in state.bids]
        kn = knowledge(player_view(state, (state.trick_leader + len(state.trick)) % 4))
        won = play_out(state.hands, kn.public, state.trick_leader, state.trick, state.tricks_won, bids,
                       not state.tricks)
        # The same policy, card by card through the engine: every card legal, same tricks won.
        s = state
        public = list(kn.public)
        while s.deal_number == 1:
            seat = s.turn
            assert seat is not None
            first = not s.tricks
            c = knowledge_limited_card(s.hands, public, seat, s.trick_leader, list(s.trick), s.tricks_won, bids, first)
            public[seat] &= ~forbidden_by_play(s.trick, c, first)
            s = apply(s, Play(seat, card_str(c)))
        assert list(s.completed[0].tricks_won) == won


def test_the_bench_all_seeing_playouts_agree_with_the_engine() -> None:
    greedy = _greedy_playout()
    for state, _ in _positions():
        bids = [b or 0 for b in state.bids]
        won = greedy.greedy_play_out(state.hands, (), state.trick_leader, state.trick, state.tricks_won, bids,
                                     not state.tricks)
        s = state
        while s.deal_number == 1:
            seat = s.turn
            assert seat is not None
            c = greedy.policy_card(s.hands, seat, s.trick_leader, s.trick, s.tricks_won, bids, not s.tricks)
            s = apply(s, Play(seat, card_str(c)))
        assert list(s.completed[0].tricks_won) == won


def test_knowledge_limited_policy_is_the_heuristic() -> None:
    """The strong bot's simulated players choose, in the true deal, exactly the heuristic's card.

    ``knowledge_limited_card`` sees all four hands only to know what each seat could know: its own hand and the
    cards still unseen from it; ``pub`` holds the public readings.  Any peeking would show up as a
    disagreement with the heuristic, which decides from its view alone.
    """
    checked = 0
    for m in range(12):
        state = new_match(f"kl-policy-{m}")
        names = ["heuristic", "random", "heuristic", "easy"]
        while not state.is_finished:
            seat = state.turn
            assert seat is not None
            view = player_view(state, seat)
            if state.phase == "playing":
                kn = knowledge(view)
                bids = [b or 0 for b in view.bids]
                got = knowledge_limited_card(state.hands, kn.public, seat, view.trick_leader, list(view.trick),
                              list(view.tricks_won), bids, view.first_trick)
                assert got == choose_card(view, kn)
                checked += 1
            state = apply(state, decide(names[seat], view, m))
    assert checked == 12 * 5 * 52


def test_the_last_deal_pays_the_win_and_with_rank_the_places_behind_it() -> None:
    """Before the fifth deal a deal is worth its margin; in the fifth the match win (30 points), and with
    ``rank`` also each opponent finished below (half for a tie), so a seat that cannot win still plays for places."""
    from engine.bots.playout import utility

    bids = [3, 3, 3, 3]
    # scores in tenths: seat 0 makes 4 on 3 (3.1 points), the others make 3 exactly (3.0): a margin of 1 tenth
    won = [4, 3, 3, 3]
    assert utility(0, bids, won, [0, 0, 0, 0], False, 1) == 1
    # the fifth deal, seat 0 far behind: it cannot win; only a hundredth of its margin counts
    totals = [0, 500, 200, 100]
    assert utility(0, bids, won, totals, True, 5) == 0.01
    # with rank, the same deal from totals where seat 0 passes seat 3 but not 1 and 2
    totals = [90, 500, 200, 100]  # finals 121, 530, 230, 130: seat 0 is last
    assert utility(0, bids, won, totals, True, 5, rank=100.0) == 0.01
    totals = [100, 500, 200, 100]  # finals 131, 530, 230, 130: seat 0 beats seat 3
    assert utility(0, bids, won, totals, True, 5, rank=100.0) == 0.01 + 100.0
    totals = [99, 500, 200, 100]  # finals 130, 530, 230, 130: a tie with seat 3 counts half
    assert utility(0, bids, won, totals, True, 5, rank=100.0) == 0.01 + 50.0
    # the winner: the win, a fifth of its margin, and three opponents below
    totals = [600, 500, 200, 100]
    assert utility(0, bids, won, totals, True, 5) == 300.0 + 0.2
    assert utility(0, bids, won, totals, True, 5, rank=100.0) == 300.0 + 0.2 + 300.0
