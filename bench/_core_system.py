"""Process-level measurements of ``bench/core.py`` (which see): RSS, embedder threads, decay."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from _core_search import PERSONA, Plan
from lib.metrics import Repeated, best_and_median, timed_ms
from lib.reports import (
    load_average,
    log,
    peak_rss_mb,
    rss_mb,
)
from lib.synthetic import NOW, SEARCH_QUERIES, chunks
from omoide.clock import FixedClock, iso
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.fsrs import strengths
from omoide.store.sqlite.store import SqliteStore
from omoide.wiring import build

# -- RSS ----------------------------------------------------------------------------------------

CORE_SCRIPT = Path(__file__).resolve().parent / "core.py"  # children re-run the command


def rss_child(data_dir: Path, embedder_name: str, searches: int) -> dict[str, Any]:
    """Run in a fresh process: a server's memory with the persona loaded and serving searches."""
    out: dict[str, Any] = {"start_mb": rss_mb()}
    embedder = make_embedder(embedder_name)
    out["after_model_mb"] = rss_mb()
    clock = FixedClock(NOW)
    app = build(Settings.from_env({}, data_dir=data_dir), embedder=embedder, clock=clock, llm=None)
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
    cmd = [
        sys.executable,
        str(CORE_SCRIPT),
        "--rss-child",
        str(data_dir),
        "--embedder",
        embedder_name,
        "--rss-searches",
        str(searches),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# -- embedder threads ---------------------------------------------------------------------------

THREAD_SETUPS: dict[str, dict[str, str]] = {
    "library default": {},
    "OMP_WAIT_POLICY=passive": {"OMP_WAIT_POLICY": "passive"},
    "1 thread": {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"},
}


def threads_child(
    names: Sequence[str], queries: Sequence[str], texts: Sequence[str], repeats: int
) -> dict[str, Any]:
    """Run in a fresh process: embedding latency under this process's thread settings."""
    out: dict[str, Any] = {}
    for name in names:
        embedder = make_embedder(name)
        embedder.embed_query(queries[0])
        out[name] = {
            "embed_query": Repeated.of(
                [
                    [timed_ms(functools.partial(embedder.embed_query, q))[0] for q in queries]
                    for _ in range(repeats)
                ]
            ).as_dict(),
            "embed_one_passage": Repeated.of(
                [
                    [timed_ms(functools.partial(embedder.embed_passages, [t]))[0] for t in texts]
                    for _ in range(repeats)
                ]
            ).as_dict(),
        }
    return out


def bench_threads(names: Sequence[str], plan: Plan, data: Path, quick: bool) -> dict[str, Any]:
    """The same embedding calls under each thread setup, each in its own process."""
    out: dict[str, Any] = {"load_average": load_average()}
    for label, extra in THREAD_SETUPS.items():
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY")
        }
        env.update(extra)
        cmd = [
            sys.executable,
            str(CORE_SCRIPT),
            "--threads-child",
            "--embedder",
            names[0] if len(names) == 1 else "both",
            "--repeats",
            str(plan.repeats),
            "--data",
            str(data),
            *(["--quick"] if quick else []),
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
        out[label] = json.loads(done.stdout.strip().splitlines()[-1])
        log(
            f"  threads '{label}': "
            + ", ".join(
                f"{n} query p50 {v['embed_query']['p50_best_ms']:.1f} ms"
                for n, v in out[label].items()
            )
        )
    return out


# -- decay --------------------------------------------------------------------------------------


def add_decay_rows(
    store: SqliteStore, persona_id: int, first_id: int, n: int, rng: np.random.Generator
) -> None:
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
                [
                    (int(i), f"mem_{i:012d}", persona_id, float(imp), c, c, None if nv else a)
                    for i, imp, c, a, nv in zip(
                        ids, importance, created.tolist(), accessed.tolist(), never, strict=True
                    )
                ],
            )
            conn.executemany(
                "INSERT INTO memory_strength (memory_id, strength, stability, last_decay_at) "
                "VALUES (?, ?, ?, NULL)",
                [
                    (int(i), float(imp), float(s))
                    for i, imp, s in zip(ids, importance, stability, strict=True)
                ],
            )
            first_id += size
    store.db.conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")


_SELECT_FOR_DECAY = (
    "SELECT m.id, m.importance, s.stability, "
    "(julianday(?) - julianday(COALESCE(m.last_accessed, m.created_at))) * 24.0 "
    "FROM memories m JOIN memory_strength s ON s.memory_id = m.id"
)


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
        params = list(
            zip(values.tolist(), [stamp] * len(data), data[:, 0].astype(int).tolist(), strict=True)
        )
        phases["numpy_s"] = time.perf_counter() - mark
        mark = time.perf_counter()
        conn.executemany(
            "UPDATE memory_strength SET strength = ?, last_decay_at = ? WHERE memory_id = ?", params
        )
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
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS bench_decay (id INTEGER PRIMARY KEY, strength REAL)"
        )
        conn.execute("DELETE FROM bench_decay")
        conn.executemany(
            "INSERT INTO bench_decay VALUES (?, ?)",
            zip(data[:, 0].astype(int).tolist(), values.tolist(), strict=True),
        )
        conn.execute(
            "UPDATE memory_strength SET strength = d.strength, last_decay_at = ? "
            "FROM bench_decay d WHERE d.id = memory_strength.memory_id",
            (stamp,),
        )
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
            "FROM memories m WHERE m.id = memory_strength.memory_id",
            (iso(NOW),),
        )
    return {"total_s": time.perf_counter() - start}


def decay_store(store: SqliteStore) -> dict[str, float]:
    start = time.perf_counter()
    store.decay_all(now=NOW)
    return {"total_s": time.perf_counter() - start}


def stored_strengths(store: SqliteStore) -> np.ndarray:
    return np.array(
        [
            r[0]
            for r in store.db.conn().execute(
                "SELECT strength FROM memory_strength ORDER BY memory_id"
            )
        ],
        dtype=np.float64,
    )


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
            out["sizes"][str(size)] = {
                "build_s": round(time.perf_counter() - start, 1),
                **best_and_median([round(r, 3) for r in runs]),
                "load_average": load_average(),
            }
            log(f"  decay at {size:,}: best {min(runs):.2f} s")
        out["strategies"] = compare_decay_strategies(store, have, repeats)
    finally:
        store.close()
    return out


def compare_decay_strategies(store: SqliteStore, size: int, repeats: int) -> dict[str, Any]:
    """Each way to run the job at ``size`` rows, best of ``repeats``, and whether they agree."""
    runs: dict[str, list[dict[str, float]]] = {
        "executemany (previous)": [],
        "temp table": [],
        "SQL pow()": [],
        "SQL function (decay_all)": [],
    }
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
        out[name] = {
            "best": {k: round(v, 3) for k, v in best.items()},
            "median_total_s": round(float(np.median([t["total_s"] for t in timings])), 3),
            "max_abs_diff_vs_previous": float(np.max(np.abs(values[name] - reference)))
            if name in values
            else None,
        }
    return out
