"""Where a server loses a contradiction (``bench/classify_lost.py``): the first stage of the
write path that loses each gold pair, read with scripted verdicts."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import classify_lost as lost  # noqa: E402
from _classify_common import Pair  # noqa: E402
from omoide.engine.classify import Candidate, Relation, Verdict  # noqa: E402

RAW = {"band": 0.86, "floor": 0.84, "same_fact": 0.99}
OLDS = ["Ana lives in Lima.", "Ana keeps a cat.", "Ana runs on Sundays."]
EMBEDDER = SimpleNamespace(model_id="fake", calibration=None)


class Dedup:
    def __init__(self, duplicate: bool = False) -> None:
        self.duplicate = duplicate

    def duplicate_among(
        self, new: str, scored: Any, calibration: Any, threshold: float
    ) -> int | None:
        return 0 if self.duplicate else None


class Scripted:
    """CONTRADICTORY for the old memories in ``contradicts`` (alone, or among candidates);
    ``as_note``: the verdict a note reading gives."""

    def __init__(
        self, contradicts: set[str], as_note: bool = True, confidence: float = 0.9
    ) -> None:
        self.contradicts, self.as_note, self.confidence = contradicts, as_note, confidence

    def classify(
        self, new: str, candidates: list[Candidate], *, note: bool = False, **_: Any
    ) -> list[Verdict]:
        return [
            Verdict(
                c.key,
                Relation.CONTRADICTORY
                if c.content in self.contradicts and (self.as_note or not note)
                else Relation.INDEPENDENT,
                self.confidence,
                "scripted",
            )
            for c in candidates
        ]


def stage(
    cosines: list[float], classifier: Scripted, *, dedup: bool = False, note: bool = False
) -> str:
    pair = Pair(
        id="p",
        lang="en",
        old=OLDS[0],
        new="Ana moved to Cusco.",
        label="CONTRADICTORY",
        difficulty="easy",
    )
    vectors = np.eye(3)
    return lost.stage_of(
        pair,
        OLDS,
        np.asarray(cosines),
        classifier,
        Dedup(dedup),  # type: ignore[arg-type]
        EMBEDDER,
        np.zeros(3),
        vectors,
        note=note,
        raw=RAW,
    )


def test_each_stage_is_told_in_the_order_of_the_write_path() -> None:
    lima = {OLDS[0]}
    assert stage([0.9, 0.8, 0.7], Scripted(lima)) == "closed"
    assert stage([0.9, 0.8, 0.7], Scripted(lima), dedup=True) == "dedup"
    assert stage([0.9, 0.8, 0.7], Scripted(set())) == "classifier"
    assert stage([0.9, 0.8, 0.7], Scripted(lima, as_note=False), note=True) == "note bar"
    assert stage([0.8, 0.85, 0.7], Scripted(lima)) == "band"
    assert stage([0.88, 0.9, 0.7], Scripted(lima)) == "nearer open"
    assert stage([0.88, 0.9, 0.7], Scripted({OLDS[0], OLDS[1]})) == "nearer closed"


def test_the_nearest_under_the_band_closes_only_on_a_sure_verdict() -> None:
    lima = {OLDS[0]}
    assert stage([0.85, 0.8, 0.7], Scripted(lima, confidence=0.99)) == "closed"
    assert stage([0.85, 0.8, 0.7], Scripted(lima, confidence=0.9)) == "band"
