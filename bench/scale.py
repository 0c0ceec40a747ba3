"""Scale benchmark (issue 11, item 5): both stores at sizes past one persona's comfort, and
several servers on one PostgreSQL.

Sections (each on SQLite and on PostgreSQL unless said):

- ``one``: N memories in one persona, bulk-inserted with their vectors (synthetic corpus of
  ``lib.synthetic.SyntheticCorpus``: embedding is excluded from ingest), then hybrid search p50/p95
  with the query embedding excluded (vectors computed beforehand by the real model) and
  included, the decay job over every row, and the database's size on disk. On PostgreSQL also
  the HNSW index alone, built after the load (``PostgresStore.ensure_ann_index``; its build
  time is reported) and queried by ``PostgresStore.nearest`` (approximate top 10 by cosine).
- ``many``: P personas × M memories; search p50/p95 (embedding excluded) on random personas,
  whose first search loads that persona's vectors (what a server meeting a persona sees).
- ``servers``: 2 vs 4 ``omoide serve`` processes on one PostgreSQL behind a client-side round
  robin, under a mixed load (80% searches, 20% writes) from ``--clients`` threads for
  ``--seconds``: throughput, p50/p95, and the count of 5xx (target: none). The servers use the
  hash embedder so that the store and the servers are measured, not e5 on two shared cores.

    .venv/bin/python bench/scale.py --sizes 10000,100000 --personas 1000 --per-persona 100
    .venv/bin/python bench/scale.py --only servers --servers 2,4 --seconds 30
    .venv/bin/python bench/scale.py --pg-url postgresql://… (default: a pgserver in a temp dir)
    .venv/bin/python bench/scale.py --stores postgres --sizes 1000000 --pg-url … --pg-reuse

On PostgreSQL, loads of ``--pg-copy-above`` rows or more go through COPY (``_scale_pg.py``),
``--pg-reuse`` keeps a database that already holds the rows (its ingest is then not timed),
and the HNSW index is built before searches are timed, with the SQL path's recall@10 against
the exact index.

Targets (issue 11): PostgreSQL search p95 ≤ 50 ms at 1M with HNSW (embedding excluded);
SQLite ≤ 15 ms at 100k excluded; no 5xx under load. Results: bench/results/scale.{md,json}.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np

import _scale_pg
from _core_search import PrecomputedQueries, Variant, bulk_load, time_searches
from lib.harness import free_port
from lib.metrics import percentile
from lib.reports import RESULTS, load_average, log, machine_info, md_table, write_results
from lib.synthetic import NOW, SEARCH_QUERIES, SyntheticCorpus
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed import Embedder, make_embedder
from omoide.service.search import SearchService
from omoide.wiring import Omoide, build

PERSONA = "bench"  # _core_search.time_searches searches this persona
HYBRID = Variant("hybrid", "hybrid")
SERVER_ADMIN = "omo_admin_scale-bench"


# -- stores -------------------------------------------------------------------------------------


@contextlib.contextmanager
def postgres_url(given: str | None, root: Path) -> Iterator[str]:
    """The given URL, or a pgserver (PostgreSQL 16 + pgvector) in a temporary folder."""
    if given:
        yield given
        return
    import pgserver

    server = pgserver.get_server(root / "pgdata", cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def fresh_database(admin_url: str, name: str, *, keep: bool = False) -> str:
    """A new empty database (``keep``: the existing one, if any, with its rows)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not (keep and exists):
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
    base, _, query = admin_url.partition("?")
    return base.rsplit("/", 1)[0] + f"/{name}" + (f"?{query}" if query else "")


@contextlib.contextmanager
def temp_app(
    kind: str,
    embedder: Embedder,
    root: Path,
    name: str,
    pg_admin: str | None,
    *,
    keep: bool = False,
    ann_rows: int | None = None,
) -> Iterator[Omoide]:
    environ: dict[str, str] = {}
    if kind == "postgres":
        assert pg_admin is not None
        environ["OMOIDE_DATABASE_URL"] = fresh_database(pg_admin, name, keep=keep)
        if ann_rows is not None:
            environ["OMOIDE_PG_ANN_ROWS"] = str(ann_rows)
    app = build(
        Settings.from_env(environ, data_dir=root / name),
        embedder=embedder,
        clock=FixedClock(NOW),
        llm=None,
    )
    try:
        yield app
    finally:
        app.close()


