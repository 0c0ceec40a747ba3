"""Search and write timing of ``bench/core.py`` (which see): the corpus, the app, the timers."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from lib.metrics import Repeated, best_and_median, timed_ms, timed_wall_cpu_ms
from lib.reports import (
    load_average,
    log,
)
from lib.synthetic import NOW, SyntheticCorpus, chunks
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed import Embedder
from omoide.model import SearchFilters
from omoide.service.search import SearchService
from omoide.store.sqlite.store import SqliteStore
from omoide.wiring import Omoide, build

PERSONA = "bench"
SECTIONS = ("search", "create", "rss", "threads", "decay")
_PINNED = "OMOIDE_BENCH_THREADS"
LOAD_BATCH = 2000

TARGET_SEARCH_P95_INCLUDED_MS = 50.0
TARGET_SEARCH_P95_EXCLUDED_MS = 15.0
TARGET_INGEST_PER_S = {"use": 200.0, "e5": 20.0}
TARGET_DECAY_1M_S = 5.0
TARGET_RSS_MB = 600.0


@dataclass(frozen=True)
class Plan:
    """How much to measure; ``--quick`` shrinks every knob."""

    sizes: tuple[int, ...]
    decay_sizes: tuple[int, ...]
    repeats: int
    queries: tuple[str, ...]
    create_per_repeat: dict[str, int]
    ingest_count: dict[str, int]
    rss_searches: int


@dataclass(frozen=True)
class Variant:
    name: str
    mode: str
    tags: tuple[str, ...] = ()
    date_range: str | None = None


VARIANTS = (
    Variant("hybrid", "hybrid"),
    Variant("semantic", "semantic"),
    Variant("keyword", "keyword"),
    Variant("hybrid + tags", "hybrid", tags=("travel",)),
    Variant("hybrid + date_range", "hybrid", date_range="last month"),
    Variant("hybrid + tags + date_range", "hybrid", tags=("travel",), date_range="last month"),
)


class PrecomputedQueries:
    """An embedder whose ``embed_query`` returns vectors computed beforehand by the real model,
    so a timed search covers retrieval, fusion, hydration and recall bookkeeping only."""

    def __init__(self, inner: Embedder, queries: Sequence[str]) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.calibration = inner.calibration
        self._vectors = {q.strip(): inner.embed_query(q.strip()) for q in queries}

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._vectors[text]


# -- wiring -------------------------------------------------------------------------------------


@contextlib.contextmanager
def temp_app(embedder: Embedder, root: Path, name: str) -> Iterator[tuple[Omoide, FixedClock]]:
    clock = FixedClock(NOW)
    app = build(
        Settings.from_env({}, data_dir=root / name), embedder=embedder, clock=clock, llm=None
    )
    try:
        yield app, clock
    finally:
        app.close()


def bulk_load(app: Omoide, corpus: SyntheticCorpus, persona: str, n: int) -> float:
    """Add ``n`` synthetic memories through ``insert_many``; returns seconds."""
    store = app.store.memories(persona)
    start = time.perf_counter()
    for size in chunks(n, LOAD_BATCH):
        news, vectors, stabilities = corpus.batch(size)
        store.insert_many(news, vectors, stabilities=stabilities, now=NOW)
    return time.perf_counter() - start


# -- search -------------------------------------------------------------------------------------


def time_searches(
    service: SearchService,
    clock: FixedClock,
    variant: Variant,
    queries: Sequence[str],
    repeats: int,
) -> dict[str, Any]:
    """Wall-clock p50/p95 of each repeat, and the same for CPU time (``cpu_*``)."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall_samples, cpu_samples = [], []
        for query in queries:
            # An hour later each time, so every search also pays its recall write (worst case).
            clock.advance(hours=1)
            wall, cpu, _ = timed_wall_cpu_ms(
                lambda q=query: service.search(
                    PERSONA,
                    service.build_request(
                        PERSONA,
                        query=q,
                        top_k=10,
                        mode=variant.mode,
                        tags=list(variant.tags) or None,
                        date_range=variant.date_range,
                    ),
                )
            )
            wall_samples.append(wall)
            cpu_samples.append(cpu)
        walls.append(wall_samples)
        cpus.append(cpu_samples)
    cpu = Repeated.of(cpus).as_dict()
    return {
        **Repeated.of(walls).as_dict(),
        **{f"cpu_{k}": v for k, v in cpu.items() if k.endswith("_ms")},
    }


def time_components(
    app: Omoide, embedder: Embedder, queries: Sequence[str], repeats: int
) -> dict[str, dict[str, Any]]:
    """Where a hybrid search spends its time: each store call on its own (pool of 50)."""
    memories = app.store.memories(PERSONA)
    vectors = {q: embedder.embed_query(q) for q in queries}
    filters = SearchFilters(
        tags=("travel",),
        created_from=NOW - timedelta(days=60),
        created_until=NOW - timedelta(days=30),
    )
    top = {q: [i for i, _ in memories.vectors.search(vectors[q], limit=50)] for q in queries}
    parts: dict[str, Callable[[str], object]] = {
        "embed_query": embedder.embed_query,
        "keyword_search (FTS, pool 50)": lambda q: memories.keyword_search(q, limit=50),
        "vector search (numpy, pool 50)": lambda q: memories.vectors.search(vectors[q], limit=50),
        "allowed_ids (tags + date filter)": lambda q: memories.allowed_ids(filters),
        "hydrate 50 (by_ids)": lambda q: memories.by_ids(top[q]),
    }
    out = {}
    for name, fn in parts.items():
        runs = [[timed_ms(functools.partial(fn, q))[0] for q in queries] for _ in range(repeats)]
        per_query = np.median(np.asarray(runs), axis=0)
        slowest = sorted(zip(per_query.tolist(), queries, strict=True), reverse=True)[:3]
        out[name] = {
            **Repeated.of(runs).as_dict(),
            "slowest": [{"query": q, "median_ms": round(ms, 1)} for ms, q in slowest],
        }
    return out


