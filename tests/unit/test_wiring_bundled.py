"""A bundled embedder (the judges' USE) is built once per process, whichever server asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.wiring import embedders


class _Named(HashEmbedder):
    """Any model but the hashing one is served with the bundled judges."""

    def __init__(self) -> None:
        super().__init__()
        self.model_id = "fake-bundled-model"


def test_every_server_of_a_process_shares_one_bundled_embedder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    built: list[tuple[str, int]] = []

    def make(name: str, *, threads: int = 1) -> HashEmbedder:
        built.append((name, threads))
        return HashEmbedder()

    monkeypatch.setattr(embedders, "make_embedder", make)
    settings = Settings.from_env({}, data_dir=tmp_path)
    first = embedders.bundled_builder(_Named(), settings)
    second = embedders.bundled_builder(_Named(), settings)
    assert first is not None and second is not None
    assert first("test-only-a") is second("test-only-a")
    assert built == [("test-only-a", 1)]
    # another model or another thread count is another instance
    assert embedders.bundled_embedder("test-only-a", 2) is not first("test-only-a")
    assert first("test-only-b") is not first("test-only-a")
    assert built == [("test-only-a", 1), ("test-only-a", 2), ("test-only-b", 1)]
    assert (
        embedders.bundled_builder(HashEmbedder(), settings) is None
    )  # the hashing embedder: rules