def database_bytes(app: Omoide) -> int:
    if hasattr(app.store, "url"):
        return int(
            app.store.db.conn().execute("SELECT pg_database_size(current_database())").fetchone()[0]
        )
    path = app.settings.db_path
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def _root(kind: str, temp: Path, args: argparse.Namespace) -> Path:
    """Where a SQLite folder goes: ``--sqlite-dir`` (kept; rows already there are reused),
    else the run's temporary folder."""
    return args.sqlite_dir if kind == "sqlite" and args.sqlite_dir else temp


def _p(values: Sequence[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(values, 50), 1), "p95_ms": round(percentile(values, 95), 1)}


# -- sections -----------------------------------------------------------------------------------


def bench_one(
    kind: str,
    n: int,
    embedder: Embedder,
    root: Path,
    pg_admin: str | None,
    repeats: int,
    pg: argparse.Namespace,
) -> dict[str, Any]:
    queries = list(SEARCH_QUERIES)
    with temp_app(
        kind,
        embedder,
        _root(kind, root, pg),
        f"one_{kind}_{n}",
        pg_admin,
        keep=pg.pg_reuse,
        ann_rows=pg.pg_ann_rows,
    ) as app:
        if kind == "sqlite" and pg.sqlite_dir and _scale_pg.loaded_rows(app.store, PERSONA) == n:
            pg_out: dict[str, Any] = {"seconds": None, "load": "reused"}
        else:
            pg_out = _scale_pg.load_one(
                app, kind, n, pg, lambda: bulk_load(app, SyntheticCorpus(embedder.dim), PERSONA, n)
            )
        seconds = pg_out.pop("seconds")
        if kind == "postgres":
            pg_out.update(_scale_pg.vector_side(app, PERSONA, embedder, queries, repeats))
            pg_out.update(_scale_pg.settle(app))  # earlier writes vacuumed, then CHECKPOINT
        clock = app.clock
        assert isinstance(clock, FixedClock)
        excluded = SearchService(
            app.store, PrecomputedQueries(embedder, queries), clock, app.settings_service
        )
        began = time.perf_counter()
        time_searches(excluded, clock, HYBRID, queries[:1], 1)  # the index loads here
        first_s = round(time.perf_counter() - began, 2)
        time_searches(excluded, clock, HYBRID, queries, 1)  # warm
        out: dict[str, Any] = {
            "n": n,
            "ingest_per_s": round(n / seconds, 1) if seconds else None,
            **pg_out,
            "load_average": load_average(),
            "first_search_s": first_s,
            "excluded": time_searches(excluded, clock, HYBRID, queries, repeats),
            "included": time_searches(app.search, clock, HYBRID, queries, repeats),
        }
        if kind == "postgres":  # every search also writes its recalls (see _scale_pg)
            out["recall_writes"] = _scale_pg.with_recall_writes(
                app, PERSONA, lambda: time_searches(excluded, clock, HYBRID, queries, 1)
            )
        start = time.perf_counter()
        decayed = app.store.decay_all(now=clock.now())
        out["decay_s"] = round(time.perf_counter() - start, 2)
        assert decayed == n
        if kind == "postgres":  # right after a million rows written: no settling first
            out["after_decay"] = time_searches(excluded, clock, HYBRID, queries, 1)
            _scale_pg.settle(app)  # not left to the next section's timing
        out["db_mb"] = round(database_bytes(app) / 2**20, 1)
        log(
            f"{kind} one persona × {n}: ingest {out['ingest_per_s']}/s, search p95 excl "
            f"{out['excluded']['p95_best_ms']:.1f} ms, incl {out['included']['p95_best_ms']:.1f}"
            f" ms, decay {out['decay_s']} s, {out['db_mb']} MB"
        )
        return out


