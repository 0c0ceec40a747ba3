"""Measured cosine calibrations for the bundled embedders.

Anchors are ``(spec_value, raw_cosine)``; see ``engine/calibration.py``. Produced by
``bench/calibrate.py`` on ``src/omoide/embed/calibration_pairs.jsonl`` (pairs written by us):
0.0 ↦ median unrelated pair, 0.8 ↦ median related pair (the evolution band holds the upper
half of related pairs that dedup lets through), 1.0 ↦ identical text. 0.85 ↦ the dedup
threshold, chosen as dedup decides (cosine above it and no changed value,
``engine/classify/value_change.py``) on the calibration pairs pooled with the *train* split of
``bench/data/dedup_pairs.jsonl``: the highest paraphrase recall with at most 1.5% of
different pairs dropped (half the 3% target, a margin for unseen text), ties to the higher
threshold. The validation split is reported by ``bench/dedup.py``.
"""

from __future__ import annotations

from omoide.engine.calibration import Calibration

__all__ = ["E5_CALIBRATION", "USE_CALIBRATION"]

# Measured 2026-12-01 with `.venv/bin/python bench/calibrate.py --objective f0.5
# --dedup-pairs bench/data/dedup_pairs.jsonl --max-false-rate 0.015` (158 calibration pairs +
# 124 dedup train pairs); report in bench/results/calibration.md. The 0.0 and 0.8 anchors are
# unchanged.
# USE: dedup > 0.7992 (was 0.8031, the best cosine-only F0.5 before the value-change veto).
USE_CALIBRATION = Calibration(
    anchors=((0.0, 0.1885), (0.8, 0.6167), (0.85, 0.7992), (1.0, 1.0)),
    note="USE multilingual v3",
)
# e5: dedup > 0.9553 (was 0.9595). No EN↔JA duplicate is caught (those score 0.84-0.91, as
# high as unrelated Japanese pairs).
E5_CALIBRATION = Calibration(
    anchors=((0.0, 0.8074), (0.8, 0.9322), (0.85, 0.9553), (1.0, 1.0)),
    note="multilingual-e5-small q4",
)
