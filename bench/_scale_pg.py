"""Bulk loading for ``bench/scale.py`` on PostgreSQL: the rows ``insert_many`` writes, by COPY.

``MemoryStore.insert_many`` is the product's bulk path (one transaction, one statement per table
per batch) and is what ``scale.py`` times as "ingest/s". At a million rows it would take most of
an hour on two shared cores, so past ``--pg-copy-above`` rows the benchmark loads the same rows
(memory, strength, version 1, tags, vector, both keyword-index bodies) with ``COPY`` in batches,
then bumps the persona's revision (so every process reloads), vacuums and analyses. The HNSW
index is built afterwards by ``PostgresStore.ensure_ann_index`` (its time is reported apart).

The version rows' ``after`` image holds the versioned fields of the new memory, as
``insert_many`` writes it (``memory_image``), built from the inputs rather than read back.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from lib.reports import log
from lib.synthetic import NOW, SyntheticCorpus, chunks
from omoide.clock import iso, parse_iso
from omoide.engine.lang import normalise
from omoide.store.sqlite.fts_terms import words_body
from omoide.store.sqlite.memory_sql import new_key

__all__ = [
    "copy_load",
    "hnsw_cell",
    "load_many",
    "load_one",
    "loaded_rows",
    "settle",
    "vector_side",
    "with_recall_writes",
]

PERSONA = "bench"  # as scale.py
_BATCH = 10_000
_WORKERS = 2  # COPY streams: the server computes the generated keyword columns of each
_GIN = {
    "memories_fts_words": "memories_fts USING gin (words)",
    "memories_fts_tri_grams": "memories_fts_tri USING gin (grams)",
}


def loaded_rows(store: Any, persona: str) -> int:
    """Active memories of ``persona`` already in the database (0 when the persona is new)."""
    return int(
        store.db.conn()
        .execute(
            "SELECT count(*) FROM memories m JOIN personas p ON p.id = m.persona_id "
            "WHERE p.name = ? AND m.status = 'active'",
            (persona,),
        )
        .fetchone()[0]
    )


def _image(new: Any) -> str:
    return json.dumps(
        {
            "content": new.content,
            "kind": str(new.kind),
            "importance": new.importance,
            "tags": list(new.tags),
            "emotion_type": new.emotion_type,
            "emotion_intensity": new.emotion_intensity,
            "valid_from": None,
            "valid_until": None,
            "superseded_by": None,
            "summary_ref": None,
            "status": "active",
            "metadata": new.metadata,
        },
        ensure_ascii=False,
    )


def copy_load(store: Any, corpus: SyntheticCorpus, personas: Sequence[tuple[str, int]]) -> float:
    """Load synthetic memories by COPY, ``n`` into each given ``(persona, n)``; returns the
    seconds taken (including rebuilding the keyword GIN indexes, dropped during the load, and
    the final VACUUM ANALYZE; excluding any HNSW build). Nobody else may write meanwhile."""
    owners = [store.get_persona(name).id for name, _ in personas]
    n = sum(count for _, count in personas)
    rows = (pid for pid, (_, count) in zip(owners, personas, strict=True) for _ in range(count))
    start = time.perf_counter()
    batches: queue.Queue[Any] = queue.Queue(maxsize=_WORKERS)
    errors: list[BaseException] = []
    progress = [0]
    lock = threading.Lock()

    def worker() -> None:
        with store.db.raw() as raw:
            while (batch := batches.get()) is not None:
                if errors:
                    continue
                try:
                    _copy_batch(raw, store, *batch)
                except BaseException as exc:  # reported by the caller
                    errors.append(exc)
                with lock:
                    before = progress[0]
                    progress[0] += len(batch[0])
                    if progress[0] // 100_000 > before // 100_000 or progress[0] == n:
                        log(
                            f"copy load: {progress[0]} / {n} rows, "
                            f"{time.perf_counter() - start:.0f} s"
                        )

    with store.db.raw() as raw:
        for name in _GIN:
            raw.execute(f"DROP INDEX IF EXISTS {name}")
    threads = [threading.Thread(target=worker) for _ in range(_WORKERS)]
    for thread in threads:
        thread.start()
    for size in chunks(n, _BATCH):
        batches.put(([next(rows) for _ in range(size)], *corpus.batch(size)))
    for _ in threads:
        batches.put(None)
    for thread in threads:
        thread.join()
    with store.db.raw() as raw:
        raw.execute("SET maintenance_work_mem = '1GB'")
        for name, target in _GIN.items():
            raw.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {target}")
        raw.execute("UPDATE personas SET revision = revision + 1 WHERE id = ANY(%s)", (owners,))
        for table in (
            "memories",
            "memory_strength",
            "memory_tags",
            "memory_vectors",
            "memories_fts",
            "memories_fts_tri",
            "memory_versions",
        ):
            raw.execute(f"VACUUM ANALYZE {table}")
    if errors:
        raise errors[0]
    return time.perf_counter() - start


def _copy_batch(
    raw: Any, store: Any, owners: list[int], news: Any, vectors: Any, stabilities: Any
) -> None:
    model_id, dim, size = store.model_id, store.dim, len(news)
    vector_oid = raw.execute("SELECT 'vector'::regtype::oid").fetchone()[0]
    stamp = iso(NOW)
    with raw.transaction():
        ids = [
            int(r[0])
            for r in raw.execute(
                "SELECT nextval(pg_get_serial_sequence('memories', 'id')) "
                "FROM generate_series(1, %s)",
                (size,),
            )
        ]
        with raw.cursor() as cur:
            with cur.copy(
                "COPY memories (id, key, persona_id, content, kind, importance, "
                "tags, emotion_type, emotion_intensity, source, source_ref, "
                "created_at, updated_at, valid_from, valid_until, metadata) "
                "FROM STDIN"
            ) as copy:
                for memory_id, persona_id, new in zip(ids, owners, news, strict=True):
                    copy.write_row(
                        (
                            memory_id,
                            new_key(),
                            persona_id,
                            new.content,
                            str(new.kind),
                            new.importance,
                            json.dumps(list(new.tags), ensure_ascii=False),
                            new.emotion_type,
                            new.emotion_intensity,
                            new.source,
                            new.source_ref,
                            iso(new.created_at or NOW),
                            stamp,
                            None,
                            None,
                            json.dumps(new.metadata, ensure_ascii=False),
                        )
                    )
            with cur.copy(
                "COPY memory_strength (memory_id, strength, stability, last_decay_at) FROM STDIN"
            ) as copy:
                for memory_id, new, stability in zip(ids, news, stabilities, strict=True):
                    copy.write_row((memory_id, new.importance, float(stability), stamp))
            with cur.copy("COPY memory_tags (memory_id, persona_id, tag) FROM STDIN") as copy:
                for memory_id, persona_id, new in zip(ids, owners, news, strict=True):
                    for tag in dict.fromkeys(new.tags):
                        copy.write_row((memory_id, persona_id, tag))
            with cur.copy(
                "COPY memory_vectors (memory_id, model_id, dim, vector) FROM STDIN (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["int8", "text", "int4", vector_oid])
                for memory_id, row in zip(ids, vectors, strict=True):
                    copy.write_row((memory_id, model_id, dim, row.tobytes()))
            bodies = [normalise(new.content) for new in news]
            # the persona given, so the insert trigger (migration 17) looks nothing up
            with cur.copy("COPY memories_fts (rowid, persona_id, body) FROM STDIN") as copy:
                for memory_id, persona_id, body in zip(ids, owners, bodies, strict=True):
                    copy.write_row((memory_id, persona_id, words_body(body)))
            with cur.copy("COPY memories_fts_tri (rowid, persona_id, body) FROM STDIN") as copy:
                for memory_id, persona_id, body in zip(ids, owners, bodies, strict=True):
                    copy.write_row((memory_id, persona_id, body))
            with cur.copy(
                "COPY memory_versions (memory_id, version, change, changed_by, "
                "changed_at, before, after) FROM STDIN"
            ) as copy:
                for memory_id, new in zip(ids, news, strict=True):
                    copy.write_row((memory_id, 1, "create", "user", stamp, None, _image(new)))


def load_one(app: Any, kind: str, n: int, args: Any, bulk: Any) -> dict[str, Any]:
    """Fill the one-persona database: ``bulk_load`` (the product's ``insert_many``), or on
    PostgreSQL COPY from ``--pg-copy-above`` rows, or nothing when ``--pg-reuse`` finds the
    rows there. Returns ``seconds`` (None when reused) and how the rows got there."""
    from omoide.errors import Conflict

    with contextlib.suppress(Conflict):
        app.auth.create_persona(PERSONA)
    if kind == "postgres" and args.pg_reuse and loaded_rows(app.store, PERSONA) == n:
        return {"seconds": None, "load": "reused"}
    if kind == "postgres" and n >= args.pg_copy_above:
        return {
            "seconds": copy_load(app.store, SyntheticCorpus(app.store.dim), [(PERSONA, n)]),
            "load": "copy",
        }
    return {"seconds": bulk(), "load": "insert_many"}


def load_many(
    app: Any, kind: str, names: Sequence[str], per: int, corpus: SyntheticCorpus, args: Any
) -> float | None:
    """Create the personas and fill each with ``per`` memories (``insert_many``; COPY on
    PostgreSQL from ``--pg-copy-above`` rows in all); None when ``--pg-reuse`` finds them."""
    if kind == "postgres" and args.pg_reuse:
        held = app.store.db.conn().execute("SELECT count(*) FROM memories").fetchone()[0]
        if held == len(names) * per:
            return None
    start = time.perf_counter()
    for name in names:
        app.auth.create_persona(name)
    if kind == "postgres" and len(names) * per >= args.pg_copy_above:
        start = time.perf_counter()  # ingest counts the COPY alone
        copy_load(app.store, corpus, [(name, per) for name in names])
    else:
        for name in names:
            news, vectors, stabilities = corpus.batch(per)
            app.store.memories(name).insert_many(news, vectors, stabilities=stabilities, now=NOW)
    return time.perf_counter() - start


def vector_side(
    app: Any, persona: str, embedder: Any, queries: Sequence[str], repeats: int
) -> dict[str, Any]:
    """The HNSW index (built now, before any search is timed; its build time), which path the
    persona's searches take, the SQL path's own latency and its recall@10 against the exact
    in-memory index (raw cosine and language-centred, as the retriever asks)."""
    from omoide.store.postgres.vectors import PgVectorSearch

    store = app.store
    began = time.perf_counter()
    store.ensure_ann_index(maintenance_work_mem="3GB")
    out: dict[str, Any] = {"hnsw_build_s": round(time.perf_counter() - began, 1)}
    vectors = [embedder.embed_query(q) for q in queries]
    samples = []
    for _ in range(repeats):
        for vector in vectors:
            start = time.perf_counter()
            store.nearest(persona, vector, limit=10)
            samples.append((time.perf_counter() - start) * 1000)
    out["hnsw_top10"] = _p(samples)
    search = store.memories(persona).vectors
    out["vector_path"] = "sql" if isinstance(search, PgVectorSearch) else "memory"
    if not isinstance(search, PgVectorSearch):
        return out
    # Internal on purpose: the exact in-memory index the SQL path is measured against, which a
    # Postgres store serving by SQL never builds (no production caller needs it).
    exact = store._load_vectors(store.get_persona(persona).id)
    recall: dict[str, list[float]] = {"raw": [], "centred": []}
    timing = []
    for _ in range(repeats):
        for query, vector in zip(queries, vectors, strict=True):
            start = time.perf_counter()
            got = search.search(vector, limit=50, centred_for=query)
            timing.append((time.perf_counter() - start) * 1000)
            want = exact.search(vector, limit=10, centred_for=query)
            recall["centred"].append(_overlap(got[:10], want))
            raw = search.search(vector, limit=10)
            recall["raw"].append(_overlap(raw, exact.search(vector, limit=10)))
    # In-distribution probes: fresh draws around the corpus's own topics (the e5 query vectors
    # above are not from the corpus's distribution, so their exact top 10 is decided by noise).
    probes, fresh, _ = SyntheticCorpus(store.dim, noise_seed=2026).batch(len(queries))
    inside: dict[str, list[float]] = {"raw": [], "centred": []}
    for probe, vector in zip(probes, fresh, strict=True):
        got = search.search(vector, limit=10, centred_for=probe.content)
        inside["centred"].append(
            _overlap(got, exact.search(vector, limit=10, centred_for=probe.content))
        )
        inside["raw"].append(
            _overlap(search.search(vector, limit=10), exact.search(vector, limit=10))
        )
    del exact
    out["sql_vector_side"] = _p(timing)
    out["recall_at_10"] = {k: round(sum(v) / len(v), 3) for k, v in recall.items()}
    out["recall_at_10_in_distribution"] = {k: round(sum(v) / len(v), 3) for k, v in inside.items()}
    log(f"vector side: {out}")
    return out


def settle(app: Any) -> dict[str, Any]:
    """The state the timed searches start from, on PostgreSQL: the row versions that earlier
    writes left dead (the previous run's decay rewrites every ``memory_strength`` row) are
    vacuumed now rather than by an autovacuum worker in the middle of the timing, and a
    ``CHECKPOINT`` writes the dirty pages out beforehand. A server sees both at other times:
    ``after_decay`` times the searches right after a million rows were written, unsettled.
    Returns the tables vacuumed and the seconds each step took."""
    began = time.perf_counter()
    with app.store.db.raw() as raw:
        dead = [
            r[0]
            for r in raw.execute(
                "SELECT relname FROM pg_stat_user_tables WHERE n_dead_tup > 1000 ORDER BY relname"
            )
        ]
        for table in dead:
            raw.execute(f'VACUUM "{table}"')
        vacuumed = time.perf_counter()
        raw.execute("CHECKPOINT")
    out = {
        "vacuumed": dead,
        "vacuum_s": round(vacuumed - began, 1),
        "checkpoint_s": round(time.perf_counter() - vacuumed, 1),
    }
    log(f"settled (dead rows vacuumed, CHECKPOINT): {out}")
    return {"settle": out}


def with_recall_writes(app: Any, persona: str, run: Any) -> dict[str, Any]:
    """``run()`` (a timing pass) with every search's recalls due, so each search writes them
    (a transaction updating its top 10): the clock is moved an hour past the persona's latest
    recall. Without this, a reused database's rows were recalled later than the benchmark's
    clock (earlier runs moved it on), and no timed search writes."""
    latest = (
        app.store.db.conn()
        .execute(
            "SELECT max(m.last_accessed) FROM memories m JOIN personas p ON p.id = m.persona_id "
            "WHERE p.name = ?",
            (persona,),
        )
        .fetchone()[0]
    )
    if latest is not None:
        later = parse_iso(latest) + timedelta(hours=1)
        if later > app.clock.now():
            app.clock.set(later)
    before = _recalled(app, persona)
    out = run()
    out["recall_writes"] = _recalled(app, persona) - before
    return out


def _recalled(app: Any, persona: str) -> int:
    return int(
        app.store.db.conn()
        .execute(
            "SELECT coalesce(sum(m.access_count), 0) FROM memories m JOIN personas p "
            "ON p.id = m.persona_id WHERE p.name = ? AND m.last_accessed IS NOT NULL",
            (persona,),
        )
        .fetchone()[0]
    )


def _overlap(got: Sequence[tuple[int, float]], want: Sequence[tuple[int, float]]) -> float:
    return len({i for i, _ in got} & {i for i, _ in want}) / max(len(want), 1)


def _p(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"p50_ms": at(0.5), "p95_ms": at(0.95)}


def hnsw_cell(r: dict[str, Any]) -> str:
    """The report's HNSW column for one row."""
    if "hnsw_top10" not in r:
        return "—"
    cell = (
        f"{r['hnsw_top10']['p50_ms']} / {r['hnsw_top10']['p95_ms']} "
        f"(built in {r['hnsw_build_s']} s)"
    )
    if "recall_at_10" in r:
        rec = r["recall_at_10"]
        side = r["sql_vector_side"]
        cell += f"; search path {side['p50_ms']} / {side['p95_ms']}"
        inside = r.get("recall_at_10_in_distribution")
        if inside:
            cell += (
                f", recall@10 (in-distribution probes) raw {inside['raw']}, centred "
                f"{inside['centred']}"
            )
        cell += (
            f"; with the e5 query vectors (out of distribution) raw {rec['raw']}, "
            f"centred {rec['centred']}"
        )
    return cell
