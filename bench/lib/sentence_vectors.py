"""A note's vector score re-scored by its best sentence's meaning (round 33's `sent33` probe;
no production code).

Round 33 found that choosing a note's best sentence by the question's *words* picks the wrong
sentence; this measures the same lever by *meaning*. For the vector candidates of the default
search (``NoteTier.semantic``: the one list whose scores the fusion normalises and weighs), each
note of two sentences or more has its sentences embedded with the server's passage embedding
and scored against the same query vector on the same (language-centred) scale
(``VectorIndex.score_vectors``). The note's score becomes ``combine(note, best sentence)``:

- ``max``: max(whole-note score, best sentence score);
- ``blend`` with weight w: (1 − w) × whole-note + w × best sentence.

One-sentence notes keep their score. With ``asides=False`` a sentence wholly in brackets (the
"(8 May 2023)" a turn note closes with) is not one of a note's sentences (variants
``sentmax_na``, ``sentblend_na:W``). The list is re-sorted before the fusion sees it, so the
default fusion, strength blend and merge run unchanged (``bench/locomo_budget.py`` variants
``sentmax`` and ``sentblend:W``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from omoide.engine.consolidate import split_sentences
from omoide.engine.fusion import Scored
from omoide.service.retrieval import NoteTier
from omoide.store.vectors import language_of

__all__ = [
    "SentenceNoteTier",
    "SentenceVectors",
    "combine",
    "is_aside",
    "note_sentences",
    "notes_with_tier",
    "rescore",
    "store_cost",
]


def combine(note: float, best: float | None, how: str, weight: float = 0.5) -> float:
    """The note's vector score given its best sentence's (None: one sentence, unchanged)."""
    if best is None:
        return note
    if how == "max":
        return max(note, best)
    if how == "blend":
        return (1.0 - weight) * note + weight * best
    raise ValueError(f"unknown combination {how!r}")


def rescore(
    semantic: Sequence[Scored], best: Mapping[int, float], how: str, weight: float = 0.5
) -> list[Scored]:
    """``semantic`` with each score combined with its note's best sentence score, best first
    (ties by id, as the vector search orders them)."""
    out = [Scored(s.id, combine(s.score, best.get(s.id), how, weight)) for s in semantic]
    return sorted(out, key=lambda s: (-s.score, s.id))


def is_aside(sentence: str) -> bool:
    """A sentence wholly in round brackets, ASCII or full-width: "(8 May 2023)"."""
    text = sentence.strip().rstrip(".。")
    return len(text) > 1 and text[0] in "(（" and text[-1] in ")）"


def note_sentences(text: str, *, asides: bool = True) -> list[str]:
    """``split_sentences(text)``, without the bracketed asides unless ``asides``."""
    parts = split_sentences(text)
    return parts if asides else [s for s in parts if not is_aside(s)]


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@dataclass
class SentenceVectors:
    """Passage vectors of sentences, embedded once and kept in one .npz per embedder model
    (text sha1 → vector), with what it cost: notes and sentences embedded, seconds spent."""

    embedder: Any
    cache_dir: Path
    store: dict[str, np.ndarray] = field(default_factory=dict)
    notes_embedded: int = 0
    sentences_embedded: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.path.exists():
            with np.load(self.path) as saved:
                self.store = dict(zip(saved["keys"].tolist(), saved["vecs"], strict=True))

    @property
    def path(self) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.embedder.model_id)
        return self.cache_dir / f"sentences_{safe}.npz"

    def vectors(self, notes: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Each note's sentence vectors (one matrix per note), embedding the missing ones in
        one batch (timed: a note counts as embedded when any of its sentences was)."""
        missing = list(
            dict.fromkeys(s for note in notes for s in note if _key(s) not in self.store)
        )
        if missing:
            start = time.perf_counter()
            embedded = self.embedder.embed_passages(missing)
            self.seconds += time.perf_counter() - start
            self.store.update((_key(s), v) for s, v in zip(missing, embedded, strict=True))
            self.sentences_embedded += len(missing)
            fresh = set(missing)
            self.notes_embedded += sum(1 for note in notes if fresh & set(note))
        return [np.stack([self.store[_key(s)] for s in note]).astype(np.float32) for note in notes]

    def save(self) -> None:
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        keys = sorted(self.store)
        np.savez(self.path, keys=np.array(keys), vecs=np.stack([self.store[k] for k in keys]))


