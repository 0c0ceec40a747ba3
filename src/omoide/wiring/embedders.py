"""The embedders a server uses: its own (with any stored calibration), the bundled models
shared by every server of the process (dedup's part embedder, the learned judge's), and the
companion search consults beside the server's model."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache

from omoide.config import Settings
from omoide.embed import Embedder, make_embedder, make_fair_embedder
from omoide.service.classify_judge import judge_embedder_name
from omoide.service.companion import Companion
from omoide.service.vector_cache import VectorCache


def build_embedder(settings: Settings, *, fair_share: bool = False) -> Embedder:
    """The configured embedder, with the calibration ``omoide calibrate`` stored for an
    embedder Omoide does not ship; ``fair_share``: behind the server's fair scheduler
    (interactive calls ahead of background batches, ``embed/fair.py``)."""
    from omoide.embed.calibration_store import apply_stored_calibration

    maker = make_fair_embedder if fair_share else make_embedder
    embedder = maker(settings.embedder, threads=settings.embed_threads, **settings.embed_options)
    apply_stored_calibration(embedder, settings.data_dir)
    return embedder


_BUNDLED_LOCK = threading.Lock()  # the write path and the evolve job may ask at the same moment


@cache
def _bundled_model(name: str, threads: int) -> Embedder:
    return make_embedder(name, threads=threads)


def bundled_embedder(name: str, threads: int = 1) -> Embedder:
    """The bundled embedder ``name`` with ``threads`` (dedup's part embedder USE; the 3-op
    judge's e5 on a server that searches with another model), built once per process and
    shared by every server the process wires: the two judges share one when they name the same
    model, and a process wiring several servers (tests, benchmarks) loads the model once, not
    once per server (seconds each). An embedder keeps nothing between calls and guards its
    model with its own lock, so sharing it changes no result."""
    with _BUNDLED_LOCK:
        return _bundled_model(name, threads)


def bundled_builder(embedder: Embedder, settings: Settings) -> Callable[[str], Embedder] | None:
    """Builds a bundled embedder by setting name (:func:`bundled_embedder`), or None for the
    model-free hashing embedder of tests and offline demos, which keeps the rules."""
    if embedder.model_id.startswith("hash-"):
        return None
    return lambda name: bundled_embedder(name, settings.embed_threads)


def judge_embedder(bundled: Callable[[str], Embedder] | None) -> Callable[[], Embedder] | None:
    """How to build the learned judge's embedder (the packaged choice, e.g. USE) with the
    server's shared builder, or None when there is none (the hashing embedder keeps its
    rules) or the package names no judge embedder."""
    name = judge_embedder_name()
    if name is None or bundled is None:
        return None
    return lambda: bundled(name)


def companion_name(setting: str, model_id: str) -> str | None:
    """The bundled embedder search consults beside ``model_id`` (the server's): ``auto`` → USE
    beside e5, and none beside USE or any other embedder (the hashing one of tests, an external
    model); ``off`` → none; ``e5``/``use`` → that one unless it is the server's own.

    Measured by leave-one-set-out over five retrieval sets (``bench/results/search16.md``):
    USE beside e5 raised held-out MRR on every set (+0.011 to +0.047); e5 beside USE changed
    it by -0.004 to +0.004 (it pulls down USE's cross-lingual matches) and a cold search then
    embeds its candidates on e5 (~3 s on a loaded core), so ``auto`` leaves USE alone."""
    from omoide.embed.e5 import E5Embedder
    from omoide.embed.use import USEEmbedder

    own = {E5Embedder.model_id: "e5", USEEmbedder.model_id: "use"}.get(model_id)
    if setting == "off":
        return None
    if setting == "auto":
        return "use" if own == "e5" else None
    return None if setting == own else setting


def search_companion(
    settings: Settings, embedder: Embedder, vectors: VectorCache
) -> Companion | None:
    """The companion search consults beside the server's embedder (:func:`companion_name`),
    sharing the server's vector cache, or None."""
    name = companion_name(settings.search_companion, embedder.model_id)
    if name is None:
        return None
    return Companion(name, lambda: bundled_embedder(name, settings.embed_threads), vectors=vectors)
