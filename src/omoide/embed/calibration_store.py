"""Measured calibrations of configured embedders, kept in the data folder, and the bundled
calibration pairs they are measured on.

``omoide calibrate`` writes ``<data>/calibrations.json`` (one entry per model id); every
command applies the entry of its embedder at start-up (:func:`apply_stored_calibration`), so
the spec's thresholds keep their meaning with an embedder Omoide does not ship.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from omoide.embed.base import Embedder
from omoide.engine.calibration import IDENTITY, Calibration

__all__ = [
    "BUNDLED",
    "Pair",
    "apply_stored_calibration",
    "bundled_pairs",
    "is_bundled",
    "load_calibration",
    "save_calibration",
]

logger = logging.getLogger(__name__)

FILE = "calibrations.json"
BUNDLED = ("multilingual-e5", "use-", "hash-ngram")  # model ids that ship their calibration


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    label: str
    lang: str


def bundled_pairs() -> list[Pair]:
    """The labelled pairs shipped with the package (``embed/calibration_pairs.jsonl``)."""
    text = (
        resources.files("omoide.embed")
        .joinpath("calibration_pairs.jsonl")
        .read_text(encoding="utf-8")
    )
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [Pair(r["a"], r["b"], r["label"], r.get("lang", "")) for r in rows]


def _read(data_dir: Path) -> dict[str, Any]:
    path = data_dir / FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        logger.warning("ignoring unreadable %s: %s", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def load_calibration(data_dir: Path, model_id: str) -> Calibration | None:
    entry = _read(data_dir).get(model_id)
    if not isinstance(entry, dict):
        return None
    try:
        anchors = tuple((float(s), float(r)) for s, r in entry["anchors"])
        return Calibration(anchors=anchors, note=str(entry.get("note", "")))
    except (KeyError, TypeError, ValueError) as exc:
        logger.warning("ignoring the stored calibration of %s: %s", model_id, exc)
        return None


def save_calibration(
    data_dir: Path, model_id: str, calibration: Calibration, **details: Any
) -> Path:
    """Store (replace) the calibration of ``model_id``; written whole, then renamed."""
    data = _read(data_dir)
    data[model_id] = {
        "anchors": [list(a) for a in calibration.anchors],
        "note": calibration.note,
        **details,
    }
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / FILE
    partial = path.with_name(FILE + ".partial")
    partial.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    partial.replace(path)
    return path


def is_bundled(model_id: str) -> bool:
    return model_id.startswith(BUNDLED)


def apply_stored_calibration(embedder: Embedder, data_dir: Path) -> None:
    """Give an embedder Omoide does not ship the calibration measured for this folder."""
    if is_bundled(embedder.model_id):
        return
    stored = load_calibration(data_dir, embedder.model_id)
    if stored is not None:
        embedder.calibration = stored
    elif embedder.calibration is IDENTITY:
        logger.warning(
            "embedder %s has no calibration for this data folder: thresholds are "
            "raw cosine until `omoide calibrate` measures it",
            embedder.model_id,
        )
