"""Measured cosine calibrations for the bundled embedders.

Anchors are ``(spec_value, raw_cosine)``; see ``engine/calibration.py``. Produced by
``bench/calibrate.py`` on ``src/omoide/embed/calibration_pairs.jsonl`` (pairs written by us):
0.0 ↦ median unrelated pair, 0.8 ↦ the evolution boundary (related, same topic),
0.85 ↦ the duplicate boundary (paraphrase), 1.0 ↦ identical text.
"""

from __future__ import annotations

from omoide.engine.calibration import Calibration

__all__ = ["E5_CALIBRATION", "USE_CALIBRATION"]

# Provisional anchors, replaced by bench/calibrate.py's measurement.
USE_CALIBRATION = Calibration(
    anchors=((0.0, 0.07), (0.8, 0.70), (0.85, 0.78), (1.0, 1.0)),
    note="USE multilingual v3",
)
E5_CALIBRATION = Calibration(
    anchors=((0.0, 0.78), (0.8, 0.90), (0.85, 0.93), (1.0, 1.0)),
    note="multilingual-e5-small q4",
)
