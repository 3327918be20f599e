"""The review of one seat of a finished match: every decision valued, labelled and summed up.

A finished match's replay (``callbreak-replay/1``) is replayed action by action; at each of the
seat's 70 decisions (5 bids, 65 cards) the seat's own :class:`~engine.views.PlayerView` at that
moment is handed to :func:`.evaluate.evaluate`, which sees nothing else.  Each decision draws its
sampled deals from a random source seeded by ``(seed, budget, seat, position in the log)`` alone, so
a decision's values do not depend on the decisions before it: an analysis can stop after any
decision and resume from the stored ones with an identical result, and the same replay, seat, seed
and budget always give the same document.

Values, losses and thresholds are integer tenths of a point inside; the document writes them as
points with one decimal (``"unit": "points"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import card_str, parse_card
from ..deal import DEALS_PER_MATCH
from ..match import Action, Bid, MatchState, apply, new_match
from ..replays import import_replay
from ..rules import MAX_BID, MIN_BID
from ..views import PlayerView, player_view
from .evaluate import WIN_SCALE, evaluate

FORMAT = "callbreak-analysis/1"
#: Sampled deals per decision (every distinct choice is played out in each of them): about 25 s of
#: one core for a seat's whole match (docs/performance.md).
DEFAULT_BUDGET = 400
#: The budget of a one-deal preview (``analyze_deal``): about 1 s a deal.
PREVIEW_BUDGET = 100
#: Label thresholds on the expected loss, in tenths of a point: a loss of 0.0 is "best"; below
#: GOOD "good"; below INACCURACY "inaccuracy"; below MISTAKE "mistake"; otherwise "blunder".
#: GOOD (0.5) is above what the sampling alone gives a loss at the default budget (99th percentile
#: 0.1 for choices a 4x budget finds best; two seeds differ by at most 0.5 in 99% of decisions:
#: docs/analysis.md); a mistake costs as much as failing a bid of 1 instead of making it (2.0), a
#: blunder as much as failing a bid of 2 (4.0).
GOOD = 5
INACCURACY = 20
MISTAKE = 40
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Labels that count as accurate in the summaries' ``accuracy``.
ACCURATE = ("best", "good")

Progress = Callable[[int, int], None]


def label_for(loss: int) -> str:
    """The label of a decision that lost ``loss`` tenths in expectation.

    >>> [label_for(x) for x in (0, 4, 5, 19, 20, 39, 40)]
    ['best', 'good', 'inaccuracy', 'inaccuracy', 'mistake', 'mistake', 'blunder']
    """
    if loss <= 0:
        return "best"
    if loss < GOOD:
        return "good"
    if loss < INACCURACY:
        return "inaccuracy"
    if loss < MISTAKE:
        return "mistake"
    return "blunder"


def points(tenths: int) -> float:
    """Integer tenths as a one-decimal number of points: ``-42 -> -4.2``."""
    return tenths / 10


def _tenths(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: {value!r} is not a number of points")
    return round(value * 10)


# --- Decision points --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision of the reviewed seat: its view just before, and what it did."""

    index: int      # 0-based, in the order the seat made its decisions
    version: int    # actions in the log before it (its position in the replay)
    view: PlayerView
    action: Action

    @property
    def kind(self) -> str:
        return "bid" if isinstance(self.action, Bid) else "card"

    @property
    def deal(self) -> int:
        return self.view.deal_number

    @property
    def trick(self) -> int | None:
        return None if self.kind == "bid" else self.view.trick_number

    @property
    def played(self) -> int | str:
        return self.action.bid if isinstance(self.action, Bid) else self.action.card


def check_seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError(f"a seat is 0, 1, 2 or 3, not {seat!r}")
    return seat


def decision_points(replay_doc: Mapping[str, Any], seat: int) -> list[DecisionPoint]:
    """The seat's 70 decisions in order (the replay is verified first: ``VerifyError`` otherwise)."""
    check_seat(seat)
    imported = import_replay(replay_doc)
    state: MatchState = new_match(imported.state.seed)
    out: list[DecisionPoint] = []
    for version, action in enumerate(imported.actions):
        if action.seat == seat:
            out.append(DecisionPoint(len(out), version, player_view(state, seat), action))
        state = apply(state, action)
    return out


# --- Decisions --------------------------------------------------------------------------------

def _spell(kind: str, choice: int) -> int | str:
    return choice if kind == "bid" else card_str(choice)


def _key(kind: str, choice: int) -> str:
    return str(_spell(kind, choice))


