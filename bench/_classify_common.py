"""Shared by the 3-op classification benchmark and the judge's training: pairs and features.

A labelled pair file is JSON Lines in the format of ``shared/bench/classify/dev.jsonl``
(``id, lang, old, new, label, difficulty, why``); our own ``bench/data/classify_pairs.jsonl``
adds ``kind`` and a fixed ``split`` (train / validation).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
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
from omoide.service.classify_judge import embed_all, measure

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
    twin: str = ""  # the same in a pair and its translation (cross-validation keeps them together)
    family: str = ""  # a held-out set's grouping of kinds, reported apart when present


@dataclass(frozen=True)
class Row:
    """One pair's measured features: the text side and the cosines / vectors (if embedded)."""

    text: PairText
    sims: Similarities | None

    def vector(self, blocks: tuple[str, ...] = (), block_dim: int = 0) -> np.ndarray:
        names = TEXT_FEATURES + (EMBEDDING_FEATURES if self.sims is not None else ())
        return pair_vector(self.text, self.sims, names, blocks, block_dim)


# The 3-op label a dedup set's ``duplicate`` pair is read as (``load_pairs``): the same fact
# said again contradicts nothing and belongs with the old memory, the nearest of the three
# (EXTENDABLE links it to the old one; INDEPENDENT would say they are unrelated).
DUPLICATE_LABEL = Relation.EXTENDABLE.value


def load_pairs(path: Path) -> list[Pair]:
    """Read a classify JSONL file (fields as in shared/bench/README.md, plus split / kind); a
    dedup file (``bench/data/dedup_*.jsonl``: ``a``, ``b``, ``label``) gives its ``duplicate``
    pairs only, old ``a``, new ``b``, labelled ``DUPLICATE_LABEL`` (its ``different`` pairs
    carry no 3-op label)."""
    pairs = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                if "a" in row and "old" not in row:
                    if row["label"] == "duplicate":
                        pairs.append(
                            Pair(
                                id=row.get("id", f"{path.stem}:{len(pairs)}"),
                                lang=row["lang"],
                                old=row["a"],
                                new=row["b"],
                                label=DUPLICATE_LABEL,
                                difficulty="unknown",
                                split=row.get("split", ""),
                                kind=row.get("shape", ""),
                            )
                        )
                    continue
                pairs.append(
                    Pair(
                        id=row["id"],
                        lang=row["lang"],
                        old=row["old"],
                        new=row["new"],
                        label=row["label"],
                        difficulty=row.get("difficulty", "unknown"),
                        split=row.get("split", ""),
                        kind=row.get("kind", ""),
                        twin=row.get("twin", ""),
                        family=row.get("family", ""),
                    )
                )
    return pairs


def featurise(pairs: list[Pair], embedder: Embedder | None) -> list[Row]:
    """Feature rows exactly as the service computes them (``service.classify_judge``)."""
    texts = [read_pair(p.old, p.new, lang=p.lang) for p in pairs]
    if embedder is None:
        return [Row(t, None) for t in texts]
    sims = measure(
        embed_all(embedder), [(p.old, p.new, t) for p, t in zip(pairs, texts, strict=True)]
    )
    return [Row(t, s) for t, s in zip(texts, sims, strict=True)]


def _write(path: Path, texts: list[str], vectors: np.ndarray, model_id: str) -> None:
    """``texts`` and their ``vectors`` (of ``model_id``) to ``path`` (.npz), whole or not at
    all: written beside it, then renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # no part's name (not read as one), and one per process: two runs folding one cache at once
    # must not move each other's half-written file
    temporary = path.with_name(f".{path.name}.{os.getpid()}.writing.npz")
    np.savez(
        temporary, texts=np.array(texts), vectors=np.asarray(vectors), model_id=np.array(model_id)
    )
    os.replace(temporary, path)


def _read(file: Path) -> tuple[str | None, dict[str, np.ndarray]]:
    """The model id a cache file was written for (None: a file written before it was
    recorded) and its vectors by text."""
    with np.load(file, allow_pickle=False) as data:
        model_id = str(data["model_id"]) if "model_id" in data.files else None
        return model_id, dict(zip(data["texts"].tolist(), data["vectors"], strict=True))


def model_file(path: Path, model_id: str) -> Path:
    """The cache file of ``model_id`` for the cache named ``path`` (``cache/e5.npz`` →
    ``cache/e5.<model id>-<digest>.npz``): each model's vectors in a file of their own, so a
    switch of model (another build of the same embedder name, too) never reads another
    model's vectors, and no model's file is overwritten by another's."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", model_id)
    digest = hashlib.sha1(model_id.encode("utf-8")).hexdigest()[:8]
    return path.with_name(f"{path.stem}.{safe}-{digest}.npz")


