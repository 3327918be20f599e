"""Writes of analyses: queue the review of every person's seat when a match finishes, and run one.

A run stores its decisions as it computes them, at most every ``STORE_EVERY_S`` (each store rewrites the
list and tells the people how far it is: once a decision, a review wrote its list seventy times over), so a
task that dies (a worker killed, a deploy) loses under half a second of work and resumes after the last
decision stored, giving the same document as an uninterrupted run (the engine decides each decision from
the replay, the seat and the analysis seed alone). Two runs of one analysis (a redelivered task) compute the
same decisions; only the first to store them moves on.
"""

from __future__ import annotations

import logging
import secrets
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine.analysis
from games.matches import presenters as match_presenters
from games.matches import store as match_store
from games.matches.models import Match, Seat
from games.platform import outbox

from .events import AnalysisProgress, AnalysisQueued
from .models import Analysis

log = logging.getLogger(__name__)

#: The longest a run computes before it stores its decisions and sends its progress.
STORE_EVERY_S = 0.5


def budget() -> int:
    """Sampled deals per decision (``ANALYSIS_BUDGET``; 0: the engine's default)."""
    return settings.ANALYSIS_BUDGET or engine.analysis.DEFAULT_BUDGET


def ensure(match: Match, seat: int) -> Analysis:
    """The analysis of ``seat`` of a finished match, queued now if there was none (matches that finished
    before analyses existed, or whose queueing was lost)."""
    with transaction.atomic():
        analysis, created = Analysis.objects.get_or_create(
            match=match, seat=seat, defaults={"budget": budget(), "seed": secrets.token_hex(8)})
        if created:
            outbox.emit(AnalysisQueued(analysis.pk))
    return analysis


def queue_for_match(match_id: int) -> list[int]:
    """An analysis of every person's seat of a finished match (idempotent: existing ones are kept)."""
    match = match_store.load(match_id)
    if match is None or match.status != Match.Status.FINISHED:
        return []
    return [ensure(match, seat.index).pk for seat in match_store.seats_of(match) if seat.kind == Seat.Kind.HUMAN]


def rerun(analysis: Analysis) -> None:
    """Staff: compute it again from the start (e.g. after the strong bot improved)."""
    with transaction.atomic():
        Analysis.objects.filter(pk=analysis.pk).update(
            status=Analysis.Status.QUEUED, decisions=[], progress=0, document=None, error="", finished_at=None,
            budget=budget())
        outbox.emit(AnalysisQueued(analysis.pk))


def _progress(match: Match, seat: int, done: int, total: int, status: str) -> None:
    people = tuple(s.user_id for s in match_store.seats_of(match) if s.user_id is not None)
    outbox.emit(AnalysisProgress(match.pk, seat, done, total, status, people))


def _store(analysis_id: int, done: list[dict[str, object]], stored: int) -> bool:
    """Store the decisions computed so far, unless another run moved past the ``stored`` this one saw."""
    return bool(Analysis.objects.filter(pk=analysis_id, progress=stored).exclude(status=Analysis.Status.DONE).update(
        decisions=done, progress=len(done)))


def run(analysis_id: int) -> bool:
    """Compute the analysis from where it stands; False if there was nothing to do (done, gone, or
    another run got ahead)."""
    analysis = Analysis.objects.select_related("match").filter(pk=analysis_id).first()
    if analysis is None or analysis.status == Analysis.Status.DONE:
        return False
    match = match_store.load(analysis.match_id)
    if match is None or match.status != Match.Status.FINISHED:
        return False
    replay = match_presenters.replay_document(match)
    seat, seed, run_budget = analysis.seat, analysis.seed, analysis.budget
    total = len(engine.analysis.decision_points(replay, seat))
    done = list(analysis.decisions)
    Analysis.objects.filter(pk=analysis.pk).exclude(status=Analysis.Status.DONE).update(
        status=Analysis.Status.RUNNING, total=total)
    _progress(match, seat, len(done), total, Analysis.Status.RUNNING)
    stored, last = len(done), time.monotonic()
    try:
        for decision in engine.analysis.iter_decisions(replay, seat, budget=run_budget, seed=seed, start=len(done)):
            done.append(decision.to_json())
            if time.monotonic() - last < STORE_EVERY_S:
                continue
            if not _store(analysis.pk, done, stored):
                return False  # another run stored these decisions first; it carries on
            stored, last = len(done), time.monotonic()
            _progress(match, seat, stored, total, Analysis.Status.RUNNING)
        document = engine.analysis.analysis_from_decisions(replay, seat, done, budget=run_budget, seed=seed).to_json()
    except (engine.EngineError, ValueError) as err:  # a replay that does not verify; stored decisions off
        log.exception("analysis %s failed", analysis_id)
        Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.Status.FAILED, error=str(err))
        _progress(match, seat, stored, total, Analysis.Status.FAILED)
        return False
    finished = Analysis.objects.filter(pk=analysis.pk, progress=stored).exclude(status=Analysis.Status.DONE).update(
        status=Analysis.Status.DONE, decisions=done, progress=len(done), document=document,
        finished_at=timezone.now())
    if finished:
        _progress(match, seat, total, total, Analysis.Status.DONE)
    return bool(finished)
