"""The offline 3-op classifier with its learned judge: rules + embedding cosines + a small model.

Implements the engine's ``Classifier`` port at the service boundary, because the judge needs
cosines from the configured embedder and the engine may not embed: this class embeds both
memories and each pair's differing parts (``engine.classify.features.differing_parts``) in one
batch (every candidate of one call together, each distinct text once; a text whose vector the
caller handed in, ``PassageVectors`` of the judge's own model, or one held in the server's
shared vector cache, ``service.vector_cache``, is not embedded again), measures the cosines,
and hands plain numbers to the pure ``engine.classify.judge``. (The whole-pair cosine is
measured here too rather than read from ``Candidate.similarity``, so every caller gets the same
passage-to-passage scale.)
Every server runs the packaged judge the training chose (``judge_embedder`` in the file) on
that judge's own embedder, whatever embedder the server searches with; the wiring hands in how
to build it, and it is built on the first classification (a background job), not at start.
Without it (the model-free hashing embedder) a server gets the judge trained for its own
embedder, else the rules alone (``OfflineClassifier``).

The trained weights ship as ``engine/classify/judge.json`` (written by
``bench/train_classifier.py``), one judge per embedder model id: one model, or one model per
language (``engine.classify.LanguageJudge``: each pair judged by its language's model).
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections.abc import Callable, Mapping
from functools import cache, partial
from importlib import resources
from typing import Any

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.classify import (
    CROSS_LANGUAGE,
    Candidate,
    Classifier,
    Judge,
    Judgement,
    OfflineClassifier,
    PairText,
    PassageVectors,
    Similarities,
    Verdict,
    judge,
    judge_from_dict,
    judge_note,
    judge_one_note,
    languages_differ,
    leads,
    note_claims,
    note_verdict,
    one_statement,
    read_pair,
    reads_undated,
    statements,
    undated,
)
from omoide.service.vector_cache import VectorCache

__all__ = [
    "JUDGE_FILE",
    "LazyEmbedder",
    "LearnedClassifier",
    "judge_embedder_name",
    "load_judge_models",
    "measure",
    "offline_classifier_for",
    "packaged_file",
]

logger = logging.getLogger(__name__)

JUDGE_FILE = "judge.json"


@cache
def packaged_file(name: str) -> dict[str, Any]:
    """A JSON file packaged with the classifiers (``omoide.engine.classify``: the judges, the
    dedup judges, the kanji readings), read once; empty when the file is absent."""
    path = resources.files("omoide.engine.classify").joinpath(name)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _judge_file() -> dict[str, Any]:
    return packaged_file(JUDGE_FILE)


def load_judge_models() -> dict[str, Judge]:
    """The packaged judges by embedder model id, each one model or one per language (empty
    when the file is absent)."""
    return {m["embedder"]: judge_from_dict(m) for m in _judge_file().get("models", [])}


def judge_embedder_name() -> str | None:
    """The setting name of the embedder whose judge every server runs ("e5" since the
    seventeenth round), chosen by ``bench/train_classifier.py`` on leave-one-source-out
    scores; None when the file names none."""
    chosen = _judge_file().get("judge_embedder")
    return str(chosen["name"]) if chosen else None


def offline_classifier_for(
    embedder: Embedder,
    judge_embedder: Callable[[], Embedder] | None = None,
    *,
    vectors: VectorCache | None = None,
) -> Classifier:
    """The learned judge: the packaged default judge (``judge_embedder_name``) when the caller
    can build its embedder (``judge_embedder``, called once, on the first classification:
    a server searching with another embedder loads the judge's model only when evolution
    first runs, in the background job), else the judge trained for this embedder, else the
    rules alone. ``vectors``: the server's shared vector cache."""
    chosen = _judge_file().get("judge_embedder")
    models = load_judge_models()
    if chosen and chosen["model_id"] in models and judge_embedder is not None:
        model = models[chosen["model_id"]]
        if embedder.model_id == model.embedder:
            return LearnedClassifier(model, embedder, vectors=vectors)
        return LearnedClassifier(
            model, LazyEmbedder(model.embedder, judge_embedder), vectors=vectors
        )
    model = models.get(embedder.model_id)
    if model is None:
        logger.info(
            "no learned 3-op judge for embedder %s; using the rules alone", embedder.model_id
        )
        return OfflineClassifier()
    return LearnedClassifier(model, embedder, vectors=vectors)