def _choice(kind: str, key: object) -> int:
    """A choice's number from its spelling (a bid as int or string, a card like "QH")."""
    if kind == "bid":
        b = int(key) if isinstance(key, (int, str)) and not isinstance(key, bool) else 0
        if not MIN_BID <= b <= MAX_BID:
            raise ValueError(f"{key!r} is not a bid")
        return b
    return parse_card(key)


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision.  ``values`` (choice -> expected value) and ``loss`` are integer tenths;
    ``win`` is the chance of winning the match per choice in the fifth deal (None before);
    ``equivalent`` maps a choice to the other legal cards it stands for; a ``forced`` decision (one
    legal choice, or all equivalent) has no values and no label."""

    index: int
    version: int
    deal: int
    kind: str
    trick: int | None
    played: int | str
    best: int | str
    loss: int
    label: str | None
    forced: bool
    values: dict[str, int] = field(default_factory=dict)
    win: dict[str, float] | None = None
    equivalent: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "version": self.version,
            "deal": self.deal,
            "kind": self.kind,
            "trick": self.trick,
            "played": self.played,
            "best": self.best,
            "loss": points(self.loss),
            "label": self.label,
            "forced": self.forced,
            "values": {k: points(v) for k, v in self.values.items()},
            "win_chance": dict(self.win) if self.win is not None else None,
            "equivalent": {k: list(v) for k, v in self.equivalent.items()},
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Decision:
        """A decision as :meth:`to_json` wrote it (what the site stores to resume an analysis)."""
        try:
            kind = obj["kind"]
            if kind not in ("bid", "card"):
                raise ValueError(f"kind {kind!r}")
            label = obj["label"]
            if label is not None and label not in LABELS:
                raise ValueError(f"label {label!r}")
            win = obj.get("win_chance")
            return cls(
                index=int(obj["index"]), version=int(obj["version"]), deal=int(obj["deal"]), kind=kind,
                trick=None if obj.get("trick") is None else int(obj["trick"]),
                played=_spell(kind, _choice(kind, obj["played"])), best=_spell(kind, _choice(kind, obj["best"])),
                loss=_tenths(obj["loss"], "loss"), label=label, forced=bool(obj["forced"]),
                values={_key(kind, _choice(kind, k)): _tenths(v, "values") for k, v in obj["values"].items()},
                win=None if win is None else {_key(kind, _choice(kind, k)): float(v) for k, v in win.items()},
                equivalent={_key(kind, _choice(kind, k)): [card_str(parse_card(c)) for c in v]
                            for k, v in obj.get("equivalent", {}).items()},
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"not a stored decision: {err!r}") from err


def _strength(kind: str, choice: int) -> int:
    """Cheapness for breaking ties between equal values: the lower bid, the weaker card."""
    if kind == "bid":
        return choice
    return choice % 13 + (13 if choice < 13 else 0)


def decide_point(point: DecisionPoint, budget: int, rng: random.Random) -> Decision:
    """Value one decision point and label it.

    Values are rounded to whole tenths first; the best choice is the highest, ties going to the
    choice played, then to the cheapest (the lower bid, the weaker card); the loss is the best value
    minus the value of the choice played, so the document's numbers always add up.
    """
    kind = point.kind
    played = point.action.bid if isinstance(point.action, Bid) else parse_card(point.action.card)
    val = evaluate(point.view, budget, rng, played)
    equivalent = {_key(kind, c): [card_str(x) for x in k if x != c] for c, k in val.classes.items() if len(k) > 1}
    values = {c: round(v) for c, v in val.values.items()}
    if values:
        top = max(values.values())
        best = played if values[played] == top else min(
            (c for c in values if values[c] == top), key=lambda c: _strength(kind, c))
    else:
        top = best = played
    loss = top - values[played] if values else 0
    return Decision(
        index=point.index, version=point.version, deal=point.deal, kind=kind, trick=point.trick,
        played=point.played, best=_spell(kind, best), loss=loss, label=label_for(loss) if values else None,
        forced=not values,
        values={_key(kind, c): values[c] for c in sorted(values)},
        win=None if val.win is None else {_key(kind, c): round(val.win[c], 4) for c in sorted(val.win)},
        equivalent=equivalent,
    )


def decision_rng(seed: str, budget: int, seat: int, version: int) -> random.Random:
    """The random source of one decision: from the analysis inputs and the decision's place only."""
    return random.Random(f"{FORMAT}:{seed}:{budget}:{seat}:{version}")


def _check_budget(budget: object) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(f"a budget is a whole number of sampled deals >= 1, not {budget!r}")
    return budget


def iter_decisions(
    replay_doc: Mapping[str, Any], seat: int, *, budget: int = DEFAULT_BUDGET, seed: str = "0", start: int = 0,
    deal: int | None = None,
) -> Iterator[Decision]:
    """The seat's decisions one at a time, in the order made, from decision ``start`` on (only those
    of deal ``deal`` if given).  Forced decisions cost nothing."""
    _check_budget(budget)
    for point in decision_points(replay_doc, seat):
        if point.index < start or deal is not None and point.deal != deal:
            continue
        yield decide_point(point, budget, decision_rng(str(seed), budget, seat, point.version))


# --- Summaries and the document ---------------------------------------------------------------

