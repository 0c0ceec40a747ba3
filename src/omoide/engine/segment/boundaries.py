"""Offline episode segmentation: split a stream of conversation turns into episodes (pure).

The spec's rule (§Episode Segmentation): a boundary where the topic shifts OR surprise > 0.7, and
a segment shorter than 3 turns merges into a neighbour. With an LLM each adjacent pair is judged
by the model; this is the offline engine, which derives both signals from the turns themselves:

- **surprise** (0..1) before turn i is a logistic mix of a greeting that (re)opens a conversation
  at i, a closing in the turns just before it, how different the turns after i are from the ones
  before it (passage embeddings, as a robust z-score within the input), and the pause since the
  previous turn when turns carry timestamps;
- **topic shift** is a deep valley in embedding cohesion over wider blocks (TextTiling depth);
- a pause of at least ``time_gap`` always opens a segment (reason ``time_gap``).

Competing boundaries closer than the minimum length keep the stronger one (on a tie, the later,
so the short segment merges into the previous one as the spec says). With ``final=False`` the
last turns' evidence is incomplete (their right-hand blocks are not there yet), so boundaries
among them are held back and those turns stay in the open last segment.

The caller embeds the turns; this module never calls an embedder. No I/O, no clock, no
randomness: the same turns and vectors always give the same segments.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

import numpy as np

from omoide.engine.segment.signals import (
    block_dissimilarity,
    closing_cue,
    depth_scores,
    opening_cue,
    robust_z,
    topic_keywords,
    topic_terms,
)
from omoide.errors import InvalidInput

__all__ = [
    "BoundaryReason",
    "PairJudgement",
    "Segment",
    "SegmentParams",
    "Turn",
    "segment_judged",
    "segment_offline",
]


class BoundaryReason(StrEnum):
    START = "start"  # the first turn given: no evidence looked at
    TOPIC_SHIFT = "topic_shift"  # cohesion valley; surprise stayed at or under the threshold
    SURPRISE = "surprise"  # surprise above the threshold
    TIME_GAP = "time_gap"  # a pause of at least SegmentParams.time_gap


@dataclass(frozen=True)
class Turn:
    index: int  # the caller's id for the turn (e.g. the event's position); strictly increasing
    speaker: str
    text: str
    timestamp: datetime | None = None


@dataclass(frozen=True)
class SegmentParams:
    """Thresholds (spec defaults first) and the offline engine's own knobs.

    The knobs' defaults were chosen on LoCoMo with USE and checked with e5 and the hash
    embedder (``bench/segment.py``; results in ``bench/results/segment.md``).
    """

    surprise_threshold: float = 0.7  # spec: surprise above this opens a segment
    min_turns: int = 3  # spec: shorter segments merge into a neighbour
    # A pause this long between two timestamped turns opens a segment. Chat sessions with a
    # gap of an hour are read as two conversations; shorter pauses only add to surprise.
    time_gap: timedelta = timedelta(hours=1)
    # Turns per block when comparing what came before i with what follows (surprise term).
    novelty_window: int = 2
    # Turns per block for topic shifts; also the shortest segment a topic shift alone may
    # open or close, since blocks this wide cannot place a shift more precisely.
    topic_window: int = 6
    # Depth of the cohesion valley, as a robust z-score within the input, for a topic shift.
    # The granularity knob: 4.0 gives about one topic-shift episode per three LoCoMo sessions
    # (episodes ~17 turns); 3.0 about one per session (~15 turns); inf turns topic shifts off.
    topic_depth: float = 4.0
    # The surprise logit: bias + weights·signals (opening/closing cues 0..1, novelty z-score,
    # pause as a fraction of time_gap). With these, one clear greeting after a closing, or a
    # pause of half the time gap plus any cue, passes 0.7; novelty alone needs z ≈ 4.
    surprise_bias: float = -1.5
    opening_weight: float = 3.0
    closing_weight: float = 2.5
    novelty_weight: float = 0.6
    pause_weight: float = 4.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.surprise_threshold <= 1.0:
            raise InvalidInput(
                "surprise_threshold must be within [0, 1]", field="surprise_threshold"
            )
        for name in ("min_turns", "novelty_window", "topic_window"):
            if getattr(self, name) < 1:
                raise InvalidInput(f"{name} must be at least 1", field=name)
        if self.time_gap <= timedelta(0):
            raise InvalidInput("time_gap must be positive", field="time_gap")


@dataclass(frozen=True)
class Segment:
    start: int  # Turn.index of the first turn
    end: int  # Turn.index of the last turn (inclusive)
    topic: str  # a few keywords from the segment's text
    surprise: float  # surprise at the boundary that opened this segment (0..1; 0 at START)
    boundary_reason: BoundaryReason


@dataclass(frozen=True)
class PairJudgement:
    """An outside judge's verdict (e.g. an LLM's) on two adjacent turns."""

    position: int  # offset of the later turn in the input (1..n-1): turns[position-1:position+1]
    topic_shift: bool
    surprise: float  # 0..1


@dataclass(frozen=True)
class _Boundary:
    position: int  # offset into the input: the segment starts at turns[position]
    surprise: float
    reason: BoundaryReason
    evidence: float = 0.0  # orders candidates of one reason: surprise, or the valley's depth z

    @property
    def strength(self) -> tuple[int, float]:
        rank = {BoundaryReason.TIME_GAP: 3, BoundaryReason.SURPRISE: 2}.get(self.reason, 1)
        return rank, self.evidence


# A greeting answering a greeting is the second half of one opening, not a new one.
_ANSWERED_GREETING = 0.3
# A closing two turns back still counts (the other side says goodbye too), a little less.
_EARLIER_CLOSING = 0.7
# Fewer positions than this give no trustworthy spread for the embedding z-scores.
_MIN_POSITIONS_FOR_Z = 16


def segment_offline(
    turns: Sequence[Turn], vectors: np.ndarray, *, params: SegmentParams, final: bool
) -> list[Segment]:
    """Segments covering ``turns`` in order, without gaps or overlaps.

    ``vectors[i]`` is the unit-norm passage embedding of ``turns[i]``. With ``final=False`` the
    last segment is still open: more turns may join it, so boundaries whose evidence needs turns
    not yet given are held back (the caller re-runs the engine over the open segment plus the
    new turns; the closed segments before it never change).
    """
    _validate(turns, vectors)
    if not turns:
        return []
    candidates = _candidates(turns, np.asarray(vectors, dtype=np.float64), params)
    # The last topic_window turns lack their right-hand blocks: hold those back while open.
    chosen = _choose(candidates, len(turns), params, final=final, hold=params.topic_window)
    return _build(turns, chosen)


def segment_judged(
    turns: Sequence[Turn],
    judgements: Sequence[PairJudgement],
    *,
    params: SegmentParams,
    final: bool,
) -> list[Segment]:
    """Segments from per-pair judgements made elsewhere (the LLM path), with the same rules as
    :func:`segment_offline`: time gap, or topic shift, or surprise above the threshold; short
    segments merged. Pairs without a judgement count as no boundary."""
    if not turns:
        return []
    by_position = {j.position: j for j in judgements if 0 < j.position < len(turns)}
    out = []
    for i in range(1, len(turns)):
        pause = _pause(turns[i - 1], turns[i])
        judged = by_position.get(i)
        surprise = min(1.0, max(0.0, judged.surprise)) if judged else 0.0
        if pause >= params.time_gap:
            out.append(_Boundary(i, 1.0, BoundaryReason.TIME_GAP, 1.0))
        elif surprise > params.surprise_threshold:
            out.append(_Boundary(i, surprise, BoundaryReason.SURPRISE, surprise))
        elif judged is not None and judged.topic_shift:
            out.append(_Boundary(i, surprise, BoundaryReason.TOPIC_SHIFT, surprise))
    # A judgement looks only backwards, so nothing waits for later turns but the merge rule.
    chosen = _choose(out, len(turns), params, final=final, hold=0, topic_spacing=False)
    return _build(turns, chosen)


def _validate(turns: Sequence[Turn], vectors: np.ndarray) -> None:
    if vectors.ndim != 2 or vectors.shape[0] != len(turns):
        raise InvalidInput(
            f"need one vector row per turn: {len(turns)} turns, vectors of shape {vectors.shape}",
            field="vectors",
        )
    for before, after in itertools.pairwise(turns):
        if after.index <= before.index:
            raise InvalidInput("turn indexes must be strictly increasing", field="turns")


def _candidates(
    turns: Sequence[Turn], vectors: np.ndarray, params: SegmentParams
) -> list[_Boundary]:
    n = len(turns)
    texts = [t.text for t in turns]
    opening = [opening_cue(t) for t in texts]
    closing = [closing_cue(t) for t in texts]
    novelty = _z_curve(block_dissimilarity(vectors, params.novelty_window))
    topic = _z_curve(depth_scores(block_dissimilarity(vectors, params.topic_window)))
    out = []
    for i in range(1, n):
        pause = _pause(turns[i - 1], turns[i])
        cue_open = opening[i] * (_ANSWERED_GREETING if opening[i - 1] >= opening[i] > 0 else 1.0)
        cue_close = max(closing[i - 1], _EARLIER_CLOSING * closing[i - 2] if i >= 2 else 0.0)
        logit = (
            params.surprise_bias
            + params.opening_weight * cue_open
            + params.closing_weight * cue_close
            + params.novelty_weight * novelty[i]
            + params.pause_weight * min(1.0, pause / params.time_gap)
        )
        surprise = 1.0 / (1.0 + math.exp(-logit))
        if pause >= params.time_gap:
            out.append(_Boundary(i, surprise, BoundaryReason.TIME_GAP, surprise))
        elif surprise > params.surprise_threshold:
            out.append(_Boundary(i, surprise, BoundaryReason.SURPRISE, surprise))
        elif topic[i] > params.topic_depth:
            out.append(_Boundary(i, surprise, BoundaryReason.TOPIC_SHIFT, float(topic[i])))
    return out


def _z_curve(curve: np.ndarray) -> np.ndarray:
    """Robust z over positions 1..n-1 (position 0 opens the input and is no candidate)."""
    out = np.zeros(len(curve))
    out[1:] = robust_z(curve[1:], min_count=_MIN_POSITIONS_FOR_Z)
    return out


def _pause(before: Turn, after: Turn) -> timedelta:
    if before.timestamp is None or after.timestamp is None:
        return timedelta(0)
    return max(timedelta(0), after.timestamp - before.timestamp)


def _choose(
    candidates: list[_Boundary],
    n: int,
    params: SegmentParams,
    *,
    final: bool,
    hold: int,
    topic_spacing: bool = True,
) -> list[_Boundary]:
    """Strongest first; a candidate too close to a kept boundary (or to either end) is merged
    away. Ties go to the later position: the short segment joins the previous one. With
    ``final=False``, boundaries within ``hold + min_turns`` of the end stay open."""

    def spacing(b: _Boundary) -> int:
        if topic_spacing and b.reason is BoundaryReason.TOPIC_SHIFT:
            return max(params.min_turns, params.topic_window)
        return params.min_turns

    kept: list[_Boundary] = []
    for cand in sorted(candidates, key=lambda b: (b.strength, b.position), reverse=True):
        need = spacing(cand)
        if cand.position < need or n - cand.position < need:
            continue
        if all(abs(cand.position - k.position) >= max(need, spacing(k)) for k in kept):
            kept.append(cand)
    kept.sort(key=lambda b: b.position)
    if not final:
        # A boundary among the last min_turns could still lose to one not yet decided.
        kept = [b for b in kept if b.position <= n - hold - params.min_turns]
    return kept


def _build(turns: Sequence[Turn], chosen: list[_Boundary]) -> list[Segment]:
    opening = _Boundary(0, 0.0, BoundaryReason.START)
    bounds = [opening, *chosen]
    ends = [b.position for b in chosen] + [len(turns)]
    names = frozenset(w.lower() for t in turns for w in t.speaker.split())
    texts = [[t.text for t in turns[b.position : end]] for b, end in zip(bounds, ends, strict=True)]
    terms = [topic_terms(txt, exclude=names) for txt in texts]
    segments = []
    for k, (bound, end) in enumerate(zip(bounds, ends, strict=True)):
        words = topic_keywords(terms, k)
        segments.append(
            Segment(
                start=turns[bound.position].index,
                end=turns[end - 1].index,
                topic=", ".join(words) if words else _fallback_topic(texts[k]),
                surprise=round(bound.surprise, 4),
                boundary_reason=bound.reason,
            )
        )
    return segments


def _fallback_topic(texts: list[str]) -> str:
    first = " ".join(" ".join(texts).split()[:6])
    return first[:40]