def cold_index_load_ms(db_path: Path, embedder: Embedder) -> float:
    """Time for a fresh process-like store to load the persona's vectors into memory."""
    store = SqliteStore(db_path, model_id=embedder.model_id, dim=embedder.dim)
    try:
        ms, index = timed_ms(lambda: store.memories(PERSONA).vectors)
        assert len(index) > 0
        return ms
    finally:
        store.close()


def bench_size(
    app: Omoide, clock: FixedClock, name: str, embedder: Embedder, plan: Plan, texts: Iterator[str]
) -> dict[str, Any]:
    queries = plan.queries
    excluded = SearchService(
        app.store, PrecomputedQueries(embedder, queries), clock, app.settings_service
    )
    included = app.search
    warm = Variant("warm-up", "hybrid")
    time_searches(excluded, clock, warm, queries, 1)
    result: dict[str, Any] = {"load_average": load_average()}
    result["index_load_ms"] = round(cold_index_load_ms(app.settings.db_path, embedder), 1)
    result["embed_query"] = Repeated.of(
        [
            [timed_ms(lambda q=q: embedder.embed_query(q))[0] for q in queries]
            for _ in range(plan.repeats)
        ]
    ).as_dict()
    variants: dict[str, Any] = {}
    for variant in VARIANTS:
        variants[variant.name] = {
            "included": time_searches(included, clock, variant, queries, plan.repeats),
            "excluded": time_searches(excluded, clock, variant, queries, plan.repeats),
        }
        log(
            f"  {variant.name}: p95 incl {variants[variant.name]['included']['p95_best_ms']:.1f}"
            f" / excl {variants[variant.name]['excluded']['p95_best_ms']:.1f} ms (best)"
        )
    result["variants"] = variants
    result["components"] = time_components(app, embedder, queries, plan.repeats)
    result["create"] = time_creates(app, clock, texts, plan.create_per_repeat[name], plan.repeats)
    result["load_average_after"] = load_average()
    return result


# -- writes -------------------------------------------------------------------------------------


def time_creates(
    app: Omoide, clock: FixedClock, texts: Iterator[str], per_repeat: int, repeats: int
) -> dict[str, Any]:
    """memory_create one at a time into the loaded persona (dedup searches the whole index)."""
    runs, outcomes = [], {"created": 0, "duplicate": 0}
    for _ in range(repeats):
        samples = []
        for _ in range(per_repeat):
            text = next(texts)
            clock.advance(seconds=1)
            ms, outcome = timed_ms(
                lambda t=text: app.memories.create(PERSONA, app.memories.build_new(content=t))
            )
            samples.append(ms)
            outcomes[outcome.status] += 1
        runs.append(samples)
    return {**Repeated.of(runs).as_dict(), **outcomes}


def bench_ingest(
    name: str, embedder: Embedder, root: Path, texts: Sequence[str], count: int, repeats: int
) -> dict[str, Any]:
    """Throughput into an empty persona: MemoryService.create one by one, and the bulk path."""
    batch = texts[:count]
    one_by_one, bulk, created = [], [], []
    with temp_app(embedder, root, f"ingest-{name}") as (app, clock):
        for r in range(repeats):
            persona = f"one{r}"
            app.auth.create_persona(persona)
            start = time.perf_counter()
            n_created = 0
            for text in batch:
                clock.advance(seconds=1)
                outcome = app.memories.create(persona, app.memories.build_new(content=text))
                n_created += outcome.status == "created"
            one_by_one.append(len(batch) / (time.perf_counter() - start))
            created.append(n_created)
            persona = f"bulk{r}"
            app.auth.create_persona(persona)
            store = app.store.memories(persona)
            start = time.perf_counter()
            for offset in range(0, len(batch), 64):
                news = [app.memories.build_new(content=t) for t in batch[offset : offset + 64]]
                vectors = embedder.embed_passages([n.content for n in news])
                store.insert_many(news, vectors, stabilities=[1.0] * len(news), now=clock.now())
            bulk.append(len(batch) / (time.perf_counter() - start))
            log(
                f"  ingest {name} run {r + 1}: {one_by_one[-1]:.1f}/s one by one, "
                f"{bulk[-1]:.1f}/s bulk"
            )
    return {
        "texts": len(batch),
        "created_one_by_one": created,
        "one_by_one_per_s": best_and_median(
            [round(x, 1) for x in one_by_one], higher_is_better=True
        ),
        "bulk_per_s": best_and_median([round(x, 1) for x in bulk], higher_is_better=True),
        "load_average": load_average(),
    }