def summarize(decisions: Sequence[Decision]) -> dict[str, Any]:
    """Counts, accuracy and points lost (bids, cards, total) over ``decisions``."""
    rated = [d for d in decisions if not d.forced]
    labels = {name: sum(1 for d in rated if d.label == name) for name in LABELS}
    accurate = sum(labels[name] for name in ACCURATE)
    lost_bids = sum(d.loss for d in rated if d.kind == "bid")
    lost_cards = sum(d.loss for d in rated if d.kind == "card")
    return {
        "decisions": len(decisions),
        "rated": len(rated),
        "forced": len(decisions) - len(rated),
        "accuracy": round(100 * accurate / len(rated), 1) if rated else None,
        "loss": {"bids": points(lost_bids), "cards": points(lost_cards), "total": points(lost_bids + lost_cards)},
        "labels": labels,
    }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The review of one seat: its decisions and their summaries; :meth:`to_json` is the document."""

    match_id: str
    seat: int
    budget: int
    seed: str
    decisions: tuple[Decision, ...]
    scores: tuple[int, ...] = ()   # the seat's score in each deal of the match, tenths

    def summary(self) -> dict[str, Any]:
        out = summarize(self.decisions)
        deals = []
        for n in sorted({d.deal for d in self.decisions}):
            s = summarize([d for d in self.decisions if d.deal == n])
            s = {"deal": n, **s}
            if len(self.scores) >= n:
                s["score"] = points(self.scores[n - 1])
            deals.append(s)
        out["deals"] = deals
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "match_id": self.match_id,
            "seat": self.seat,
            "unit": "points",
            "budget": self.budget,
            "seed": self.seed,
            "win_scale": points(WIN_SCALE),
            "thresholds": {"good": points(GOOD), "inaccuracy": points(INACCURACY), "mistake": points(MISTAKE)},
            "decisions": [d.to_json() for d in self.decisions],
            "summary": self.summary(),
        }


def _deal_scores(replay_doc: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    return tuple(round(float(d["scores"][seat]) * 10) for d in replay_doc["deals"])


def _resume(points_: Sequence[DecisionPoint], done: Sequence[Decision | Mapping[str, Any]]) -> list[Decision]:
    """Stored decisions, checked against the replay (same order, same kind and same play)."""
    out = [d if isinstance(d, Decision) else Decision.from_json(d) for d in done]
    if len(out) > len(points_):
        raise ValueError(f"{len(out)} stored decisions for {len(points_)} decisions")
    for d, p in zip(out, points_, strict=False):
        if (d.index, d.version, d.kind, d.played) != (p.index, p.version, p.kind, p.played):
            raise ValueError(f"stored decision {d.index} does not match the replay")
    return out


def analyze_seat(
    replay_doc: Mapping[str, Any], seat: int, *, budget: int = DEFAULT_BUDGET, seed: str = "0",
    progress: Progress | None = None, resume_from: Sequence[Decision | Mapping[str, Any]] = (),
) -> Analysis:
    """The review of ``seat`` (0..3) over the whole match of ``replay_doc``.

    ``progress(done, total)`` is called after every decision (and once at the start with the
    decisions already done).  ``resume_from``: the decisions of an interrupted run (``Decision`` or
    their JSON), which are kept as they are; the result is identical to an uninterrupted run.
    """
    check_seat(seat)
    _check_budget(budget)
    pts = decision_points(replay_doc, seat)
    decisions = _resume(pts, resume_from)
    total = len(pts)
    if progress is not None:
        progress(len(decisions), total)
    for point in pts[len(decisions):]:
        decisions.append(decide_point(point, budget, decision_rng(str(seed), budget, seat, point.version)))
        if progress is not None:
            progress(len(decisions), total)
    return Analysis(str(replay_doc.get("match_id", "")), seat, budget, str(seed), tuple(decisions),
                    _deal_scores(replay_doc, seat))


def analyze_deal(
    replay_doc: Mapping[str, Any], seat: int, deal: int, *, budget: int = PREVIEW_BUDGET, seed: str = "0",
) -> Analysis:
    """A quick review of one deal (1..5) of ``seat``, by default at the small preview budget."""
    check_seat(seat)
    if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= DEALS_PER_MATCH:
        raise ValueError(f"a deal is 1..{DEALS_PER_MATCH}, not {deal!r}")
    decisions = tuple(iter_decisions(replay_doc, seat, budget=budget, seed=seed, deal=deal))
    return Analysis(str(replay_doc.get("match_id", "")), seat, budget, str(seed), decisions,
                    _deal_scores(replay_doc, seat))


def analysis_from_decisions(
    replay_doc: Mapping[str, Any], seat: int, decisions: Sequence[Decision | Mapping[str, Any]], *,
    budget: int = DEFAULT_BUDGET, seed: str = "0",
) -> Analysis:
    """The analysis (and so the document) from decisions stored one by one, e.g. from :func:`iter_decisions`."""
    pts = decision_points(replay_doc, seat)
    return Analysis(str(replay_doc.get("match_id", "")), seat, budget, str(seed), tuple(_resume(pts, decisions)),
                    _deal_scores(replay_doc, seat))
