"""The one LRU of embedded vectors: each text embedded once per model whoever asks (the learned
judge, dedup, the search companion), the same vectors as embedding it directly."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from omoide.embed.hashing import HashEmbedder
from omoide.engine.classify import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    Candidate,
    JudgeModel,
    Relation,
)
from omoide.service.classify_judge import LearnedClassifier
from omoide.service.companion import Companion
from omoide.service.vector_cache import VectorCache
from omoide.wiring import Omoide


class Counting(HashEmbedder):
    """A hashing embedder that records every text it is handed, under a model id of choice."""

    def __init__(self, model_id: str | None = None) -> None:
        super().__init__()
        self.model_id = model_id or self.model_id
        self.passages: list[list[str]] = []
        self.queries: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages.append(list(texts))
        return super().embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return super().embed_query(text)


class Cutting(Counting):
    def cut(self, text: str) -> str:
        return text[:10]


def test_misses_are_embedded_once_in_one_call_and_give_the_direct_vectors() -> None:
    embedder, cache = Counting(), VectorCache()
    first = cache.passages(embedder, ["green tea", "black coffee", "green tea"])
    again = cache.passages(embedder, ["black coffee", "oolong tea"])
    assert embedder.passages == [["green tea", "black coffee"], ["oolong tea"]]
    direct = HashEmbedder().embed_passages(["green tea", "black coffee", "oolong tea"])
    for vector, text in zip(direct, ["green tea", "black coffee", "oolong tea"], strict=True):
        assert np.array_equal({**first, **again}[text], vector)
    assert cache.passages(embedder, []) == {} and len(embedder.passages) == 2


def test_vectors_are_kept_per_model_and_queries_apart_from_passages() -> None:
    one, other, cache = Counting("model-a"), Counting("model-b"), VectorCache()
    cache.passages(one, ["tea"])
    cache.passages(other, ["tea"])
    cache.query(one, "tea")
    cache.query(one, "tea")
    assert one.passages == [["tea"]] and other.passages == [["tea"]] and one.queries == ["tea"]
    assert len(cache) == 3


def test_a_text_is_embedded_as_the_model_reads_it() -> None:
    embedder, cache = Cutting(), VectorCache()
    long = "a very long passage about tea"
    vector = cache.passages(embedder, [long])[long]
    assert embedder.passages == [[long[:10]]]
    assert np.array_equal(vector, HashEmbedder().embed_passages([long[:10]])[0])
    cache.query(embedder, long)
    assert embedder.queries == [long[:10]]


def test_the_least_recently_used_is_dropped_first() -> None:
    embedder, cache = Counting(), VectorCache(2)
    cache.passages(embedder, ["a", "b"])
    cache.passages(embedder, ["a"])  # b is now the oldest
    cache.passages(embedder, ["c"])
    cache.passages(embedder, ["a", "b"])
    assert embedder.passages[-1] == ["b"] and len(cache) == 2
    nothing = VectorCache(0)
    nothing.passages(embedder, ["a"])
    assert len(nothing) == 0


def test_threads_sharing_one_cache_get_the_right_vectors() -> None:
    embedder, cache = Counting(), VectorCache(50)
    texts = [f"text {i}" for i in range(200)]
    direct = dict(zip(texts, HashEmbedder().embed_passages(texts), strict=True))
    wrong: list[str] = []

    def work(offset: int) -> None:
        for i in range(offset, offset + 400):
            picked = [texts[i % 200], texts[(i * 7) % 200]]
            for text, vector in cache.passages(embedder, picked).items():
                if not np.array_equal(vector, direct[text]):
                    wrong.append(text)

    threads = [threading.Thread(target=work, args=(n * 13,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == [] and len(cache) <= 50


def _judge(embedder: Counting, cache: VectorCache) -> LearnedClassifier:
    features = (*TEXT_FEATURES, *EMBEDDING_FEATURES)
    d = len(features)
    model = JudgeModel(
        embedder=embedder.model_id,
        features=features,
        classes=(Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY),
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=np.random.default_rng(0).normal(size=(3, d)),
        bias=np.zeros(3),
        contradiction_threshold=0.6,
    )
    return LearnedClassifier(model, embedder, vectors=cache)


def test_a_text_the_judge_embedded_is_not_embedded_again_by_the_companion() -> None:
    embedder, cache = Counting(), VectorCache()
    new, old = "User moved from Tokyo to Osaka.", "User lives in Tokyo."
    alone = _judge(Counting(), VectorCache()).classify(new, [Candidate("k", old, 0.8)])
    assert _judge(embedder, cache).classify(new, [Candidate("k", old, 0.8)]) == alone
    judged = [t for call in embedder.passages for t in call]
    companion = Companion("x", lambda: embedder, vectors=cache)
    cosines = companion.cosines("where does the user live", {1: new, 2: old})
    assert set(cosines) == {1, 2}
    assert {new, old} <= set(judged) and [t for call in embedder.passages for t in call] == judged


@pytest.mark.parametrize(
    "environ", [{"OMOIDE_SEARCH_COMPANION": "use", "OMOIDE_VECTOR_CACHE": "123"}]
)
def test_the_server_wires_one_cache(
    make_app: Callable[..., Omoide], environ: dict[str, str]
) -> None:
    app = make_app(environ)
    assert app.search.companion is not None  # built, not loaded: nothing is embedded here
    assert app.search.companion.vectors is app.memories.dedup.vectors
    assert app.memories.dedup.vectors.size == 123