class LazyEmbedder:
    """An embedder built on first use (``factory``), known until then by its model id: the
    judge's own embedder costs nothing until the first pair is classified."""

    def __init__(self, model_id: str, factory: Callable[[], Embedder]) -> None:
        self.model_id = model_id
        self._factory = factory
        self._inner: Embedder | None = None
        self._lock = threading.Lock()

    def load(self) -> Embedder:
        """The model, built now if it was not yet (once; the server's warm-up calls this so a
        first request does not wait for the build)."""
        with self._lock:
            if self._inner is None:
                inner = self._factory()
                if inner.model_id != self.model_id:
                    raise ValueError(
                        f"the judge needs {self.model_id!r}, the factory built {inner.model_id!r}"
                    )
                self._inner = inner
            return self._inner

    @property
    def dim(self) -> int:
        return self.load().dim

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self.load().embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self.load().embed_query(text)

    def cut(self, text: str) -> str:
        """``text`` cut to the model's input length, when the model can cut."""
        inner = self.load()
        return inner.cut(text) if hasattr(inner, "cut") else text


class LearnedClassifier:
    """Rules where they are sure, the learned judge for the rest (precision first). Its
    vectors are kept in ``vectors`` (the server's shared cache; one of its own when none is
    given)."""

    def __init__(
        self,
        model: Judge,
        embedder: Embedder | LazyEmbedder,
        *,
        vectors: VectorCache | None = None,
    ) -> None:
        if model.uses_embeddings and model.embedder != embedder.model_id:
            raise ValueError(
                f"the judge was trained on {model.embedder!r}, not {embedder.model_id!r}"
            )
        self.model = model
        self.embedder = embedder
        self.vectors = vectors if vectors is not None else VectorCache()

    def classify(
        self,
        new: str,
        candidates: list[Candidate],
        *,
        lang: str = "auto",
        note: bool = False,
        known: PassageVectors | None = None,
    ) -> list[Verdict]:
        """One verdict per candidate, in the candidates' order. A candidate in another language
        than ``new`` is INDEPENDENT, as with the rules (the judge reads words). A new memory of
        several sentences never contradicts as a whole (``offline.one_statement``); it closes a
        candidate only when one of its sentences, read alone, reaches the judge's sentence
        threshold (``learned.judge_note``). A consolidated ``note`` of one sentence is judged as
        a statement, but a close by probability must reach the notes' own threshold read both
        as written and without the notes' dates (``engine.classify.note_judge``: on notes the
        statements' thresholds closed true facts). A note of any length also closes on a sure
        shape read in one of its sentences (``engine.classify.note_close``): a single-valued
        state with another value, or an explicit end of the old memory's value. ``known``:
        vectors the caller holds; read only when made by the judge's own embedder."""
        held = (
            known.by_text
            if (known is not None and known.model_id == self.embedder.model_id)
            else {}
        )
        read = partial(self.passage_vectors, held)
        same = [c for c in candidates if not languages_differ(c.content, new, lang)]
        may_contradict = one_statement(new, lang) and not note
        texts = [read_pair(c.content, new, lang=lang) for c in same]
        sims: list[Similarities | None] = [None] * len(same)
        if self.model.uses_embeddings and same:
            sims = list(
                measure(read, [(c.content, new, t) for c, t in zip(same, texts, strict=True)])
            )
        one_note = note and one_statement(new, lang)
        notes = self._sentences(same, new, lang, read) if not (may_contradict or one_note) else {}
        # a one-sentence note: the judge's statement verdicts, read once
        firsts = (
            [judge(t, s, self.model) for t, s in zip(texts, sims, strict=True)] if one_note else []
        )
        plain = self._undated(same, texts, firsts, new, lang, read) if one_note else {}
        after = note_claims(new, lang) if note and same else []
        judged = {}
        # the replaced-value tier of a note closes only the candidate nearest the note
        top = max(same, key=lambda c: c.similarity).key if same else None
        clear = leads([c.similarity for c in same])
        for i, (candidate, text, sim) in enumerate(zip(same, texts, sims, strict=True)):
            if one_note:
                j = judge_one_note(
                    (text, sim),
                    plain.get(candidate.key),
                    self.model,
                    verdict=firsts[i],
                    nearest=candidate.key == top,
                    clear=clear,
                )
            else:
                j = judge(text, sim, self.model, may_contradict=may_contradict)
            if not (may_contradict or one_note):
                j = judge_note(j, notes.get(candidate.key, []), self.model)
            sure = note_verdict(candidate, after, lang, prefix="rule: ") if note else None
            judged[candidate.key] = (
                sure
                if sure is not None
                else Verdict(candidate.key, j.relation, j.confidence, j.reason)
            )
        cross = CROSS_LANGUAGE
        return [
            judged.get(c.key) or Verdict(c.key, cross.relation, cross.confidence, cross.reason)
            for c in candidates
        ]

    def _undated(
        self,
        candidates: list[Candidate],
        texts: list[PairText],
        verdicts: list[Judgement],
        new: str,
        lang: str,
        read: Callable[[list[str]], Mapping[str, np.ndarray]],
    ) -> dict[str, tuple[PairText, Similarities | None]]:
        """For ``judge_one_note``: each candidate of one statement whose verdict (``verdicts``,
        on the pairs as written, ``texts``) is read again undated (``reads_undated``) against
        ``new``, both read without their dates (``undated``). A candidate of several sentences
        is left out, so the judge does not close it by probability: the judge was trained on
        one statement against one, and on a LoCoMo ingest its only two closes of such notes
        (C ≥ 0.99) were both false; on the notes sets 1 of its 67 closes had an old note of
        several sentences.
        The note rules still read such a candidate sentence by sentence."""
        chosen = [
            c
            for c, t, v in zip(candidates, texts, verdicts, strict=True)
            if one_statement(c.content, lang) and reads_undated(v, t)
        ]
        pairs = [(undated(c.content), undated(new)) for c in chosen]
        plain = [read_pair(old, note, lang=lang) for old, note in pairs]
        measured: list[Similarities | None] = [None] * len(pairs)
        if self.model.uses_embeddings and pairs:
            measured = list(
                measure(read, [(o, n, t) for (o, n), t in zip(pairs, plain, strict=True)])
            )
        return {c.key: (t, s) for c, t, s in zip(chosen, plain, measured, strict=True)}

    def _sentences(
        self,
        candidates: list[Candidate],
        new: str,
        lang: str,
        read: Callable[[list[str]], Mapping[str, np.ndarray]],
    ) -> dict[str, list[tuple[PairText, Similarities | None]]]:
        """Each candidate against each sentence of a several-sentence ``new`` (read alone), for
        ``judge_note``; nothing when the judge never lets a note close anything."""
        if math.isinf(self.model.sentence_threshold) or not candidates:
            return {}
        parts = statements(new, lang)
        pairs = [
            (c, part, read_pair(c.content, part, lang=lang)) for c in candidates for part in parts
        ]
        sims: list[Similarities | None] = [None] * len(pairs)
        if self.model.uses_embeddings:
            sims = list(measure(read, [(c.content, part, t) for c, part, t in pairs]))
        out: dict[str, list[tuple[PairText, Similarities | None]]] = {}
        for (c, _, t), s in zip(pairs, sims, strict=True):
            out.setdefault(c.key, []).append((t, s))
        return out

    def passage_vectors(
        self, known: Mapping[str, np.ndarray], texts: list[str]
    ) -> Mapping[str, np.ndarray]:
        """The judge's passage vector of each distinct text: the caller's (``known``), else
        the shared cache's, which embeds the rest in one batch."""
        found = {text: known[text] for text in texts if text in known}
        found.update(self.vectors.passages(self.embedder, (t for t in texts if t not in found)))
        return found