class SentenceNoteTier(NoteTier):
    """The note tier whose vector candidates are re-scored by their best sentence
    (:func:`rescore`); ``seen`` gathers each candidate note's sentence count (the cost)."""

    def __init__(
        self,
        memories: Any,
        sentences: SentenceVectors,
        how: str,
        weight: float,
        seen: dict,
        *,
        asides: bool = True,
    ) -> None:
        super().__init__(memories)
        self.sentences, self.how, self.weight, self.seen = sentences, how, weight, seen
        self.asides = asides

    def semantic(
        self, query_vector: np.ndarray, *, query: str, limit: int, allowed: np.ndarray | None
    ) -> list[Scored]:
        found = super().semantic(query_vector, query=query, limit=limit, allowed=allowed)
        notes = self.memories.by_ids([s.id for s in found])
        split = {i: note_sentences(m.content, asides=self.asides) for i, m in notes.items()}
        self.seen.update((i, len(parts)) for i, parts in split.items())
        multi = {i: parts for i, parts in split.items() if len(parts) > 1}
        ids = list(multi)
        best: dict[int, float] = {}
        for i, vecs in zip(ids, self.sentences.vectors([multi[i] for i in ids]), strict=True):
            langs = [language_of(s) for s in multi[i]]
            scores = self.memories.vectors.score_vectors(
                query_vector, vecs, langs, centred_for=query
            )
            best[i] = max(scores)
        return rescore(found, best, self.how, self.weight)


def notes_with_tier(app: Any, persona: str, question: str, top_k: int, tier: NoteTier) -> list:
    """The real search's notes for ``question`` (no excerpts, no recall recorded), with its
    note tier replaced by ``tier`` for this one call (a probe's patch, not a production path)."""
    from dataclasses import replace
    from unittest import mock

    from omoide.service import search as search_mod

    request = app.search.build_request(persona, query=question, top_k=top_k)
    with mock.patch.object(search_mod, "NoteTier", lambda _memories: tier):
        found = app.search.search(persona, replace(request, include_episodes=False), recall=False)
    return found.results


def store_cost(
    app: Any, persona: str, sample: int = 100, *, asides: bool = True
) -> dict[str, float]:
    """What storing sentence vectors at write time would cost for ``persona``'s active notes:
    sentences per note, extra vectors per note (the sentences of a note of two or more; none
    for a one-sentence note), and the embedding time per note of ``sample`` multi-sentence
    notes, cold (their sentences in one batch), beside embedding the same notes whole."""
    notes = app.store.memories(persona).list_recent(limit=100_000)
    counts = [len(note_sentences(m.content, asides=asides)) for m in notes]
    multi = [m.content for m, n in zip(notes, counts, strict=True) if n > 1][:sample]
    parts = [s for text in multi for s in note_sentences(text, asides=asides)]
    start = time.perf_counter()
    app.embedder.embed_passages(parts)
    sentence_seconds = time.perf_counter() - start
    start = time.perf_counter()
    app.embedder.embed_passages(multi)
    whole_seconds = time.perf_counter() - start
    return {
        "notes": len(notes),
        "sentences_per_note": sum(counts) / max(len(notes), 1),
        "multi_sentence_share": sum(1 for n in counts if n > 1) / max(len(notes), 1),
        "extra_vectors_per_note": sum(n for n in counts if n > 1) / max(len(notes), 1),
        "sampled_notes": len(multi),
        "sentence_ms_per_sampled_note": 1000 * sentence_seconds / max(len(multi), 1),
        "whole_ms_per_sampled_note": 1000 * whole_seconds / max(len(multi), 1),
    }
