"""The search companion's choice (wiring), its lazy load and its vector cache (service)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from omoide.config import Settings
from omoide.embed.e5 import E5Embedder
from omoide.embed.hashing import HashEmbedder
from omoide.embed.use import USEEmbedder
from omoide.errors import InvalidInput
from omoide.service.companion import Companion
from omoide.service.vector_cache import VectorCache
from omoide.wiring import companion_name


@pytest.mark.parametrize(
    ("setting", "model_id", "expected"),
    [
        ("auto", E5Embedder.model_id, "use"),
        ("auto", USEEmbedder.model_id, None),  # measured: e5 does not help USE
        ("auto", "hash-3gram-256", None),
        ("auto", "text-embedding-3-small", None),
        ("off", E5Embedder.model_id, None),
        ("e5", E5Embedder.model_id, None),  # never the server's own model
        ("e5", USEEmbedder.model_id, "e5"),
        ("use", "text-embedding-3-small", "use"),
    ],
)
def test_the_companion_is_the_other_bundled_embedder(
    setting: str, model_id: str, expected: str | None
) -> None:
    assert companion_name(setting, model_id) == expected


def test_the_setting_is_read_and_checked(tmp_path: Path) -> None:
    assert Settings.from_env({}, data_dir=tmp_path).search_companion == "auto"
    assert (
        Settings.from_env({"OMOIDE_SEARCH_COMPANION": " OFF "}, data_dir=tmp_path).search_companion
        == "off"
    )
    with pytest.raises(InvalidInput, match="OMOIDE_SEARCH_COMPANION"):
        Settings.from_env({"OMOIDE_SEARCH_COMPANION": "bert"}, data_dir=tmp_path)
    assert Settings.from_env({}, data_dir=tmp_path).vector_cache == 10_000
    with pytest.raises(InvalidInput, match="OMOIDE_VECTOR_CACHE"):
        Settings.from_env({"OMOIDE_VECTOR_CACHE": "-1"}, data_dir=tmp_path)
    with pytest.raises(InvalidInput, match="is now OMOIDE_VECTOR_CACHE"):
        Settings.from_env({"OMOIDE_SEARCH_COMPANION_CACHE": "100"}, data_dir=tmp_path)


class _Counting(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.passage_calls: list[list[str]] = []
        self.query_calls = 0

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passage_calls.append(list(texts))
        return super().embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.query_calls += 1
        return super().embed_query(text)


def test_one_batched_call_for_the_misses_and_the_query_once() -> None:
    inner = _Counting()
    loads: list[int] = []
    companion = Companion("x", lambda: loads.append(1) or inner, vectors=VectorCache(4))
    first = companion.cosines("tea", {1: "green tea", 2: "black coffee"})
    assert set(first) == {1, 2} and first[1] > first[2]
    again = companion.cosines("tea", {1: "green tea", 3: "oolong tea", 4: "green tea"})
    assert again[1] == pytest.approx(first[1]) and again[4] == pytest.approx(first[1])
    assert inner.passage_calls == [["green tea", "black coffee"], ["oolong tea"]]
    assert inner.query_calls == 1 and loads == [1]
    assert len(companion.vectors) == 4  # three passages and the query
    companion.cosines("tea", {5: "espresso"})  # evicts the least recently used
    assert len(companion.vectors) == 4
    companion.cosines("coffee", {2: "black coffee"})
    assert inner.passage_calls[-1] == ["black coffee"]


def test_a_companion_that_fails_to_load_is_left_out() -> None:
    def broken() -> HashEmbedder:
        raise RuntimeError("no model")

    companion = Companion("x", broken)
    assert companion.cosines("tea", {1: "green tea"}) == {}
    assert companion.embedder() is None


def test_warm_up_loads_the_lazy_models_and_caches_nothing(app) -> None:  # type: ignore[no-untyped-def]
    """The server's start loads the companion (and dedup's part embedder) on a thread of its
    own, so the first search does not; it stores no vector, so no result depends on it."""
    from omoide.service.classify_judge import LazyEmbedder

    companion_model, parts_model = _Counting(), _Counting()
    loads: list[str] = []
    app.search.companion = Companion("x", lambda: loads.append("companion") or companion_model)
    app.memories.dedup.parts = LazyEmbedder(
        parts_model.model_id, lambda: loads.append("parts") or parts_model
    )
    app.warm_up().join(10)
    assert loads == ["companion", "parts"]
    assert companion_model.query_calls == 1 and parts_model.query_calls == 1
    assert len(app.search.companion.vectors) == 0
    app.search.companion.cosines("tea", {1: "green tea"})
    assert loads == ["companion", "parts"]  # the search found the model loaded


def test_warm_up_calls_the_named_loading_method_of_each_object(  # type: ignore[no-untyped-def]
    app, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Session 32: the warm-up loads through ``Companion.embedder`` and
    ``DedupDecider.load_parts``, not by reading an attribute for its side effect."""
    calls: list[str] = []
    model = _Counting()
    app.search.companion = Companion("x", lambda: model)
    monkeypatch.setattr(
        app.search.companion, "embedder", lambda: calls.append("companion") or model
    )
    monkeypatch.setattr(app.memories.dedup, "load_parts", lambda: calls.append("parts") or None)
    app.warm_up().join(10)
    assert calls == ["companion", "parts"]
    assert model.query_calls == 1  # a model that loaded gets its first inference; None none


def test_load_parts_builds_a_lazy_part_embedder_once_and_returns_a_plain_one() -> None:
    from omoide.service.classify_judge import LazyEmbedder
    from omoide.service.dedup import DedupDecider

    dedup = DedupDecider(HashEmbedder())
    built: list[_Counting] = []
    dedup.parts = LazyEmbedder(_Counting().model_id, lambda: built.append(_Counting()) or built[-1])
    assert not built
    first = dedup.load_parts()
    assert built == [first] and dedup.load_parts() is first and first.query_calls == 0
    plain = _Counting()
    dedup.parts = plain
    assert dedup.load_parts() is plain
    dedup.parts = None
    assert dedup.load_parts() is None


def test_warm_up_survives_a_model_that_fails_to_load(app) -> None:  # type: ignore[no-untyped-def]
    def broken() -> HashEmbedder:
        raise RuntimeError("no model")

    app.search.companion = Companion("x", broken)
    app.warm_up().join(10)
    assert app.search.companion.embedder() is None  # left out, as on a first search


@pytest.mark.parametrize("workers", [True, False])
def test_the_server_warms_up_as_it_starts(
    app,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
    workers: bool,
) -> None:
    from fastapi.testclient import TestClient

    from omoide.api.http.app import create_app

    calls: list[int] = []
    monkeypatch.setattr(app, "warm_up", lambda: calls.append(1))
    with TestClient(create_app(app, start_workers=workers)) as client:
        assert client.get("/health").status_code == 200
    assert calls == ([1] if workers else [])