def embed_all(embedder: Embedder | LazyEmbedder) -> Callable[[list[str]], Mapping[str, np.ndarray]]:
    """Every text embedded by ``embedder`` in one batch (what ``measure`` reads)."""

    def embed(texts: list[str]) -> Mapping[str, np.ndarray]:
        return dict(zip(texts, embedder.embed_passages(texts), strict=True)) if texts else {}

    return embed


def measure(
    read: Callable[[list[str]], Mapping[str, np.ndarray]], pairs: list[tuple[str, str, PairText]]
) -> list[Similarities]:
    """The cosines of each (old, new, text) pair: every distinct text (memories and differing
    parts) is read once, the lot in one call of ``read`` (the distinct texts to their vectors:
    ``LearnedClassifier.passage_vectors``, or ``embed_all(embedder)``). Training
    (``bench/train_classifier.py``) calls this too, so the judge sees the same numbers it was
    trained on."""
    pieces = []
    for old, new, t in pairs:
        pieces += [p for p in (old, new, t.old_part, t.new_part) if p]
    unique = list(dict.fromkeys(pieces))
    vectors = read(unique) if unique else {}
    out = []
    for old, new, t in pairs:
        old_vec, new_vec = vectors.get(old), vectors.get(new)
        old_part, new_part = vectors.get(t.old_part), vectors.get(t.new_part)
        blocks = {"new_part": new_part, "old_part": old_part}
        if old_vec is not None and new_vec is not None:
            blocks["diff"] = new_vec - old_vec
            blocks["absdiff"] = np.abs(new_vec - old_vec)
            blocks["prod"] = new_vec * old_vec
        out.append(
            Similarities(
                whole=_cos(old_vec, new_vec) or 0.0,
                parts=_cos(old_part, new_part),
                old_part_new=_cos(old_part, new_vec),
                new_part_old=_cos(new_part, old_vec),
                vectors={k: v for k, v in blocks.items() if v is not None},
            )
        )
    return out


def _cos(a: np.ndarray | None, b: np.ndarray | None) -> float | None:
    if a is None or b is None:
        return None
    return float(np.dot(a, b))
