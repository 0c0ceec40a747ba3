"""Shared by the 3-op classification benchmark and the judge's training: pairs and features.

A labelled pair file is JSON Lines in the format of ``shared/bench/classify/dev.jsonl``
(``id, lang, old, new, label, difficulty, why``); our own ``bench/data/classify_pairs.jsonl``
adds ``kind`` and a fixed ``split`` (train / validation).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.classify import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    PairText,
    Relation,
    Similarities,
    pair_vector,
    read_pair,
)
from omoide.service.classify_judge import measure

REPO = Path(__file__).resolve().parents[1]
DEFAULT_PAIRS = REPO / "bench" / "data" / "classify_pairs.jsonl"
DEFAULT_DEV = REPO.parent / "shared" / "bench" / "classify" / "dev.jsonl"
LABELS = tuple(r.value for r in Relation)


@dataclass(frozen=True)
class Pair:
    id: str
    lang: str
    old: str
    new: str
    label: str
    difficulty: str
    split: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Row:
    """One pair's measured features: the text side and the cosines / vectors (if embedded)."""

    text: PairText
    sims: Similarities | None

    def vector(self, blocks: tuple[str, ...] = (), block_dim: int = 0) -> np.ndarray:
        names = TEXT_FEATURES + (EMBEDDING_FEATURES if self.sims is not None else ())
        return pair_vector(self.text, self.sims, names, blocks, block_dim)


def load_pairs(path: Path) -> list[Pair]:
    """Read a classify JSONL file (fields as in shared/bench/README.md, plus split / kind)."""
    pairs = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                pairs.append(Pair(
                    id=row["id"], lang=row["lang"], old=row["old"], new=row["new"],
                    label=row["label"], difficulty=row.get("difficulty", "unknown"),
                    split=row.get("split", ""), kind=row.get("kind", "")))
    return pairs


def featurise(pairs: list[Pair], embedder: Embedder | None) -> list[Row]:
    """Feature rows exactly as the service computes them (``service.classify_judge``)."""
    texts = [read_pair(p.old, p.new, lang=p.lang) for p in pairs]
    if embedder is None:
        return [Row(t, None) for t in texts]
    sims = measure(embedder, [(p.old, p.new, t) for p, t in zip(pairs, texts, strict=True)])
    return [Row(t, s) for t, s in zip(texts, sims, strict=True)]
