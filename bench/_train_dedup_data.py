"""Train dedup (data): every pair of the sources, read as the write path reads it.

A part of ``bench/train_dedup.py`` (see its docstring): the sources, the embeddings (kept in a
cache between runs when asked) and the rows of features the judge is fitted on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from lib.reports import REPO
from omoide.embed import Embedder, make_embedder
from omoide.engine.classify import (
    DEDUP_FEATURES,
    changed_parts,
    dedup_features,
    find_dedup_change,
    pair_notation,
    polarity_changed,
    status_changed,
    swapped_parts,
    value_replaced,
)
from omoide.service.dedup import kanji_readings

DATA = REPO / "bench" / "data"
SOURCES = (
    "dedup_pairs",
    "dedup_holdout",
    "dedup_holdout2",
    "dedup_holdout3",
    "dedup_holdout4",
    "dedup_holdout5",
    "dedup_holdout6",
    "dedup_holdout7",
    "dedup_holdout8",
    "dedup_holdout9",
    "dedup_holdout10",
    "dedup_holdout11",
    "dedup_holdout12",
    "dedup_holdout13",
    "dedup_holdout14",
    "dedup_holdout15",
    "dedup_holdout16",
    "dedup_holdout17",
    "dedup_holdout18",
    "dedup_holdout19",
    "dedup_holdout20",
    "dedup_holdout21",
    "dedup_holdout22",
    "dedup_holdout23",
    "dedup_holdout24",
    "dedup_holdout25",
    "dedup_holdout26",
    "dedup_holdout27",
    "calibration_pairs",
    *(f"dedup_holdout{n}" for n in range(28, 43)),
)
# The calibration pairs (duplicate / related / unrelated, some across languages) hold what the
# dedup sets hold little of: facts on one topic in other words, where the floor reaches.
PATHS = {"calibration_pairs": REPO / "src" / "omoide" / "embed" / "calibration_pairs.jsonl"}
DIGITS = 6


@dataclass
class Rows:
    """Every pair of the sources, read for one embedder."""

    source: np.ndarray
    lang: np.ndarray
    label: np.ndarray  # 1 duplicate, 0 different
    cosine: np.ndarray  # raw cosine of the two memories
    traded: np.ndarray  # traded parts, a status, a polarity or a value replaced: never a duplicate
    vetoed: np.ndarray  # the veto found a change
    x: np.ndarray  # DEDUP_FEATURES rows
    features: tuple[str, ...] = DEDUP_FEATURES  # the ones the embedder's judge reads

    @property
    def own(self) -> np.ndarray:
        """The columns of ``x`` the judge reads (``features``)."""
        return self.x[:, [DEDUP_FEATURES.index(f) for f in self.features]]


def load(sources: tuple[str, ...]) -> list[dict]:
    rows = []
    for source in sources:
        path = PATHS.get(source, DATA / f"{source}.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows.append(
                    {
                        "source": source,
                        "lang": row["lang"],
                        "a": row["a"],
                        "b": row["b"],
                        "label": int(row["label"] == "duplicate"),
                        "shape": row.get("shape", "calibration"),
                    }
                )
    return rows


_EMBEDDERS: dict[str, Embedder] = {}
CACHE: dict[tuple[str, str], np.ndarray] = {}


def embedded(name: str, texts: list[str]) -> tuple[dict[str, np.ndarray], str]:
    """Passage vectors of ``texts`` (each once, in batches) and the embedder's model id."""
    if name not in _EMBEDDERS:
        _EMBEDDERS[name] = make_embedder(name)
    embedder = _EMBEDDERS[name]
    unique = list(dict.fromkeys(t for t in texts if t))
    missing = [t for t in unique if (name, t) not in CACHE]
    for i in range(0, len(missing), 64):
        batch = missing[i : i + 64]
        for text, vector in zip(batch, embedder.embed_passages(batch), strict=True):
            CACHE[(name, text)] = np.asarray(vector)
    return {t: CACHE[(name, t)] for t in unique}, embedder.model_id


def read(
    name: str,
    part_name: str,
    pairs: list[dict],
    *,
    plain: bool,
    ablate: frozenset[str] = frozenset(),
    without: frozenset[str] = frozenset(),
) -> tuple[Rows, str, str, float]:
    """Every pair's row for embedder ``name``; ``without``: features its judge leaves out."""
    vectors, model_id = embedded(name, [t for p in pairs for t in (p["a"], p["b"])])
    texts = [
        (p["a"], p["b"])
        if plain or "notation" in ablate
        else pair_notation(p["a"], p["b"], kanji=kanji_readings())
        for p in pairs
    ]
    parts = [changed_parts(a, b) for a, b in texts]
    part_vectors, part_id = embedded(part_name, [t for pair in parts for t in pair])
    read_vectors, _ = embedded(name, [t for pair in texts for t in pair])
    x, vetoed, cosines, traded = [], [], [], []
    for pair, (a, b), (removed, added) in zip(pairs, texts, parts, strict=True):
        cosine = float(np.dot(vectors[pair["a"]], vectors[pair["b"]]))
        part = (
            float(np.dot(part_vectors[removed], part_vectors[added])) if removed and added else None
        )
        change = find_dedup_change(a, b)
        # the two read in dedup's notation, on the same embedder (as the server: the raw
        # cosine when the notation changed neither; the same text has the same vector)
        read_cosine = float(np.dot(read_vectors[a], read_vectors[b]))
        x.append(
            dedup_features(
                a, b, cosine=cosine, part_cosine=part, change=change, notation_cosine=read_cosine
            )
        )
        vetoed.append(change is not None)
        cosines.append(cosine)
        traded.append(
            swapped_parts(a, b) is not None
            or status_changed(a, b)
            or ("polarity" not in ablate and polarity_changed(a, b))
            or ("replaced" not in ablate and change is not None and value_replaced(change))
        )
    x_arr = np.round(np.array(x), DIGITS)
    if plain or "scope" in ablate:
        x_arr[:, DEDUP_FEATURES.index("scope")] = 0.0
    rows = Rows(
        source=np.array([p["source"] for p in pairs]),
        lang=np.array([p["lang"] for p in pairs]),
        label=np.array([p["label"] for p in pairs]),
        cosine=np.array(cosines),
        traded=np.array(traded),
        vetoed=np.array(vetoed),
        x=x_arr,
        features=tuple(f for f in DEDUP_FEATURES if f not in without),
    )
    return rows, model_id, part_id, _EMBEDDERS[name].calibration