def bench_many(
    kind: str,
    personas: int,
    per: int,
    embedder: Embedder,
    root: Path,
    pg_admin: str | None,
    searches: int,
    pg: argparse.Namespace,
) -> dict[str, Any]:
    queries = list(SEARCH_QUERIES)
    precomputed = PrecomputedQueries(embedder, queries)
    corpus = SyntheticCorpus(embedder.dim)
    with temp_app(
        kind, embedder, _root(kind, root, pg), f"many_{kind}_{personas}", pg_admin, keep=pg.pg_reuse
    ) as app:
        names = [f"p{i:05d}" for i in range(personas)]
        held = app.store.db.conn().execute("SELECT count(*) FROM memories").fetchone()[0]
        if kind == "sqlite" and pg.sqlite_dir and held == personas * per:
            seconds = None
        else:
            seconds = _scale_pg.load_many(app, kind, names, per, corpus, pg)
        settled = _scale_pg.settle(app) if kind == "postgres" else {}
        service = SearchService(app.store, precomputed, app.clock, app.settings_service)
        rng = np.random.default_rng(3)
        cold, warm = [], []
        seen: set[str] = set()
        for i in range(searches):
            name = names[int(rng.integers(personas))]
            query = queries[i % len(queries)]
            began = time.perf_counter()
            service.search(name, service.build_request(name, query=query, top_k=10))
            (warm if name in seen else cold).append((time.perf_counter() - began) * 1000)
            seen.add(name)
        included = []  # the query embedded by the real model, on personas already met
        for i in range(max(1, searches // 4)):
            name = sorted(seen)[int(rng.integers(len(seen)))]
            began = time.perf_counter()
            app.search.search(
                name, app.search.build_request(name, query=queries[i % len(queries)], top_k=10)
            )
            included.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        app.store.decay_all(now=app.clock.now())
        out = {
            "personas": personas,
            "per_persona": per,
            "ingest_per_s": round(personas * per / seconds, 1) if seconds else None,
            "first_search": _p(cold) if cold else None,
            "search": _p(warm) if warm else None,
            "included": _p(included),
            "decay_s": round(time.perf_counter() - began, 2),
            "db_mb": round(database_bytes(app) / 2**20, 1),
            "load_average": load_average(),
            **settled,
        }
        log(f"{kind} {personas} personas × {per}: {out}")
        return out


def bench_servers(
    counts: Sequence[int], pg_admin: str, root: Path, clients: int, seconds: float
) -> dict[str, Any]:
    results: dict[str, Any] = {}
    omoide = Path(sys.executable).parent / "omoide"
    for count in counts:
        url = fresh_database(pg_admin, f"servers_{count}")
        procs, bases = [], []
        for i in range(count):
            port = free_port()
            env = {
                **os.environ,
                "OMOIDE_EMBEDDER": "hash",
                "OMOIDE_PORT": str(port),
                "OMOIDE_DATA": str(root / f"srv{count}_{i}"),
                "OMOIDE_DATABASE_URL": url,
                "OMOIDE_ADMIN_KEY": SERVER_ADMIN,
            }
            procs.append(
                subprocess.Popen(
                    [str(omoide), "serve"],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        try:
            for base in bases:
                _wait(base)
            results[str(count)] = _load(bases, clients, seconds)
            log(f"{count} servers: {results[str(count)]}")
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(20)
    return results


def _wait(base: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/health", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"server {base} did not start")


def _load(bases: Sequence[str], clients: int, seconds: float) -> dict[str, Any]:
    personas = [f"load{i}" for i in range(8)]
    keys = {}
    with httpx.Client(
        base_url=bases[0], timeout=30, headers={"Authorization": f"Bearer {SERVER_ADMIN}"}
    ) as admin:
        for name in personas:
            keys[name] = admin.post("/api/personas", json={"name": name}).json()["api_key"]
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors = 0
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    queries = list(SEARCH_QUERIES)

    def client(index: int) -> None:
        nonlocal errors
        rng = np.random.default_rng(index)
        sessions = [httpx.Client(base_url=b, timeout=30) for b in bases]
        i = 0
        while time.monotonic() < stop:
            i += 1
            name = personas[int(rng.integers(len(personas)))]
            http = sessions[(index + i) % len(sessions)]
            headers = {"Authorization": f"Bearer {keys[name]}"}
            began = time.perf_counter()
            try:
                if rng.random() < 0.2:
                    reply = http.post(
                        f"/api/memories/{name}",
                        headers=headers,
                        json={"content": f"client {index} note {i}: {queries[i % len(queries)]}"},
                    )
                else:
                    reply = http.get(
                        f"/api/search/{name}",
                        headers=headers,
                        params={"q": queries[i % len(queries)]},
                    )
                with lock:
                    latencies.append((time.perf_counter() - began) * 1000)
                    statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1
            except httpx.HTTPError:
                with lock:
                    errors += 1
        for session in sessions:
            session.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {
        "requests": len(latencies),
        "per_s": round(len(latencies) / seconds, 1),
        **_p(latencies),
        "statuses": statuses,
        "errors": errors,
        "5xx": sum(n for code, n in statuses.items() if code >= 500),
        "load_average": load_average(),
    }


# -- report -------------------------------------------------------------------------------------


def _lat(stats: dict[str, Any]) -> str:
    """p50 / p95 (best of repeats), then the median repeat's p95 in parentheses."""
    return f"{stats['p50_best_ms']:.1f} / {stats['p95_best_ms']:.1f} ({stats['p95_median_ms']:.1f})"


def render(result: dict[str, Any]) -> str:
    lines = [
        "# Scale benchmark (issue 11)",
        "",
        f"Machine: {result['machine']['cpus']} cores shared with other work (load average "
        f"in each row), revision {result['machine']['revision']}, started "
        f"{result['machine']['started_at']}.",
        "",
        f"Command: `{result['command']}`",
        "",
        "Synthetic corpus (`lib.synthetic.SyntheticCorpus`), vectors inserted directly "
        "(ingest excludes embedding); hybrid search, top 10; embedder for queries: "
        f"`{result['embedder']}`; GIL switch interval "
        f"{result.get('switch_interval_s', 0.005) * 1000:g} ms. Best p95 of the repeats "
        "is shown first, median second.",
        "",
    ]
    one = result.get("one", {})
    if one:
        lines += ["## One persona", ""]
        rows = []
        for kind, sizes in one.items():
            for r in sizes:
                rows.append(
                    [
                        kind,
                        r["n"],
                        r["ingest_per_s"] or "(reused)",
                        _lat(r["excluded"]),
                        "{:.1f} / {:.1f}".format(
                            r["excluded"]["cpu_p50_best_ms"], r["excluded"]["cpu_p95_best_ms"]
                        ),
                        _lat(r["included"]),
                        _scale_pg.hnsw_cell(r),
                        r["decay_s"],
                        r["db_mb"],
                        "{:.1f}".format(r["load_average"][0]),
                    ]
                )
        lines += [
            md_table(
                [
                    "store",
                    "memories",
                    "ingest/s",
                    "search excl p50 / p95 ms",
                    "excl CPU p50 / p95 ms",
                    "search incl p50 / p95 ms",
                    "HNSW top-10 p50 / p95 ms",
                    "decay s",
                    "DB MB",
                    "load",
                ],
                rows,
            ),
            "",
        ]
    many = result.get("many", {})
    if many:
        lines += ["## Many personas", ""]
        rows = [
            [
                kind,
                r["personas"],
                r["per_persona"],
                r["ingest_per_s"] or "(reused)",
                f"{r['first_search']['p50_ms']} / {r['first_search']['p95_ms']}"
                if r["first_search"]
                else "—",
                f"{r['search']['p50_ms']} / {r['search']['p95_ms']}" if r["search"] else "—",
                f"{r['included']['p50_ms']} / {r['included']['p95_ms']}"
                if r.get("included")
                else "—",
                r.get("decay_s", "—"),
                r["db_mb"],
                "{:.1f}".format(r["load_average"][0]),
            ]
            for kind, r in many.items()
        ]
        lines += [
            md_table(
                [
                    "store",
                    "personas",
                    "memories each",
                    "ingest/s",
                    "first search p50 / p95 ms",
                    "later searches p50 / p95 ms",
                    "incl. embedding p50 / p95 ms",
                    "decay s",
                    "DB MB",
                    "load",
                ],
                rows,
            ),
            "",
        ]
    servers = result.get("servers", {})
    if servers:
        lines += ["## Servers on one PostgreSQL (mixed load: 80% search, 20% write)", ""]
        rows = [
            [
                n,
                r["requests"],
                r["per_s"],
                r["p50_ms"],
                r["p95_ms"],
                r["5xx"],
                r["errors"],
                "{:.1f}".format(r["load_average"][0]),
            ]
            for n, r in servers.items()
        ]
        lines += [
            md_table(
                [
                    "servers",
                    "requests",
                    "req/s",
                    "p50 ms",
                    "p95 ms",
                    "5xx",
                    "transport errors",
                    "load",
                ],
                rows,
            ),
            "",
        ]
    lines += result.get("notes", [])
    return "\n".join(lines) + "\n"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("one", "many", "servers"), action="append")
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--personas", type=int, default=1000)
    parser.add_argument("--per-persona", type=int, default=100)
    parser.add_argument("--many-searches", type=int, default=400)
    parser.add_argument("--servers", default="2,4")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--pg-url", default=None, help="an admin URL (default: pgserver)")
    parser.add_argument("--out", type=Path, default=RESULTS / "scale")
    parser.add_argument(
        "--pg-copy-above",
        type=int,
        default=200_000,
        help="PostgreSQL loads of this many rows or more use COPY",
    )
    parser.add_argument(
        "--pg-ann-rows", type=int, default=None, help="OMOIDE_PG_ANN_ROWS (default: the store's)"
    )
    parser.add_argument(
        "--pg-reuse",
        action="store_true",
        help="keep a PostgreSQL database that already holds the rows",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="the GIL switch interval in seconds for the searches "
        "(sys.setswitchinterval; `omoide serve` sets 0.001; default: "
        "Python's 0.005)",
    )
    parser.add_argument(
        "--sqlite-dir",
        type=Path,
        default=None,
        help="keep the SQLite folders here; one that already holds the rows "
        "is reused (its ingest is then not timed)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    sections = set(args.only or ("one", "many", "servers"))
    stores = [s for s in args.stores.split(",") if s]
    embedder = make_embedder(args.embedder, threads=1)
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval)
    result: dict[str, Any] = {
        "machine": machine_info(),
        "embedder": args.embedder,
        "switch_interval_s": sys.getswitchinterval(),
        "command": "python bench/scale.py " + " ".join(argv or sys.argv[1:]),
        "one": {},
        "many": {},
        "servers": {},
    }
    with tempfile.TemporaryDirectory(prefix="omoide-scale-") as tmp:
        root = Path(tmp)
        with postgres_url(args.pg_url, root) as pg_admin:
            for kind in stores:
                if "one" in sections:
                    result["one"][kind] = [
                        bench_one(kind, int(n), embedder, root, pg_admin, args.repeats, args)
                        for n in args.sizes.split(",")
                    ]
                if "many" in sections:
                    result["many"][kind] = bench_many(
                        kind,
                        args.personas,
                        args.per_persona,
                        embedder,
                        root,
                        pg_admin,
                        args.many_searches,
                        args,
                    )
            if "servers" in sections:
                result["servers"] = bench_servers(
                    [int(n) for n in args.servers.split(",")],
                    pg_admin,
                    root,
                    args.clients,
                    args.seconds,
                )
    md, js = write_results(args.out, render(result), result)
    log(f"wrote {md} and {js}")


if __name__ == "__main__":
    main()