class CachedEmbedder:
    """An embedder that remembers passage vectors in a file (``.npz``) between runs, so
    retraining with other features does not re-embed the same texts. Queries pass through.

    The vectors are kept by (embedder model id, text): ``path`` names the cache, and each model
    has a file of its own beside it (:func:`model_file`), which records its model id. A cache
    written before that (``path`` itself, keyed by text alone) is adopted by a model only when
    a sample of its vectors is what the model gives now (:meth:`_adopt`); it is left on disk
    either way.

    The cache is append-only: each new batch is written to a file of its own beside it
    (``<name>.part-00001.npz`` …, only that batch's vectors), so a crash keeps every batch
    written and no batch rewrites the cache (a full run's e5 vectors are ~200 MB, which every
    batch rewrote). :meth:`save` folds the parts into the cache in one write (with
    ``autosave`` off it writes the vectors held, once, at the end); loading folds them too
    once there are :data:`FOLD_PARTS` of them."""

    FOLD_PARTS = 16
    CHUNK = 2000  # new texts embedded (and, with autosave, written as a part) at a time
    SAMPLE = 4  # texts of a cache without a model id embedded again to check it
    TOLERANCE = 1e-5  # the largest difference in a vector component still the same vector

    def __init__(self, inner: Embedder, path: Path, *, autosave: bool = True) -> None:
        self.inner, self.autosave = inner, autosave
        self.model_id, self.dim, self.calibration = inner.model_id, inner.dim, inner.calibration
        self.path = model_file(path, self.model_id)
        self._vectors: dict[str, np.ndarray] = {}
        self._unsaved = False
        for file in [self.path, *self._parts()]:
            if file.is_file():
                model_id, vectors = _read(file)
                if model_id == self.model_id:
                    self._vectors.update(vectors)
        if not self._vectors:
            self._adopt(path)
        if len(self._parts()) >= self.FOLD_PARTS:
            self.save()

    def _parts(self, path: Path | None = None) -> list[Path]:
        path = path or self.path
        return sorted(path.parent.glob(f"{path.stem}.part-[0-9]*.npz"))

    def _adopt(self, legacy: Path) -> None:
        """Take the vectors of a cache written before model ids were recorded (``legacy`` and
        its parts) when a sample of them is what this model gives now, into this model's file;
        else leave them unread. The old files are left as they are (nothing is lost)."""
        held: dict[str, np.ndarray] = {}
        for file in [legacy, *self._parts(legacy)]:
            if file.is_file():
                model_id, vectors = _read(file)
                if model_id is None:
                    held.update(vectors)
        if not held:
            return
        sample = list(held)[: self.SAMPLE]
        fresh = self.inner.embed_passages(sample)
        same = all(
            held[text].shape == vector.shape
            and float(np.max(np.abs(held[text] - vector))) <= self.TOLERANCE
            for text, vector in zip(sample, fresh, strict=True)
        )
        if not same:
            print(
                f"{legacy} holds vectors of another model than {self.model_id}: not used "
                f"(left as it is); vectors go to {self.path.name}",
                file=sys.stderr,
            )
            return
        self._vectors.update(held)
        _write(self.path, list(held), np.stack(list(held.values())), self.model_id)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        """The vectors of ``texts``; the new ones embedded ``CHUNK`` at a time, each chunk a
        part of its own (with ``autosave``), so a run stopped in a large batch (a training run
        measures every source in one) keeps the chunks it embedded. A text's vector does not
        depend on the batch it is embedded in."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        for start in range(0, len(missing), self.CHUNK):
            chunk = missing[start : start + self.CHUNK]
            vectors = self.inner.embed_passages(chunk)
            self._vectors.update(zip(chunk, vectors, strict=True))
            self._unsaved = True
            if self.autosave:
                parts = self._parts()
                number = int(parts[-1].name.rsplit("-", 1)[1].split(".")[0]) + 1 if parts else 1
                _write(
                    self.path.with_name(f"{self.path.stem}.part-{number:05d}.npz"),
                    chunk,
                    vectors,
                    self.model_id,
                )
        return np.stack([self._vectors[t] for t in texts]) if texts else np.zeros((0, self.dim))

    def save(self) -> None:
        """Write every vector to the cache file in one write and drop the parts (a no-op when
        nothing is new and no part is left)."""
        if not self._unsaved and not self._parts():
            return
        keys = list(self._vectors)
        _write(self.path, keys, np.stack([self._vectors[k] for k in keys]), self.model_id)
        for part in self._parts():
            part.unlink()
        self._unsaved = False

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)
