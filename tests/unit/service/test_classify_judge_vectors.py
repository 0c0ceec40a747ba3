"""The learned judge embeds each text once: vectors the caller holds (same model) and vectors
of an earlier call are reused, and the verdicts are what embedding everything again gives."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from omoide.embed.hashing import HashEmbedder
from omoide.engine.classify import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    Candidate,
    JudgeModel,
    PassageVectors,
    Relation,
)
from omoide.service.classify_judge import LearnedClassifier

CLASSES = (Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY)
FEATURES = (*TEXT_FEATURES, *EMBEDDING_FEATURES)


class CountingEmbedder:
    """A hashing embedder that records every text it embeds."""

    def __init__(self) -> None:
        self._inner = HashEmbedder()
        self.model_id = self._inner.model_id
        self.dim = self._inner.dim
        self.embedded: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded += list(texts)
        return self._inner.embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._inner.embed_query(text)


def _classifier(embedder: CountingEmbedder) -> LearnedClassifier:
    d = len(FEATURES)
    rng = np.random.default_rng(0)
    model = JudgeModel(
        embedder=embedder.model_id,
        features=FEATURES,
        classes=CLASSES,
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=rng.normal(size=(3, d)),
        bias=np.zeros(3),
        contradiction_threshold=0.6,
    )
    return LearnedClassifier(model, embedder)


NEW = "User moved from Tokyo to Osaka."
OLDS = [
    "User lives in Tokyo with her two cats.",
    "ユーザーは札幌に住んでいる",
    "User works at a bank in Tokyo.",
]


def _candidates() -> list[Candidate]:
    return [Candidate(f"k{i}", text, 0.8) for i, text in enumerate(OLDS)]


def test_one_call_embeds_each_distinct_text_once() -> None:
    embedder = CountingEmbedder()
    _classifier(embedder).classify(NEW, [*_candidates(), Candidate("again", OLDS[0], 0.8)])
    assert len(embedder.embedded) == len(set(embedder.embedded))
    assert NEW in embedder.embedded


def test_vectors_the_caller_holds_are_not_embedded_again_and_change_nothing() -> None:
    plain, reusing = CountingEmbedder(), CountingEmbedder()
    expected = _classifier(plain).classify(NEW, _candidates())
    held = dict(zip([NEW, *OLDS], HashEmbedder().embed_passages([NEW, *OLDS]), strict=True))
    got = _classifier(reusing).classify(
        NEW, _candidates(), known=PassageVectors(reusing.model_id, held)
    )
    assert got == expected
    assert not set(reusing.embedded) & set(held)
    assert reusing.embedded  # the differing parts are still embedded


def test_vectors_of_another_model_are_ignored() -> None:
    embedder = CountingEmbedder()
    other = {text: np.zeros(embedder.dim, dtype=np.float32) for text in [NEW, *OLDS]}
    expected = _classifier(CountingEmbedder()).classify(NEW, _candidates())
    got = _classifier(embedder).classify(
        NEW, _candidates(), known=PassageVectors("another-model", other)
    )
    assert got == expected
    assert NEW in embedder.embedded


def test_a_later_call_reuses_the_vectors_of_an_earlier_one() -> None:
    embedder = CountingEmbedder()
    classifier = _classifier(embedder)
    first = classifier.classify(NEW, _candidates())
    embedder.embedded.clear()
    assert classifier.classify(NEW, _candidates()) == first
    assert embedder.embedded == []
    classifier.classify("User now lives in Kyoto.", [Candidate("n", NEW, 0.8)])
    assert NEW not in embedder.embedded


def test_passage_vectors_are_the_callers_else_the_cache_else_embedded_once() -> None:
    embedder = CountingEmbedder()
    clf = _classifier(embedder)
    held = HashEmbedder().embed_passages([OLDS[0]])[0]
    got = clf.passage_vectors({OLDS[0]: held}, [OLDS[0], NEW])
    assert embedder.embedded == [NEW]  # the caller's vector is not embedded again
    assert np.array_equal(got[NEW], HashEmbedder().embed_passages([NEW])[0])
    assert clf.passage_vectors({}, [NEW]).keys() == {NEW} and embedder.embedded == [NEW]
