"""Cost of ``bench/search_study.py`` (which see): keyword latency, vector search, embedding."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from _study_data import BASE_DDL, BASE_INDEX
from _study_eval import Study

# -- cost: keyword latency at scale, vector search, embedding ----------------------------------


def _synthetic_rows(texts: Sequence[str], n: int, seed: int) -> list[str]:
    """Memory-like rows: two real texts spliced, plus a unique tag so no two rows are equal."""
    import random

    rng = random.Random(seed)
    rows = []
    for i in range(n):
        first, second = rng.choice(texts), rng.choice(texts)
        rows.append(f"{first} {second[: rng.randint(0, len(second))]} #{i}")
    return rows


def _percentiles(times: Sequence[tuple[float, float]]) -> dict[str, float]:
    wall, cpu = np.array([t[0] for t in times]), np.array([t[1] for t in times])
    return {
        "p50_ms": round(float(np.percentile(wall, 50)), 2),
        "p95_ms": round(float(np.percentile(wall, 95)), 2),
        "max_ms": round(float(wall.max()), 2),
        "cpu_p50_ms": round(float(np.percentile(cpu, 50)), 2),
        "cpu_p95_ms": round(float(np.percentile(cpu, 95)), 2),
    }


def _best_of(repeats: int, fn: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, CPU ms) of the fastest of ``repeats`` runs. The machine is shared: the minimum
    is the least disturbed by other work, and CPU time (all of this process's threads) hardly
    depends on the load at all."""
    wall = cpu = float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall * 1000, cpu * 1000


def _top_k(matrix: np.ndarray, query: np.ndarray, k: int) -> np.ndarray:
    sims = matrix @ query
    top = np.argpartition(-sims, k)[:k]
    return top[np.argsort(-sims[top])]


def study_latency(study: Study, rows: int) -> dict:
    import sqlite3
    from dataclasses import replace

    from omoide.store.sqlite.fts_search import Fts5Index
    from omoide.store.sqlite.fts_terms import DEFAULT_TUNING

    texts = [d.text for d in study.ja.docs] * 10 + [d.text for c in study.locomo for d in c.docs]
    path = study.tmp / "scale.db"
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.execute(BASE_DDL)
    conn.execute(BASE_INDEX)
    base = Fts5Index(
        name="memories",
        base_table="memories",
        content_col="content",
        persona_col="persona_id",
        filter_sql="b.status = 'active'",
    )
    for statement in base.ddl():
        conn.execute(statement)
    other = rows // 10  # a second persona, so the persona filter has something to exclude
    data = _synthetic_rows(texts, rows + other, seed=7)
    start = time.perf_counter()
    conn.executemany(
        "INSERT INTO memories (id, persona_id, content) VALUES (?, ?, ?)",
        [(i + 1, 1 if i < rows else 2, t) for i, t in enumerate(data)],
    )
    base.index(conn, [(i + 1, t) for i, t in enumerate(data)])
    conn.commit()
    out: dict = {
        "load_average": round(os.getloadavg()[0], 1),
        "rows": rows,
        "other_persona_rows": other,
        "index_s": round(time.perf_counter() - start, 1),
        "keyword": {},
        "vector": {},
    }
    queries = [q.text for q in study.ja.queries] + [q.text for q in study.locomo[0].queries[:60]]
    variants = {
        "default": DEFAULT_TUNING,
        "short: instr": replace(DEFAULT_TUNING, short_path="instr"),
        "row_budget 2000": replace(DEFAULT_TUNING, row_budget=2000),
        "row_budget 20000": replace(DEFAULT_TUNING, row_budget=20000),
        "no pruning": replace(DEFAULT_TUNING, max_df=1.0, row_budget=10**9),
    }
    for name, tuning in variants.items():
        fts = replace(base, tuning=tuning)
        for q in queries[:10]:  # warm the page cache
            fts.search(conn, persona_id=1, query=q, limit=20)
        times = [
            _best_of(3, partial(fts.search, conn, persona_id=1, query=q, limit=20)) for q in queries
        ]
        out["keyword"][name] = _percentiles(times)
        print(f"  latency {name:14s} {out['keyword'][name]}", flush=True)
    conn.close()
    rng = np.random.default_rng(0)
    for name, dim in (("use", 512), ("e5", 384)):
        matrix = rng.standard_normal((rows, dim)).astype(np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        times = [
            _best_of(3, partial(_top_k, matrix, matrix[i], 100))
            for i in rng.integers(rows, size=20)
        ]
        out["vector"][name] = {"dim": dim, **_percentiles(times)}
    return out


def study_cost(study: Study, embedders: dict) -> dict:
    passages = [d.text for d in study.locomo[0].docs[:192]] + [d.text for d in study.ja.docs[:64]]
    queries = [q.text for q in study.ja.queries[:20]]
    queries += [q.text for q in study.locomo[0].queries[:20]]
    out = {}
    for name, emb in embedders.items():
        emb.embed_passages(passages[:8])  # load and warm
        batch_ms, batch_cpu_ms = _best_of(2, partial(emb.embed_passages, passages))
        times = [_best_of(3, partial(emb.embed_query, q)) for q in queries]
        out[name] = {
            "model_id": emb.model_id,
            "dim": emb.dim,
            "passages_per_s": round(len(passages) / batch_ms * 1000, 1),
            "passages_per_cpu_s": round(len(passages) / batch_cpu_ms * 1000, 1),
            "query": _percentiles(times),
        }
        print(f"  cost {name}: {out[name]}", flush=True)
    return out
