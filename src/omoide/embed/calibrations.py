"""Measured cosine calibrations for the bundled embedders.

Anchors are ``(spec_value, raw_cosine)``; see ``engine/calibration.py``. Produced by
``bench/calibrate.py`` on ``src/omoide/embed/calibration_pairs.jsonl`` (pairs written by us):
0.0 ↦ median unrelated pair, 0.8 ↦ median related pair (the evolution band holds the upper
half of related pairs that dedup lets through), 0.85 ↦ the dedup threshold with the best
F0.5 between duplicate and related pairs (precision weighted: a false duplicate drops a new
fact, a missed one only stores a near-copy), 1.0 ↦ identical text.
"""

from __future__ import annotations

from omoide.engine.calibration import Calibration

__all__ = ["E5_CALIBRATION", "USE_CALIBRATION"]

# Measured 2026-11-30 with `.venv/bin/python bench/calibrate.py --objective f0.5` (158 pairs,
# passage ↔ passage); report in bench/results/calibration.md.
# USE: dedup > 0.8031 (precision 0.83, recall 0.67, 9/62 related pairs flagged).
USE_CALIBRATION = Calibration(
    anchors=((0.0, 0.1885), (0.8, 0.6167), (0.85, 0.8031), (1.0, 1.0)),
    note="USE multilingual v3",
)
# e5: dedup > 0.9595 catches 87-88% of same-language duplicates at precision 0.86 but no EN↔JA
# duplicate (those score 0.84-0.91, as high as unrelated Japanese pairs).
E5_CALIBRATION = Calibration(
    anchors=((0.0, 0.8074), (0.8, 0.9322), (0.85, 0.9595), (1.0, 1.0)),
    note="multilingual-e5-small q4",
)
